// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct diff A B: two recordings or /proc/slab_account snapshots,
 * compared call site by call site.
 */
#include <errno.h>
#include <string.h>

#include "cli/cmd.h"
#include "util/outfile.h"
#include "emit/emit.h"
#include "util/progress.h"
#include "report/diff.h"
#include "report/threshold.h"

static const char diff_help[] =
"A and B are each a trace.dat (slabacct record, boot collect, trace-cmd\n"
"record) or a saved /proc/slab_account; they may be one of each. Or both\n"
"are a saved /proc/allocinfo (6.10+): sites are then matched by function\n"
"and file:line, and compared by live bytes and allocations, the only\n"
"figures allocinfo has (--sort allocs: by live allocations; --fail-on\n"
"judges them with MEASURE live).\n"
"Per call site: the change (B - A) in bytes allocated, slack, allocs and\n"
"live bytes, and whether the site is new (only in B) or gone (only in A).\n"
"Rows are sorted by the absolute change; unchanged sites are left out\n"
"unless --all. Traces with vmalloc and percpu events (record -e\n"
"vmalloc,percpu) add their rows, of kinds vmalloc and percpu, and a\n"
"total each beside the slab's (the slab's total has no vmalloc or\n"
"percpu in it); an input without those events says 'not traced'.\n"
"Sites match by kind and 'func+0xoff [module]'; with\n"
"--by function they match by function, which survives code moving\n"
"between two kernel builds, and 6.10+'s renaming: a function is matched\n"
"without its leading underscores and a '_noprof' suffix (6.1's\n"
"kvmalloc_node is 6.12's __kvmalloc_node_noprof), unless two functions\n"
"of one side share that name. slack = bytes_alloc - bytes_req.\n"
"A may also be a merge of many runs (slabacct merge --json): each site\n"
"then stands for its median over the runs, the totals for the median\n"
"run's. A or B may be a report's JSON (report --json, without --top;\n"
"--what callsite,vmalloc,percpu for those rows and totals too).\n"
"\n"
"CI gates: --fail-on RULE[,RULE...] judges every site (not only those\n"
"shown) after the diff is written, prints one line to standard error\n"
"saying which limits were crossed and by what (or that none was), and\n"
"exits 3 if any was.\n"
"  RULE    = SCOPE[/MEASURE]:LIMIT[&LIMIT...]  (crossed when B exceeds\n"
"            A by more than every LIMIT)\n"
"  SCOPE   = total     the slab's totals (allocinfo's: every allocator)\n"
"            vmalloc-total, percpu-total\n"
"                      the vmalloc or the percpu totals, each on its\n"
"                      own (no slack); A and B must both have traced\n"
"                      those events, else exit 1\n"
"            site      each site in both A and B, of any kind\n"
"            new-site  each site only in B (by its value in B)\n"
"  MEASURE = bytes (allocated; default), slack, allocs, live (bytes)\n"
"  LIMIT   = [+]N[K|M|G|T]  more than N (K = 1024; allocs: a count)\n"
"            [+]P%          more than P percent of A (not for new-site;\n"
"                           growing from 0 exceeds any percentage)\n"
"Shrinking and gone sites never cross a limit. A bad RULE is a usage\n"
"error (exit 2). A truncated side (a recording that stopped early, or a\n"
"merge with such a run: the output says 'TRUNCATED') is not judged:\n"
"its figures are incomplete, so exit 4.\n"
"--folded writes the two recordings' stacks folded, as report\n"
"  --folded does (32 frames, the last the row's --by caller name),\n"
"  each line weighed by its change from A to B in the --sort key: bytes\n"
"  (allocated, default), allocs, live (bytes) or slack; negative: it\n"
"  shrank. Unchanged lines are left out; lines are sorted.\n"
"\n"
"Exit status: 0 ok (and within the limits), 1 unreadable input (or\n"
"one without what a rule judges), 2 usage, 3 a --fail-on limit was\n"
"crossed, 4 --fail-on with a truncated side; a crash is an internal\n"
"error,\n"
"said so, and ends with its signal.\n"
"\n"
"Examples:\n"
"  slabacct diff before.dat after.dat\n"
"  slabacct diff --by function --top 20 --json base.dat patched.dat\n"
"  slabacct diff --folded --sort live base.dat patched.dat > live.diff\n"
"  slabacct diff slab_account.before slab_account.after\n"
"  slabacct diff --fail-on 'total:+64K,site:+10%,new-site:16K' a.dat b.dat\n"
"  slabacct diff --fail-on 'site:+10%&+8K,total/live:+1M' base.json b.dat\n"
"  slabacct diff --fail-on 'site/allocs:+1000' a.dat b.dat\n"
"  slabacct diff --fail-on 'total:+64K,vmalloc-total:+1M' a.dat b.dat\n"
"  slabacct diff allocinfo.before allocinfo.after";

