// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report [OPTIONS] FILE: the post-processor of trace.dat files
 * (from slabacct record, boot collect or trace-cmd record).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/agg/callsite.h"
#include "cli/cmd.h"
#include "util/outfile.h"
#include "emit/pprof.h"
#include "emit/emit.h"
#include "util/progress.h"
#include "report/agg/budget.h"
#include "report/input-kind.h"
#include "report/sort.h"
#include "report/report.h"
#include "symbols/attrib.h"
#include "symbols/wrappers.h"

static const char report_help[] =
"Sections (--what, comma list or 'all'; default callsite):\n"
"  callsite  per call site: bytes allocated and requested, slack, frag %,\n"
"            allocs, frees, live objects and bytes, live waste, ping-pong\n"
"            and the dominant GFP flags; kmalloc and kmem_cache apart\n"
"  live      allocations never freed by the end of the trace, by call\n"
"            site, with an age histogram; --objects lists every one\n"
"  subsys    roll-up by source directory (--vmlinux, --build-tree) or by\n"
"            module and symbol; names allocation wrappers (kstrdup, ...)\n"
"  timeline  allocated - freed bytes over time, in bins of --interval;\n"
"            a boot trace's phases: each initcall level from its\n"
"            initcall_level event, then init from the last initcall's\n"
"            end (or the exec of init), with their allocs and frees\n"
"  pages     page allocations and frees by order x migratetype, GFP flags\n"
"            and task; live pages; extfrag fallbacks and steals; the\n"
"            unusable free space index when the trace has buddyinfo\n"
"  reclaim   direct and memcg reclaim per task (count, latency sum, max,\n"
"            histogram), kswapd per node, shrinkers, LRU efficiency\n"
"  compaction runs by mode, outcomes, time, pages migrated, deferrals\n"
"  oom       each OOM kill: victim, trigger, reaping, top live call sites\n"
"  vmalloc   vmap areas (vmalloc, vmap, ioremap; record -e vmalloc) per\n"
"            caller: allocs, bytes (the guard page included), frees, live\n"
"            at the end, failed attempts. alloc_vmap_area has no call\n"
"            site: with a kernel stack (record --stacks) the row is the\n"
"            first caller past vmalloc's own functions, 'entry <- caller'\n"
"            (vmalloc_node_range <- bpf_map_area_alloc+0x7d); without,\n"
"            one row '(no kernel stack)'. --by wrapper: by entry point\n"
"  percpu    percpu allocations (record -e percpu) per call site (through\n"
"            the stack when it is percpu's own entry point): allocs,\n"
"            bytes (bytes_alloc: on every possible CPU; else the size per\n"
"            CPU, noted), frees, live, failures (a total: the event has no\n"
"            call site). Frees of both match their allocation by address\n"
"  coverage  the slab live at the end against /proc/slabinfo taken when\n"
"            record or boot collect ended: in total, and per cache where\n"
"            kmem_cache_alloc names it (kmalloc caches: one row per slot\n"
"            size, kmalloc-*-N, as a kmalloc event names no cache)\n"
"  budget    the RAM split into its owners, as slabacct budget, from\n"
"            the sources record and boot collect store at the end; not\n"
"            in 'all'. A trace without them: the section says why and\n"
"            report exits 1\n"
"\n"
"Formulas:\n"
"  slack        = bytes_alloc - bytes_req, summed over allocations\n"
"  frag %       = 100 - 100 * bytes_req / bytes_alloc  (as perf kmem)\n"
"  live         = allocations not freed by the end of the trace\n"
"  live waste   = live bytes_alloc - live bytes_req; live frag % likewise\n"
"  ping-pong    = frees on a different CPU from their allocation\n"
"  age          = last event of the trace - time of the allocation\n"
"  net (timeline) = bytes allocated - bytes freed in the bin, counting\n"
"                 frees of objects allocated within the trace, - bytes\n"
"                 freed untraced (a live pointer allocated again);\n"
"                 outstanding = running sum of net = live at the end\n"
"  For kmem_cache rows bytes_req is the object size and bytes_alloc the\n"
"  slot size: that slack is the cache's padding, not the caller's.\n"
"  pages        = blocks << order; live pages = allocated in the trace\n"
"                 and not freed by its end (matched by pfn)\n"
"  fallback     = an mm_page_alloc_extfrag event; steal = one with\n"
"                 change_ownership = 1 (the whole pageblock changed type)\n"
"  unusable(j)  = (free - sum over i >= j of n_i * 2^i) / free, from\n"
"                 /proc/buddyinfo (free = sum of n_i * 2^i pages)\n"
"  reclaim latency = end - begin, paired by pid; histogram buckets\n"
"                 <10us <100us <1ms <10ms <100ms <1s >=1s\n"
"  kswapd busy  = sum of wake..sleep per node (to the last event if awake)\n"
"  shrinker time = mm_shrink_slab_end - _start, paired by pid\n"
"  LRU efficiency % = 100 * nr_reclaimed / nr_scanned\n"
"  compaction time = mm_compaction_end - _begin, paired by pid;\n"
"                 success % = 100 * migrated / (migrated + failed)\n"
"  OOM reaping  = reaper events of the victim's pid - time of the kill;\n"
"                 top live call sites = live bytes at the kill\n"
"  coverage, in slot sizes: traced = live objects x bytes_alloc;\n"
"                 slabinfo = active_objs x objsize; rest = slabinfo -\n"
"                 traced: allocated before tracing, untraced (bulk), or\n"
"                 free slots of per-CPU slabs SLUB counts active. A\n"
"                 kmalloc above the biggest kmalloc slot is pages\n"
"\n"
"Sort keys (--sort, comma list): bytes (default), req, slack, frag, hits,\n"
"  live, pingpong, callsite.\n"
"\n"
"Every output starts with the trace's origin and its lost events.\n"
"--format openmetrics (OpenMetrics 1.0) or prometheus (the text format\n"
"  of node_exporter's textfile collector) exports the call sites as\n"
"  metrics: slabacct_site_allocated_bytes_total, ..._requested_bytes_total,\n"
"  ..._slack_bytes_total, ..._allocations_total, ..._frees_total,\n"
"  slabacct_site_live_bytes and ..._live_objects, labelled site and\n"
"  kind; --top (default 10, 0 = all) bounds the sites, the rest summed\n"
"  in site=\"other\"; with slabacct_lost_events_total, slabacct_sites\n"
"  and slabacct_info (source, kernel_release).\n"
"--vmlinux must be the traced kernel's: its GNU build ID must be the\n"
"  one the trace stores (slabacct record, boot collect), or, for traces\n"
"  without one (trace-cmd record), its Linux banner must name the\n"
"  release and version (uname -r, uname -v) of the trace's UNAME; another\n"
"  build is refused (exit 1), as its file:line would be wrong, unless\n"
"  --force-vmlinux. Text shows file:line on a line below each call site.\n"
"--html OUT writes one self-contained page (no network needed): the\n"
"  origin and lost events, a zoomable treemap of subsystem -> file or\n"
"  module -> call site sized by bytes, slack, live bytes or allocations\n"
"  and coloured by frag %, the sortable call-site table, the timeline and\n"
"  every other section (and the budget, where the trace has its\n"
"  sources); it embeds the --json model, so the numbers are the same.\n"
"  With two FILEs it shows their diff (slabacct diff --all), tiles\n"
"  coloured by growth or shrinkage.\n"
"Wrappers: an allocation whose call site is an allocation wrapper\n"
"  (kvmalloc_node, kmemdup, kstrdup_const, kasprintf, mempool_alloc,\n"
"  krealloc, kobject_set_name_vargs, devm_kmalloc, ... and their 6.10+\n"
"  _noprof names; --wrapper adds one) and that has a kernel stack\n"
"  (slabacct record --stacks, trace-cmd record -T) is attributed to the\n"
"  first frame of its stack outside the wrappers: a row 'kvmalloc_node\n"
"  <- caller+0xoff', which its frees follow and subsys, the treemap and\n"
"  diff group by. --by wrapper keeps the wrappers' own rows; --by stack\n"
"  adds --stack-depth frames (default 4) to every allocation with a stack.\n"
"Tasks: --by comm, pid or cgroup makes a row of who each event was\n"
"  for (its task, by name or thread id, or the task's cgroup v2), from\n"
"  the task tables and fork and exec events slabacct record keeps.\n"
"  Events in irq or softirq context ([irq], [softirq], from the\n"
"  event's common_flags) and the kernel's own threads ([kthread]\n"
"  kworker, writeback, kswapd...; cgroup: [kthreads]) are rows apart.\n"
"--folded writes the call sites with their stacks (--by stack,\n"
"  --stack-depth 32 unless given) folded, as flamegraph.pl and speedscope\n"
"  read them: one line per stack, functions outermost first joined by\n"
"  ';', the last the row's name as --by caller prints it, then the\n"
"  weight: the --sort key, bytes (allocated, the default), hits\n"
"  (allocations), live (live bytes) or slack. Every row, whatever --top;\n"
"  weight 0 left out.\n"
"--pprof FILE writes the call sites with their stacks (as --folded) as\n"
"  a gzipped profile.proto for pprof, with Go's heap profile's sample\n"
"  types: alloc_objects, alloc_space, inuse_objects, inuse_space (the\n"
"  allocations, bytes, live objects and live bytes); a function is a\n"
"  kernel symbol, with its file:line where --vmlinux gives one.\n"
"FILE may also be a saved /proc/slab_account (its call sites) or\n"
"  /proc/allocinfo (the kernel's allocation profiling, 6.10+: per source\n"
"  line, the bytes and allocations live now, of every allocator; its\n"
"  rows have those only, ordered by live bytes), or the kernel's hist\n"
"  files of kmalloc and kmem_cache_alloc keyed by call site, concatenated\n"
"  ('slabacct boot cmdline --hist': counts, not events; allocations and\n"
"  bytes per site, Dropped as lost), told by content.\n"
"A recording that stopped early (a full disk, a signal before the\n"
"  workload ended) is marked in its file: every format says 'truncated\n"
"  at T (why)' beside the lost events (JSON lost.truncated).\n"
"Exit status: 0 ok, 1 unreadable or corrupt input, 2 usage; with\n"
"--fail-on-lost, 4 when the trace lost events or was truncated (the\n"
"report is written); a crash is an internal error, said so, and ends\n"
"with its signal.\n"
"\n"
"Examples:\n"
"  slabacct report trace.dat\n"
"  slabacct report --sort slack --top 20 trace.dat\n"
"  slabacct report --what live --objects --json trace.dat\n"
"  slabacct report --what subsys --build-tree ~/linux --depth 2 trace.dat\n"
"  slabacct report --what timeline --interval 100ms boot.dat\n"
"  slabacct report --what reclaim,compaction,oom --json oom.dat\n"
"  slabacct report --html boot.html boot.dat\n"
"  slabacct report --html diff.html before.dat after.dat\n"
"  slabacct report --format prometheus --top 20 -o slabacct.prom t.dat\n"
"  slabacct report --folded --sort live t.dat | flamegraph.pl > live.svg\n"
"  slabacct report --pprof heap.pb.gz t.dat && go tool pprof -top heap.pb.gz\n"
"  slabacct report --top 20 allocinfo.txt";

