// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct account [--json] [FILE]: parse /proc/slab_account (or a saved
 * copy) and print it back as a table or as JSON; a /proc/allocinfo (told
 * by its content) likewise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "account/account.h"
#include "account/allocinfo.h"
#include "account/sniff.h"
#include "cli/cmd.h"
#include "emit/emit.h"
#include "report/sort.h"
#include "util/textfold.h"


static void add_orders(JsonBuilder *b, const char *k, const guint64 *v,
		       unsigned int n)
{
	unsigned int i;

	json_builder_set_member_name(b, k);
	json_builder_begin_array(b);
	for (i = 0; i < n; i++)
		json_builder_add_int_value(b, (gint64)v[i]);
	json_builder_end_array(b);
}

static void print_json(const struct sa_account *a)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *g;
	JsonNode *root;
	char *out;
	size_t i;
	int k;

	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_int(b, "format_version", a->version);
	json_builder_set_member_name(b, "sort");
	json_builder_add_string_value(b, a->sort);
	sa_json_put_int(b, "top", a->top);
	sa_json_put_int(b, "sites", a->sites);
	sa_json_put_int(b, "objects", a->objects);
	json_builder_set_member_name(b, "cache_slot_exact");
	json_builder_add_boolean_value(b, a->cache_slot_exact);
	sa_json_put_int(b, "bytes_alloc", a->bytes_alloc);
	sa_json_put_int(b, "bytes_req", a->bytes_req);
	sa_json_put_int(b, "slack", a->slack);
	sa_json_put_int(b, "live_bytes", a->live_bytes);
	sa_json_put_int(b, "live_req", a->live_req);
	sa_json_put_int(b, "live_objects", a->live_objects);
	sa_json_put_int(b, "allocs", a->allocs);
	sa_json_put_int(b, "frees", a->frees);
	sa_json_put_int(b, "callers", a->callers);
	sa_json_put_int(b, "dropped", a->dropped);
	sa_json_put_int(b, "untracked_frees", a->untracked_frees);
	sa_json_put_int(b, "map_full", a->map_full);
	sa_json_put_int(b, "lost_frees", a->lost_frees);
	json_builder_set_member_name(b, "kmalloc_repeats");
	if (a->kmalloc_repeats_known)
		json_builder_add_int_value(b, (gint64)a->kmalloc_repeats);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "kinds");
	json_builder_begin_object(b);
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++) {
		json_builder_set_member_name(b, sa_account_kind_name(k));
		json_builder_begin_object(b);
		sa_json_put_int(b, "allocs", a->kind[k].allocs);
		sa_json_put_int(b, "bytes_alloc", a->kind[k].bytes_alloc);
		sa_json_put_int(b, "bytes_req", a->kind[k].bytes_req);
		sa_json_put_int(b, "slack", a->kind[k].slack);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	add_orders(b, "pages_alloc", a->pages_alloc, a->n_orders);
	add_orders(b, "pages_free", a->pages_free, a->n_orders);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *r = &a->rows[i];

		json_builder_begin_object(b);
		sa_json_put_int(b, "total", r->total);
		sa_json_put_int(b, "slack", r->slack);
		sa_json_put_int(b, "req", r->req);
		sa_json_put_int(b, "live", r->live);
		sa_json_put_int(b, "objs", r->objs);
		sa_json_put_int(b, "allocs", r->allocs);
		sa_json_put_int(b, "frees", r->frees);
		json_builder_set_member_name(b, "kind");
		json_builder_add_string_value(b, sa_account_kind_name(r->kind));
		json_builder_set_member_name(b, "caller");
		json_builder_add_string_value(b, r->caller);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);

	root = json_builder_get_root(b);
	g = json_generator_new();
	json_generator_set_pretty(g, TRUE);
	json_generator_set_root(g, root);
	out = json_generator_to_data(g, NULL);
	puts(out);
	g_free(out);
	json_node_unref(root);
	g_object_unref(g);
	g_object_unref(b);
}

#define H(v) sa_human((char[16]){ 0 }, (v))