int cmd_diff(int argc, char **argv)
{
	gchar *format = NULL, *by = NULL, *sort = NULL, *output = NULL;
	gchar *fail_on = NULL;
	gboolean json = FALSE, csv = FALSE, all = FALSE, folded = FALSE;
	gint top = 0, width = G_MININT;
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json or csv", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "same as --format json",
		  NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "same as --format csv",
		  NULL },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by,
		  "match sites by site (default) or function", "KEY" },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort,
		  "order by the change in bytes (default), slack, allocs or "
		  "live", "KEY" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "show the first N rows only", "N" },
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &all,
		  "also list the sites that did not change", NULL },
		{ "width", 0, 0, G_OPTION_ARG_INT, &width,
		  "text: columns (default: a terminal's width; elsewhere, and "
		  "with 0, full lines)", "N" },
		{ "fail-on", 0, 0, G_OPTION_ARG_STRING, &fail_on,
		  "exit 3 if the change crosses one of these limits (see "
		  "below)", "RULES" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write to FILE instead of standard output", "FILE" },
		{ "folded", 0, 0, G_OPTION_ARG_NONE, &folded,
		  "the stacks folded, each weighed by its change from A to B "
		  "in the --sort key", NULL },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_outfile_opts of;
	struct sa_diff_opts o = { 0 };
	struct sa_thresholds limits = { 0 };
	struct sa_emit e = { 0 };
	GError *err = NULL;
	int ret = SA_EXIT_USAGE;

	if (sa_parse_options(&argc, &argv, "diff", "A B",
			     "Compare two recordings or /proc/slab_account "
			     "(or /proc/allocinfo) snapshots, call site by call "
			     "site.", diff_help,
			     entries))
		return SA_EXIT_USAGE;
	if (sa_output_opts_get("diff", &oo, &of))
		goto out;
	if (argc != 3) {
		sa_err("diff", "needs two files, A and B (see --help)");
		goto out;
	}
	if (folded && (format || json || csv || by || fail_on || top || all)) {
		sa_err("diff", "--folded is a format of its own: not with "
		       "--format, --json, --csv, --by, --fail-on, --top or "
		       "--all");
		goto out;
	}
	if (folded) {
		ret = sa_diff_folded(argv[1], argv[2], sort, output, &of);
		goto out;
	}
	e.fmt = json ? SA_FMT_JSON : csv ? SA_FMT_CSV : SA_FMT_TEXT;
	if (format && (sa_format_parse(format, &e.fmt) ||
		       e.fmt == SA_FMT_ACCOUNT ||
		       e.fmt == SA_FMT_OPENMETRICS ||
		       e.fmt == SA_FMT_PROMETHEUS)) {
		sa_err("diff", "unknown format '%s' (text, json, csv)", format);
		goto out;
	}
	if (by && strcmp(by, "site") && strcmp(by, "function")) {
		sa_err("diff", "--by takes site or function, not '%s'", by);
		goto out;
	}
	if (sort && sa_diff_sort_parse(sort, &o.sort)) {
		sa_err("diff", "unknown sort key '%s' (bytes, slack, allocs, "
		       "live)", sort);
		goto out;
	}
	if (width == G_MININT)		/* no --width */
		width = sa_text_width_default(output != NULL);
	if (top < 0 || width < 0) {
		sa_err("diff", "--top and --width take numbers >= 0");
		goto out;
	}
	if (fail_on && sa_thresholds_parse(fail_on, &limits, &err)) {
		sa_err("diff", "--fail-on '%s': %s (see --help)", fail_on,
		       err->message);
		g_error_free(err);
		goto out;
	}
	if (fail_on)
		o.fail_on = &limits;
	o.by = by && !strcmp(by, "function") ? SA_DIFF_BY_FUNCTION :
		SA_DIFF_BY_SITE;
	o.top = top;
	o.all = all;
	e.width = width;
	ret = sa_diff_write("diff", argv[1], argv[2], &o, &e, output, &of);
out:
	sa_thresholds_clear(&limits);
	g_free(fail_on);
	sa_output_opts_clear(&oo);
	g_free(format);
	g_free(by);
	g_free(sort);
	g_free(output);
	return ret;
}