/*
 * "100ms", "2s", "500us", "1000ns"; a bare number is seconds. A decimal
 * number above 0 (no NaN, infinity or hex), at least 1 ns, and below
 * 2^64 ns.
 */
static int parse_interval(const char *s, guint64 *ns)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "", 1e9 },
	};
	const char *p = s;
	double v, t;
	char *end;
	unsigned int i;

	while (g_ascii_isdigit(*p) || *p == '.')
		p++;
	if (p == s || (*p && !g_ascii_isalpha(*p)))
		return -1;
	v = g_ascii_strtod(s, &end);
	if (end != p || !isfinite(v) || v <= 0)
		return -1;
	for (i = 0; i < G_N_ELEMENTS(units); i++)
		if (!strcmp(end, units[i].sfx)) {
			t = v * units[i].mul;
			if (t < 1 || t >= 18446744073709551615.0)
				return -1;
			*ns = (guint64)t;
			return 0;
		}
	return -1;
}

/* --top N, and whether it was given (the metrics' default differs) */
static gint top_n;
static gboolean top_given;

static gboolean parse_top(const gchar *name, const gchar *value,
			  gpointer data, GError **err)
{
	gint64 v;

	if (!g_ascii_string_to_signed(value, 10, 0, G_MAXINT, &v, NULL)) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "%s takes a number >= 0, not '%s'", name, value);
		return FALSE;
	}
	top_n = v;
	top_given = TRUE;
	return TRUE;
}