/* Under 80 columns (folded if a caller is too long); bytes scaled. */
static int print_text(const struct sa_account *a)
{
	struct sa_emit e = { .fmt = SA_FMT_TEXT, .width = 80 };
	struct sa_account_head h;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	int k, ret;

	if (!f)
		return -1;
	sa_account_head_of(a, &h);
	fprintf(f, "/proc/slab_account, format %d: %" G_GUINT64_FORMAT
		" allocs, %" G_GUINT64_FORMAT " frees, %" G_GUINT64_FORMAT
		" callers\n", a->version, a->allocs, a->frees, a->callers);
	fprintf(f, "bytes: %" G_GUINT64_FORMAT " allocated, %"
		G_GUINT64_FORMAT " requested, %" G_GUINT64_FORMAT " slack\n",
		a->bytes_alloc, a->bytes_req, a->slack);
	fprintf(f, "live: %" G_GINT64_FORMAT " bytes in %" G_GINT64_FORMAT
		" objects\n", a->live_bytes, a->live_objects);
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++)
		fprintf(f, "%-8s %" G_GUINT64_FORMAT " allocs, %"
			G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
			" slack\n", sa_account_kind_name(k), a->kind[k].allocs,
			a->kind[k].bytes_alloc, a->kind[k].slack);
	/* table sizes and what the module could not account */
	sa_text_account_head(f, "", &h);
	fprintf(f, "%6s %6s %6s %6s %11s %-5s %s\n", "total", "slack",
		"live", "objs", "alloc/free", "kind", "caller");
	e.out = f;
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *r = &a->rows[i];
		char af[48], *caller = g_strdup(r->caller), *sz;

		/* "func+0x31/0x60 [mod]": the function's size is not shown */
		sz = strchr(caller, '/');
		if (sz) {
			char *end = sz + strcspn(sz, " ");

			memmove(sz, end, strlen(end) + 1);
		}
		snprintf(af, sizeof(af), "%" G_GUINT64_FORMAT "/%"
			 G_GUINT64_FORMAT, r->allocs, r->frees);
		fprintf(f, "%6s %6s %6s %6" G_GINT64_FORMAT " %11s %-5s ",
			H(r->total), H(r->slack), H(r->live > 0 ? r->live : 0),
			r->objs > 0 ? r->objs : 0, af,
			r->kind == SA_ACCOUNT_CACHE ? "cache" : "kmall");
		sa_text_tail_name(&e, 46, caller);
		g_free(caller);
	}
	if (fclose(f)) {
		free(buf);
		return -1;
	}
	ret = sa_text_fold_write(stdout, buf, len, 80);
	free(buf);
	return ret;
}

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

/* Every row, exact: the file's order and fields. */
static void print_allocinfo_json(const struct sa_allocinfo *ai)
{
	JsonBuilder *b = json_builder_new();
	char *v = g_strdup_printf("%u.%u", ai->major, ai->minor);
	size_t i;

	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "input", "/proc/allocinfo");
	sa_json_put_str(b, "format_version", v);
	sa_json_put_int(b, "tags", ai->n_rows);
	sa_json_put_int(b, "live_tags", ai->n_live);
	sa_json_put_int(b, "inaccurate", ai->n_inaccurate);
	sa_json_put_int(b, "live_bytes", ai->bytes);
	sa_json_put_int(b, "live", ai->calls);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];

		json_builder_begin_object(b);
		sa_json_put_int(b, "bytes", r->bytes);
		sa_json_put_int(b, "calls", r->calls);
		sa_json_put_str(b, "file", r->file);
		sa_json_put_int(b, "line", r->line);
		sa_json_put_str(b, "module", r->module);
		sa_json_put_str(b, "function", r->function);
		json_builder_set_member_name(b, "accurate");
		json_builder_add_boolean_value(b, !r->inaccurate);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	sa_json_print(b, stdout, true);
	g_object_unref(b);
	g_free(v);
}

/* The rows with something live, in the file's order; bytes scaled. */
static int print_allocinfo_text(const struct sa_allocinfo *ai)
{
	struct sa_emit e = { .fmt = SA_FMT_TEXT, .width = 80 };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -1;
	fprintf(f, "/proc/allocinfo, format %u.%u: %zu allocation sites, %zu "
		"with live allocations, %zu marked inaccurate\n", ai->major,
		ai->minor, ai->n_rows, ai->n_live, ai->n_inaccurate);
	fprintf(f, "live: %" G_GINT64_FORMAT " bytes in %" G_GINT64_FORMAT
		" allocations\n", ai->bytes, ai->calls);
	fprintf(f, "%7s %9s %s\n", "live_b", "calls", "site");
	e.out = f;
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];
		char *site;

		if (!r->bytes && !r->calls)
			continue;
		site = r->module ? g_strdup_printf("%s [%s]", r->function,
						   r->module) :
			g_strdup(r->function);
		fprintf(f, "%7s %9" G_GINT64_FORMAT " ",
			H(r->bytes > 0 ? r->bytes : 0), r->calls);
		sa_text_tail_name(&e, 18, site);
		sa_text_where(&e, 8, r->file, r->line);
		if (r->inaccurate)
			fprintf(f, "        accurate: no\n");
		g_free(site);
	}
	if (fclose(f)) {
		free(buf);
		return -1;
	}
	ret = sa_text_fold_write(stdout, buf, len, 80);
	free(buf);
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
	if (json) {
		print_allocinfo_json(ai);
	} else if (print_allocinfo_text(ai)) {
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
	if (sa_text_input_sniff(path) == SA_TEXT_ALLOCINFO) {
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
			       "(insmod slab_account.ko)%s",
			       argc < 2 && g_file_test("/proc/allocinfo",
						       G_FILE_TEST_EXISTS) ?
			       "; the kernel's own allocation profiling: "
			       "slabacct account /proc/allocinfo" : "");
		g_error_free(err);
		return SA_EXIT_FAIL;
	}
	if (json)
		print_json(a);
	else if (print_text(a)) {
		sa_err("account", "writing: %s", g_strerror(errno));
		sa_account_free(a);
		return SA_EXIT_FAIL;
	}
	sa_account_free(a);
	return SA_EXIT_OK;
}
