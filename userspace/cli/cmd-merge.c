// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct merge FILE...: many runs (a CI's boots, a fleet's machines)
 * into one table of call sites with their spread over the runs.
 */
#include <errno.h>
#include <string.h>

#include "cli/cmd.h"
#include "emit/emit.h"
#include "report/merge.h"
#include "util/outfile.h"
#include "util/progress.h"

static const char merge_help[] =
"Each FILE is one run: a trace.dat (slabacct record, boot collect,\n"
"trace-cmd record), a saved /proc/slab_account, or slabacct's JSON of\n"
"one (report --json without --top, account --json); they may be mixed.\n"
"Per call site (matched as by diff, --by site or function) and per\n"
"measure (allocs, frees, bytes allocated and requested, slack, live\n"
"objects and bytes): the sum over the runs and the spread, min, median\n"
"and max over every run, a run without the site counting 0 (so min is\n"
"0 unless the site is in every run); and in how many runs it appears.\n"
"The runs' totals get the same spread. The median of an even number of\n"
"runs is the mean of the two middle values, rounded down. Rows are\n"
"sorted by the sum of bytes allocated. Each run's lost events are\n"
"listed, and their sum.\n"
"\n"
"Text shows bytes allocated (K = 1024); --json and --csv every measure,\n"
"exactly. The JSON is a baseline for diff: 'slabacct diff --fail-on\n"
"RULES base.json new.dat' compares a run with the median run, site by\n"
"site (a site in fewer than half the runs is not in the baseline).\n"
"\n"
"--format prometheus writes the merge as metrics for node_exporter's\n"
"textfile collector (the text format promtool checks; openmetrics: the\n"
"same as OpenMetrics 1.0): per call site and measure a summary over\n"
"the runs, slabacct_merge_site_allocated_bytes{site,kind,quantile},\n"
"quantile 0, 0.5 and 1 being min, median and max, _sum the sum and\n"
"_count the runs; slabacct_merge_total_* the same of the runs' totals;\n"
"the runs, their lost events, and the sites --top left out. A fleet's\n"
"medians and spreads reach Prometheus this way. --top bounds the\n"
"labels (default 10 sites with a metrics format, 0 all).\n"
"\n"
"--html OUT (or --format html) writes one self-contained page (no\n"
"network needed) that embeds the --json model, so the numbers are the\n"
"same: the runs with their lost events and their sum, the spread of\n"
"the totals, the call-site table (sum, min, median and max of a\n"
"measure of choice, in how many runs of how many) and the spread of\n"
"the top sites as min-median-max bars.\n"
"\n"
"Exit status: 0 ok, 1 unreadable input, 2 usage; a crash is an\n"
"internal error, said so, and ends with its signal.\n"
"\n"
"Examples:\n"
"  slabacct merge boot1.dat boot2.dat boot3.dat\n"
"  slabacct merge --json -o baseline.json runs/*/boot.dat\n"
"  slabacct merge --html fleet.html hosts/*/slab_account.txt\n"
"  slabacct merge --csv --by function host*/slab_account.txt\n"
"  slabacct merge --format prometheus hosts/*/slab_account.txt";