int cmd_report(int argc, char **argv)
{
	gchar *what = NULL, *format = NULL, *sort = NULL, *by = NULL;
	gchar *interval = NULL, *vmlinux = NULL, *build_tree = NULL;
	gchar *output = NULL, *html = NULL, *label = NULL, *pprof = NULL;
	gboolean json = FALSE, csv = FALSE, objects = FALSE, verbose = FALSE;
	gboolean no_raw = FALSE, force_vmlinux = FALSE, metrics = FALSE;
	gboolean fail_on_lost = FALSE, folded = FALSE;
	gint top, depth = 0, width = G_MININT, threads = 0, stack_depth = -1;
	gchar **wrapper_names = NULL;
	struct sa_wrappers *wrappers = NULL;
	gint64 min_bytes = 0;
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "what", 'w', 0, G_OPTION_ARG_STRING, &what,
		  "sections: callsite, live, subsys, timeline, pages, "
		  "reclaim, compaction, oom, vmalloc, percpu, all", "LIST" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json, csv, account (the "
		  "/proc/slab_account layout), openmetrics or prometheus "
		  "(metrics)", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "same as --format json",
		  NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "same as --format csv",
		  NULL },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort,
		  "call-site order, a comma list of keys", "KEYS" },
		{ "top", 't', 0, G_OPTION_ARG_CALLBACK, parse_top,
		  "show the first N call sites only (metrics: default 10)",
		  "N" },
		{ "min-bytes", 0, 0, G_OPTION_ARG_INT64, &min_bytes,
		  "hide call sites that allocated fewer bytes", "BYTES" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &by,
		  "group rows by caller (the default: call sites, through "
		  "wrappers where stacks tell), wrapper, stack, cache, comm, "
		  "pid or cgroup (tasks)", "KEY" },
		{ "folded", 0, 0, G_OPTION_ARG_NONE, &folded,
		  "the stacks folded, for flame graphs, weighed by the --sort "
		  "key: bytes (default), hits, live or slack", NULL },
		{ "pprof", 0, 0, G_OPTION_ARG_FILENAME, &pprof,
		  "write the call sites and their stacks to FILE as a gzipped "
		  "pprof profile (heap profile's sample types)", "FILE" },
		{ "stack-depth", 0, 0, G_OPTION_ARG_INT, &stack_depth,
		  "--by stack: frames from the caller outwards (default 4, "
		  "at most 32)", "N" },
		{ "wrapper", 0, 0, G_OPTION_ARG_STRING_ARRAY, &wrapper_names,
		  "one more allocation wrapper (repeatable)", "SYM" },
		{ "objects", 0, 0, G_OPTION_ARG_NONE, &objects,
		  "live: list every live object (pointer, size, age, pid/comm)",
		  NULL },
		{ "interval", 'i', 0, G_OPTION_ARG_STRING, &interval,
		  "timeline bin width (100ms, 1s, ...; default automatic)",
		  "DUR" },
		{ "vmlinux", 0, 0, G_OPTION_ARG_FILENAME, &vmlinux,
		  "vmlinux with DWARF of the traced kernel: call sites to "
		  "file:line", "FILE" },
		{ "force-vmlinux", 0, 0, G_OPTION_ARG_NONE, &force_vmlinux,
		  "use --vmlinux even if it is not the traced kernel's build",
		  NULL },
		{ "build-tree", 0, 0, G_OPTION_ARG_FILENAME, &build_tree,
		  "kernel build tree: functions to object files", "DIR" },
		{ "depth", 0, 0, G_OPTION_ARG_INT, &depth,
		  "subsys: directory levels to roll up to (default all)", "N" },
		{ "width", 0, 0, G_OPTION_ARG_INT, &width,
		  "text: columns (default: a terminal's width; elsewhere, and "
		  "with 0, full lines). A site's name is never cut: its numbers give "
		  "way first", "N" },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
		  "text: a second line per call site (req, live, GFP)", NULL },
		{ "threads", 0, 0, G_OPTION_ARG_INT, &threads,
		  "reader threads (default: one per core; through libtracecmd, at most one per CPU of the trace)", "N" },
		{ "libtracecmd", 0, 0, G_OPTION_ARG_NONE, &no_raw,
		  "read records through libtracecmd's iterator instead of "
		  "walking the pages in place (slower; for checking)", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write to FILE instead of standard output", "FILE" },
		{ "html", 0, 0, G_OPTION_ARG_FILENAME, &html,
		  "write a self-contained HTML page (treemap, tables, charts; "
		  "every section unless --what) to OUT; with two FILEs, their "
		  "diff", "OUT" },
		{ "fail-on-lost", 0, 0, G_OPTION_ARG_NONE, &fail_on_lost,
		  "exit 4 if the trace lost events or was truncated (the "
		  "report is still written): for CI", NULL },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_outfile_opts of;
	struct sa_output out = { 0 };
	struct sa_report_opts opts = { 0 };
	struct sa_emit e = { 0 };
	struct sa_sort sorter, *sp = NULL;
	struct sa_report *rep = NULL;
	GError *err = NULL;
	guint32 sections = 1;
	bool budget_implicit = false;	/* --html without --what */
	enum sa_input_kind input;
	char *bad = NULL;
	const char *why;
	int ret = SA_EXIT_USAGE;

	if (sa_parse_options(&argc, &argv, "report", "FILE",
			     "Report kernel memory allocations recorded in a "
			     "trace.dat file.", report_help, entries))
		return SA_EXIT_USAGE;
	if (sa_output_opts_get("report", &oo, &of))
		goto out;
	if (html && argc == 3) {
		ret = sa_report_html_diff(html, argv[1], argv[2], &oo);
		goto out;
	}
	if (argc != 2) {
		sa_err("report", argc < 2 ? "which trace file? (see --help)" :
		       "one trace file at a time (see --help)");
		goto out;
	}
	if (what && sa_what_parse(what, &sections, &bad)) {
		sa_err("report", "unknown section '%s' (callsite, live, "
		       "subsys, timeline, pages, reclaim, compaction, oom, "
		       "vmalloc, percpu, coverage, budget, all)", bad);
		goto out;
	}
	e.fmt = json ? SA_FMT_JSON : csv ? SA_FMT_CSV : SA_FMT_TEXT;
	if (html) {
		e.fmt = SA_FMT_HTML;
		g_free(output);
		output = g_strdup(html);
		/* the page shows the budget too where the trace has it */
		if (!what) {
			sa_what_parse("all", &sections, &bad);
			sections |= SA_SECBIT(SA_SEC_BUDGET);
			budget_implicit = true;
		}
	}
	if (format && sa_format_parse(format, &e.fmt)) {
		sa_err("report", "unknown format '%s' (text, json, csv, "
		       "account, openmetrics, prometheus)", format);
		goto out;
	}
	if (folded && (format || html || json || csv)) {
		sa_err("report", "--folded is a format of its own: not with "
		       "--format, --json, --csv or --html");
		goto out;
	}
	if (pprof && (format || html || json || csv || folded || output)) {
		sa_err("report", "--pprof writes a file of its own: not with "
		       "--format, --json, --csv, --html, --folded or -o");
		goto out;
	}
	if (pprof && !sa_pprof_report_available(&why)) {
		sa_err("report", "--pprof: %s", why);
		goto out;
	}
	if (pprof && by && strcmp(by, "stack")) {
		sa_err("report", "--pprof writes stacks: not --by %s", by);
		goto out;
	}
	if (folded) {
		gchar *key = g_strndup(sort ? sort : "bytes",
				       sort ? strcspn(sort, ",") : 5);

		e.fmt = SA_FMT_FOLDED;
		if (sa_fold_key_parse(key, &e.fold_key)) {
			sa_err("report", "--folded weighs by bytes, hits, "
			       "live or slack (--sort), not '%s'", key);
			g_free(key);
			goto out;
		}
		g_free(key);
	}
	if (e.fmt == SA_FMT_FOLDED && by && strcmp(by, "stack")) {
		sa_err("report", "--folded writes stacks: not --by %s", by);
		goto out;
	}
	metrics = e.fmt == SA_FMT_OPENMETRICS || e.fmt == SA_FMT_PROMETHEUS;
	/* not given: the metrics are bounded */
	top = top_given ? top_n : metrics ? 10 : 0;
	if (metrics && by && (!strcmp(by, "cache") ||
			      (!sa_group_by_parse(by, &opts.by) &&
			       sa_group_by_task(opts.by)))) {
		sa_err("report", "--format %s exports call sites, not --by "
		       "%s", format, by);
		goto out;
	}
	if (sort) {
		if (sa_sort_parse(sort, &sorter, &bad)) {
			sa_err("report", "unknown sort key '%s' (%s)", bad,
			       sa_sort_key_names());
			goto out;
		}
		sp = &sorter;
	}
	if (by && sa_group_by_parse(by, &opts.by)) {
		sa_err("report", "--by takes %s, not '%s'",
		       sa_group_by_names(), by);
		goto out;
	}
	if (stack_depth != -1 && (stack_depth < 1 ||
				  stack_depth > SA_ATTRIB_MAX_DEPTH)) {
		sa_err("report", "--stack-depth takes 1 to %d frames, not %d",
		       SA_ATTRIB_MAX_DEPTH, stack_depth);
		goto out;
	}
	if (stack_depth != -1 && by && strcmp(by, "stack")) {
		sa_err("report", "--stack-depth goes with --by stack, not "
		       "--by %s", by);
		goto out;
	}
	if (width == G_MININT)		/* no --width */
		width = sa_text_width_default(output != NULL);
	if (top < 0 || min_bytes < 0 || depth < 0 || width < 0 ||
	    threads < 0) {
		sa_err("report", "--top, --min-bytes, --depth, --width and "
		       "--threads take numbers >= 0");
		goto out;
	}
	if (interval && parse_interval(interval, &opts.interval_ns)) {
		sa_err("report", "bad --interval '%s' (a duration from 1ns, "
		       "e.g. 100ms, 1s, 500us)", interval);
		goto out;
	}
	if (!by)
		opts.by = stack_depth != -1 ? SA_BY_STACK : SA_BY_CALLSITE;
	opts.stack_depth = stack_depth > 0 ? stack_depth : 0;
	if (e.fmt == SA_FMT_FOLDED || pprof) {
		opts.by = SA_BY_STACK;
		if (stack_depth == -1)
			opts.stack_depth = SA_ATTRIB_MAX_DEPTH;
	}
	if (wrapper_names) {
		gchar **w;

		wrappers = sa_wrappers_new();
		for (w = wrapper_names; *w; w++) {
			if (!**w) {
				sa_err("report", "--wrapper takes a function "
				       "name");
				goto out;
			}
			sa_wrappers_add(wrappers, *w);
		}
		opts.wrappers = wrappers;
		opts.wrapper_names = (const char *const *)wrapper_names;
	}
	opts.objects = objects;
	opts.vmlinux = vmlinux;
	opts.force_vmlinux = force_vmlinux;
	opts.build_tree = build_tree;
	opts.depth = depth;
	opts.threads = threads;
	opts.no_raw = no_raw;
	if (e.fmt == SA_FMT_ACCOUNT || e.fmt == SA_FMT_FOLDED || metrics ||
	    pprof)
		sections = 1u << SA_SEC_CALLSITE;

	ret = SA_EXIT_FAIL;
	/* a bar on a terminal's stderr when reading takes over 2 s */
	label = g_strdup_printf("slabacct report: reading %s", argv[1]);
	opts.progress_data = sa_progress_new(stderr, label);
	opts.progress = sa_progress_cb;
	sa_crash_guard("report", argv[1]);
	/* a text snapshot, told by its first line, or a trace */
	if (sa_input_kind(argv[1], &input, &err)) {
		sa_progress_done(opts.progress_data);
		sa_err("report", "%s", err->message);
		g_error_free(err);
		goto out;
	}
	if (input == SA_INPUT_ALLOCINFO && (e.fmt == SA_FMT_ACCOUNT ||
					   e.fmt == SA_FMT_OPENMETRICS ||
					   e.fmt == SA_FMT_PROMETHEUS)) {
		sa_progress_done(opts.progress_data);
		sa_err("report", "%s: a /proc/allocinfo snapshot has live "
		       "figures only, not the totals of the /proc/slab_account "
		       "layout or the metrics (--format text, json, csv or "
		       "--html)", argv[1]);
		ret = SA_EXIT_USAGE;
		goto out;
	}
	if (input == SA_INPUT_HIST && e.fmt != SA_FMT_TEXT &&
	    e.fmt != SA_FMT_JSON && e.fmt != SA_FMT_CSV &&
	    e.fmt != SA_FMT_HTML) {
		sa_progress_done(opts.progress_data);
		sa_err("report", "%s: a hist file has allocations and bytes "
		       "per call site only (--format text, json, csv or "
		       "--html)", argv[1]);
		ret = SA_EXIT_USAGE;
		goto out;
	}
	if (input == SA_INPUT_ALLOCINFO)
		rep = sa_report_from_allocinfo(argv[1], &opts, &err);
	else if (input == SA_INPUT_HIST)
		rep = sa_report_from_hist(argv[1], &opts, &err);
	else if (input == SA_INPUT_SLAB_ACCOUNT)
		rep = sa_report_from_account(argv[1], &opts, &err);
	else
		rep = sa_report_read(argv[1], sections, &opts, &err);
	if (rep && (input == SA_INPUT_ALLOCINFO || input == SA_INPUT_HIST ||
		    input == SA_INPUT_SLAB_ACCOUNT))
		sections = rep->sections;
	sa_progress_done(opts.progress_data);
	if (!rep) {
		sa_err("report", "%s", err->message);
		g_error_free(err);
		goto out;
	}
	if (sa_report_no_kmem(rep) && rep->origin_known) {
		const char *areas = sa_report_area_records(rep);
		guint32 area_secs = SA_SECBIT(SA_SEC_VMALLOC) |
				    SA_SECBIT(SA_SEC_PERCPU);

		/*
		 * A trace of vmalloc or percpu events only: what was asked
		 * of them is there; the slab's sections, if asked, are
		 * empty.
		 */
		if (!areas)
			sa_warn("report", "%s: the trace has no kmem events",
				argv[1]);
		else if (sections & ~area_secs)
			sa_warn("report", "%s: the trace has no kmem events, "
				"only %s ones (report --what vmalloc,percpu): "
				"the slab's sections are empty", argv[1],
				areas);
	}
	if (budget_implicit && rep->result[SA_SEC_BUDGET] &&
	    !((struct sa_budget_result *)rep->result[SA_SEC_BUDGET])->budget) {
		rep->sections &= ~SA_SECBIT(SA_SEC_BUDGET);
		sections &= ~SA_SECBIT(SA_SEC_BUDGET);
	}
	sa_callsite_view(rep->result[SA_SEC_CALLSITE], sp, top,
			 min_bytes);
	sa_live_view(rep->result[SA_SEC_LIVE], top);
	if (sa_output_open("report", pprof ? pprof : output, &of, &out))
		goto out;
	if (pprof) {
		if (sa_pprof_report_write(out.f, rep, &err)) {
			sa_err("report", "writing %s: %s", pprof,
			       err->message);
			g_clear_error(&err);
			sa_output_close("report", &out, false);
			goto out;
		}
		if (!sa_output_close("report", &out, true))
			ret = SA_EXIT_OK;
		goto out;
	}
	e.out = out.f;
	e.width = width;
	e.verbose = verbose;
	if (sa_emit_report(&e, rep)) {
		sa_err("report", "writing the report: %s", g_strerror(errno));
		sa_output_close("report", &out, false);
		goto out;
	}
	if ((sections & SA_SECBIT(SA_SEC_BUDGET)) &&
	    rep->result[SA_SEC_BUDGET] &&
	    !((struct sa_budget_result *)rep->result[SA_SEC_BUDGET])->budget) {
		sa_err("report", "%s: no budget: %s", argv[1],
		       ((struct sa_budget_result *)
			rep->result[SA_SEC_BUDGET])->why);
		sa_output_close("report", &out, true);
		goto out;
	}
	if (!sa_output_close("report", &out, true))
		ret = fail_on_lost && sa_fail_on_trace_loss("report", argv[1],
							    &rep->origin,
							    rep->missed_events) ?
		      SA_EXIT_LOST : SA_EXIT_OK;
out:
	sa_output_opts_clear(&oo);
	sa_report_free(rep);
	g_free(bad);
	g_free(what);
	g_free(format);
	g_free(sort);
	g_free(by);
	g_strfreev(wrapper_names);
	sa_wrappers_free(wrappers);
	g_free(interval);
	g_free(vmlinux);
	g_free(build_tree);
	g_free(output);
	g_free(html);
	g_free(pprof);
	g_free(label);
	return ret;
}
