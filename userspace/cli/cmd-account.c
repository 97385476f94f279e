// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct account [--json] [FILE]: parse /proc/slab_account (or a saved
 * copy) and print it back as a table or as JSON; a /proc/allocinfo (told
 * by its content) likewise.
 */
#include <errno.h>
#include <stdio.h>

#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "cli/cmd.h"
#include "emit/emit.h"
#include "emit/proc-print.h"
#include "report/input-kind.h"
#include "report/sort.h"


/*
 * --format openmetrics or prometheus: the snapshot's call sites as
 * metrics, the first top by bytes allocated, the rest as site="other".
 */
static int print_metrics(const char *path, enum sa_format fmt, int top)
{
	struct sa_report_opts opts = { 0 };
	struct sa_emit e = { .fmt = fmt, .out = stdout };
	struct sa_report *rep;
	GError *err = NULL;
	int ret = SA_EXIT_OK;

	rep = sa_report_from_account(path, &opts, &err);
	if (!rep) {
		sa_err("account", "%s", err->message);
		g_error_free(err);
		return SA_EXIT_FAIL;
	}
	sa_callsite_view(rep->result[SA_SEC_CALLSITE], NULL, top, 0);
	if (sa_emit_report(&e, rep)) {
		sa_err("account", "writing: %s", g_strerror(errno));
		ret = SA_EXIT_FAIL;
	}
	sa_report_free(rep);
	return ret;
}

static int account_allocinfo(const char *path, gboolean json)
{
	GError *err = NULL;
	struct sa_allocinfo *ai = sa_allocinfo_load(path, &err);

	if (!ai) {
		sa_err("account", "%s", err->message);
		g_error_free(err);
		return SA_EXIT_FAIL;
	}
	if (json ? sa_allocinfo_print_json(stdout, ai) :
		   sa_allocinfo_print_text(stdout, ai)) {
		sa_err("account", "writing: %s", g_strerror(errno));
		sa_allocinfo_free(ai);
		return SA_EXIT_FAIL;
	}
	sa_allocinfo_free(ai);
	return SA_EXIT_OK;
}

static const char account_help[] =
	"Slack = bytes_alloc - bytes_req. For kmalloc it is the caller's\n"
	"over-request; for kmem_cache it is the cache's padding, so the two\n"
	"kinds are shown apart. Text scales bytes (K = 1024); --json has the\n"
	"exact numbers.\n"
	"\n"
	"--format openmetrics (OpenMetrics 1.0) or prometheus (the text\n"
	"format node_exporter's textfile collector reads) writes the call\n"
	"sites as metrics, as 'slabacct report --format' does:\n"
	"slabacct_site_allocated_bytes_total{site=\"...\",kind=\"kmalloc\"},\n"
	"..._requested_bytes_total, ..._slack_bytes_total,\n"
	"..._allocations_total, ..._frees_total, slabacct_site_live_bytes and\n"
	"slabacct_site_live_objects, for the first --top sites by bytes\n"
	"allocated (default 10, 0 = all) and one site=\"other\" per kind for\n"
	"the rest; with slabacct_sites, slabacct_info and the module's\n"
	"counters of what it could not account (slabacct_module_*_total).\n"
	"\n"
	"Exit status: 0 ok, 1 unreadable input, 2 usage.\n"
	"\n"
	"Examples:\n"
	"  slabacct account\n"
	"  slabacct account --json saved.txt\n"
	"  slabacct account --format prometheus --top 20 \\\n"
	"      >/var/lib/prometheus/node-exporter/slabacct.prom.$$ &&\n"
	"    mv /var/lib/prometheus/node-exporter/slabacct.prom.$$ \\\n"
	"      /var/lib/prometheus/node-exporter/slabacct.prom";

int cmd_account(int argc, char **argv)
{
	gboolean json = FALSE;
	gchar *format = NULL;
	gint top = 10;
	enum sa_input_kind kind;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "print JSON (schema_version 1)", NULL },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json, openmetrics or prometheus", "FMT" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "metrics: the first N call sites (default 10, 0 = all)",
		  "N" },
		{ NULL },
	};
	const char *path = "/proc/slab_account";
	enum sa_format fmt = SA_FMT_TEXT;
	struct sa_account *a;
	GError *err = NULL;

	if (sa_parse_options(&argc, &argv, "account", "[FILE]",
			     "Parse /proc/slab_account (slab_account.ko), or a "
			     "saved copy, and print it. A /proc/allocinfo (the "
			     "kernel's allocation profiling, 6.10+), told by "
			     "its content, likewise.", account_help,
			     entries))
		return SA_EXIT_USAGE;
	if (format && (sa_format_parse(format, &fmt) ||
		       (fmt != SA_FMT_TEXT && fmt != SA_FMT_JSON &&
			fmt != SA_FMT_OPENMETRICS &&
			fmt != SA_FMT_PROMETHEUS))) {
		sa_err("account", "unknown format '%s' (text, json, "
		       "openmetrics, prometheus)", format);
		g_free(format);
		return SA_EXIT_USAGE;
	}
	g_free(format);
	if (fmt == SA_FMT_JSON)
		json = TRUE;
	if (argc > 2) {
		sa_err("account", "unexpected argument '%s'", argv[2]);
		return SA_EXIT_USAGE;
	}
	if (argc == 2)
		path = argv[1];
	sa_crash_guard("account", path);
	/* unreadable: the parser below says so, with the module's hint */
	if (sa_input_kind(path, &kind, NULL))
		kind = SA_INPUT_OTHER;
	if (kind == SA_INPUT_ALLOCINFO) {
		if (fmt == SA_FMT_OPENMETRICS || fmt == SA_FMT_PROMETHEUS) {
			sa_err("account", "%s: metrics of a /proc/allocinfo "
			       "snapshot are not written (text or json)", path);
			return SA_EXIT_USAGE;
		}
		return account_allocinfo(path, json);
	}
	if (fmt == SA_FMT_OPENMETRICS || fmt == SA_FMT_PROMETHEUS)
		return print_metrics(path, fmt, top);
	a = sa_account_load(path, &err);
	if (!a) {
		sa_err("account", "%s", err->message);
		if (err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_NOENT)
			sa_err("account", "is slab_account.ko loaded? "
			       "(modprobe slab_account, or insmod slab_account.ko "
			       "from a build tree)%s",
			       argc < 2 && g_file_test("/proc/allocinfo",
						       G_FILE_TEST_EXISTS) ?
			       "; the kernel's own allocation profiling: "
			       "slabacct account /proc/allocinfo" : "");
		g_error_free(err);
		return SA_EXIT_FAIL;
	}
	if (json ? sa_account_print_json(stdout, a) :
		   sa_account_print_text(stdout, a)) {
		sa_err("account", "writing: %s", g_strerror(errno));
		sa_account_free(a);
		return SA_EXIT_FAIL;
	}
	sa_account_free(a);
	return SA_EXIT_OK;
}