int cmd_merge(int argc, char **argv)
{
	gchar *format = NULL, *by = NULL, *output = NULL, *html = NULL;
	gboolean json = FALSE, csv = FALSE;
	gint top = G_MININT, width = G_MININT;	/* G_MININT: not given */
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json, csv, html, prometheus or "
		  "openmetrics", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "same as --format json",
		  NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "same as --format csv",
		  NULL },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by,
		  "match sites by site (default) or function", "KEY" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "show the first N sites only", "N" },
		{ "width", 0, 0, G_OPTION_ARG_INT, &width,
		  "text: columns (default: a terminal's width; elsewhere, and "
		  "with 0, full lines)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write to FILE instead of standard output", "FILE" },
		{ "html", 0, 0, G_OPTION_ARG_FILENAME, &html,
		  "write a self-contained HTML page (runs, spreads, "
		  "sites, charts) to OUT: --format html -o OUT", "OUT" },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_outfile_opts of;
	struct sa_output out = { 0 };
	struct sa_diff_opts o = { 0 };
	struct sa_merge m = { 0 };
	struct sa_emit e = { 0 };
	GError *err = NULL;
	int ret = SA_EXIT_USAGE, i;

	if (sa_parse_options(&argc, &argv, "merge", "FILE...",
			     "Combine many runs into per-site totals and "
			     "their spread.", merge_help, entries))
		return SA_EXIT_USAGE;
	if (sa_output_opts_get("merge", &oo, &of))
		goto out;
	if (argc < 2) {
		sa_err("merge", "which runs? (see --help)");
		goto out;
	}
	e.fmt = json ? SA_FMT_JSON : csv ? SA_FMT_CSV : SA_FMT_TEXT;
	if (format && (sa_format_parse(format, &e.fmt) ||
		       (e.fmt != SA_FMT_TEXT && e.fmt != SA_FMT_JSON &&
			e.fmt != SA_FMT_CSV && e.fmt != SA_FMT_HTML &&
			e.fmt != SA_FMT_PROMETHEUS &&
			e.fmt != SA_FMT_OPENMETRICS))) {
		sa_err("merge", "unknown format '%s' (text, json, csv, html, "
		       "prometheus, openmetrics)", format);
		goto out;
	}
	if (html) {
		/* --html OUT is --format html -o OUT: nothing else */
		if (output || json || csv || (format && e.fmt != SA_FMT_HTML)) {
			sa_err("merge", "--html writes the page to its OUT: "
			       "not with -o, --json, --csv or another "
			       "--format");
			goto out;
		}
		e.fmt = SA_FMT_HTML;
		output = g_strdup(html);
	}
	if (by && strcmp(by, "site") && strcmp(by, "function")) {
		sa_err("merge", "--by takes site or function, not '%s'", by);
		goto out;
	}
	if (width == G_MININT)		/* no --width */
		width = sa_text_width_default(output != NULL);
	if (width < 0) {
		sa_err("merge", "--width takes a number >= 0, not %d", width);
		goto out;
	}
	if (top < 0 && top != G_MININT) {
		sa_err("merge", "--top takes a number >= 0, not %d", top);
		goto out;
	}
	/* metrics: bounded label cardinality unless --top says otherwise */
	if (top == G_MININT)
		top = e.fmt == SA_FMT_PROMETHEUS ||
		      e.fmt == SA_FMT_OPENMETRICS ? 10 : 0;
	o.by = by && !strcmp(by, "function") ? SA_DIFF_BY_FUNCTION :
		SA_DIFF_BY_SITE;
	e.width = width;
	sa_merge_init(&m, o.by);
	ret = SA_EXIT_FAIL;
	for (i = 1; i < argc; i++) {
		/* a bar on a terminal's stderr when reading takes over 2 s */
		char *label = g_strdup_printf("slabacct merge: reading %s",
					      argv[i]);
		struct sa_diff_side s;
		int bad;

		o.progress = sa_progress_cb;
		o.progress_data = sa_progress_new(stderr, label);
		sa_crash_guard("merge", argv[i]);
		bad = sa_diff_side_load(&s, argv[i], &o, &err) ||
		      sa_merge_add(&m, &s, &err);
		sa_progress_done(o.progress_data);
		sa_diff_side_clear(&s);
		g_free(label);
		if (bad) {
			sa_err("merge", "%s", err->message);
			g_error_free(err);
			goto out;
		}
	}
	sa_merge_finish(&m, top);
	if (sa_output_open("merge", output, &of, &out))
		goto out;
	e.out = out.f;
	if (sa_emit_merge(&e, &m)) {
		sa_err("merge", "writing: %s", g_strerror(errno));
		sa_output_close("merge", &out, false);
		goto out;
	}
	if (!sa_output_close("merge", &out, true))
		ret = SA_EXIT_OK;
out:
	sa_merge_clear(&m);
	sa_output_opts_clear(&oo);
	g_free(format);
	g_free(by);
	g_free(output);
	g_free(html);
	return ret;
}
