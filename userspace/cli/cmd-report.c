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
"            and task, and by call site from kernel stacks (record\n"
"            --stacks=all); live pages; extfrag fallbacks and steals; the\n"
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

/* The command line, as given */
struct report_args {
	gchar *what, *format, *sort, *by, *interval, *vmlinux, *build_tree;
	gchar *output, *html, *pprof;
	gchar **wrapper_names;
	gboolean json, csv, objects, verbose, no_raw, force_vmlinux;
	gboolean fail_on_lost, folded;
	gint depth, width, threads, stack_depth;
	gint64 min_bytes;
	struct sa_output_opts oo;
	struct sa_outfile_opts of;
};

/* What the arguments make of the report: its reading and its writing */
struct report_plan {
	struct sa_report_opts opts;
	struct sa_emit e;
	struct sa_sort sorter, *sp;
	struct sa_wrappers *wrappers;
	guint32 sections;
	bool budget_implicit;	/* --html without --what */
	gint top;
};

/* Parse the options into a; 0, or SA_EXIT_USAGE */
static int report_parse(int *argc, char ***argv, struct report_args *a)
{
	const GOptionEntry entries[] = {
		{ "what", 'w', 0, G_OPTION_ARG_STRING, &a->what,
		  "sections: callsite, live, subsys, timeline, pages, "
		  "reclaim, compaction, oom, vmalloc, percpu, all", "LIST" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &a->format,
		  "text (default), json, csv, account (the "
		  "/proc/slab_account layout), openmetrics or prometheus "
		  "(metrics)", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &a->json,
		  "same as --format json", NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &a->csv,
		  "same as --format csv", NULL },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &a->sort,
		  "call-site order, a comma list of keys", "KEYS" },
		{ "top", 't', 0, G_OPTION_ARG_CALLBACK, parse_top,
		  "show the first N call sites only (metrics: default 10)",
		  "N" },
		{ "min-bytes", 0, 0, G_OPTION_ARG_INT64, &a->min_bytes,
		  "hide call sites that allocated fewer bytes", "BYTES" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &a->by,
		  "group rows by caller (the default: call sites, through "
		  "wrappers where stacks tell), wrapper, stack, cache, comm, "
		  "pid or cgroup (tasks)", "KEY" },
		{ "folded", 0, 0, G_OPTION_ARG_NONE, &a->folded,
		  "the stacks folded, for flame graphs, weighed by the --sort "
		  "key: bytes (default), hits, live or slack", NULL },
		{ "pprof", 0, 0, G_OPTION_ARG_FILENAME, &a->pprof,
		  "write the call sites and their stacks to FILE as a gzipped "
		  "pprof profile (heap profile's sample types)", "FILE" },
		{ "stack-depth", 0, 0, G_OPTION_ARG_INT, &a->stack_depth,
		  "--by stack: frames from the caller outwards (default 4, "
		  "at most 32)", "N" },
		{ "wrapper", 0, 0, G_OPTION_ARG_STRING_ARRAY,
		  &a->wrapper_names,
		  "one more allocation wrapper (repeatable)", "SYM" },
		{ "objects", 0, 0, G_OPTION_ARG_NONE, &a->objects,
		  "live: list every live object (pointer, size, age, pid/comm)",
		  NULL },
		{ "interval", 'i', 0, G_OPTION_ARG_STRING, &a->interval,
		  "timeline bin width (100ms, 1s, ...; default automatic)",
		  "DUR" },
		{ "vmlinux", 0, 0, G_OPTION_ARG_FILENAME, &a->vmlinux,
		  "vmlinux with DWARF of the traced kernel: call sites to "
		  "file:line", "FILE" },
		{ "force-vmlinux", 0, 0, G_OPTION_ARG_NONE, &a->force_vmlinux,
		  "use --vmlinux even if it is not the traced kernel's build",
		  NULL },
		{ "build-tree", 0, 0, G_OPTION_ARG_FILENAME, &a->build_tree,
		  "kernel build tree: functions to object files", "DIR" },
		{ "depth", 0, 0, G_OPTION_ARG_INT, &a->depth,
		  "subsys: directory levels to roll up to (default all)", "N" },
		{ "width", 0, 0, G_OPTION_ARG_INT, &a->width,
		  "text: columns (default: a terminal's width; elsewhere, and "
		  "with 0, full lines). A site's name is never cut: its numbers give "
		  "way first", "N" },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &a->verbose,
		  "text: a second line per call site (req, live, GFP)", NULL },
		{ "threads", 0, 0, G_OPTION_ARG_INT, &a->threads,
		  "reader threads (default: one per core; through libtracecmd, at most one per CPU of the trace)", "N" },
		{ "libtracecmd", 0, 0, G_OPTION_ARG_NONE, &a->no_raw,
		  "read records through libtracecmd's iterator instead of "
		  "walking the pages in place (slower; for checking)", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output,
		  "write to FILE instead of standard output", "FILE" },
		{ "html", 0, 0, G_OPTION_ARG_FILENAME, &a->html,
		  "write a self-contained HTML page (treemap, tables, charts; "
		  "every section unless --what) to OUT; with two FILEs, their "
		  "diff", "OUT" },
		{ "fail-on-lost", 0, 0, G_OPTION_ARG_NONE, &a->fail_on_lost,
		  "exit 4 if the trace lost events or was truncated (the "
		  "report is still written): for CI", NULL },
		SA_OUTPUT_OPTION_ENTRIES(a->oo),
		{ NULL },
	};

	a->width = G_MININT;	/* not given */
	a->stack_depth = -1;
	if (sa_parse_options(argc, argv, "report", "FILE",
			     "Report kernel memory allocations recorded in a "
			     "trace.dat file.", report_help, entries))
		return SA_EXIT_USAGE;
	if (sa_output_opts_get("report", &a->oo, &a->of))
		return SA_EXIT_USAGE;
	return 0;
}

/* The output: its format and the sections; 0, or SA_EXIT_USAGE */
static int report_format(struct report_args *a, struct report_plan *p)
{
	const char *why;
	char *bad = NULL;
	bool metrics;

	if (a->what && sa_what_parse(a->what, &p->sections, &bad)) {
		sa_err("report", "unknown section '%s' (callsite, live, "
		       "subsys, timeline, pages, reclaim, compaction, oom, "
		       "vmalloc, percpu, coverage, budget, all)", bad);
		g_free(bad);
		return SA_EXIT_USAGE;
	}
	p->e.fmt = a->json ? SA_FMT_JSON : a->csv ? SA_FMT_CSV : SA_FMT_TEXT;
	if (a->html) {
		p->e.fmt = SA_FMT_HTML;
		g_free(a->output);
		a->output = g_strdup(a->html);
		/* the page shows the budget too where the trace has it */
		if (!a->what) {
			sa_what_parse("all", &p->sections, &bad);
			p->sections |= SA_SECBIT(SA_SEC_BUDGET);
			p->budget_implicit = true;
		}
	}
	if (a->format && sa_format_parse(a->format, &p->e.fmt)) {
		sa_err("report", "unknown format '%s' (text, json, csv, "
		       "account, openmetrics, prometheus)", a->format);
		return SA_EXIT_USAGE;
	}
	if (a->folded && (a->format || a->html || a->json || a->csv)) {
		sa_err("report", "--folded is a format of its own: not with "
		       "--format, --json, --csv or --html");
		return SA_EXIT_USAGE;
	}
	if (a->pprof && (a->format || a->html || a->json || a->csv ||
			 a->folded || a->output)) {
		sa_err("report", "--pprof writes a file of its own: not with "
		       "--format, --json, --csv, --html, --folded or -o");
		return SA_EXIT_USAGE;
	}
	if (a->pprof && !sa_pprof_report_available(&why)) {
		sa_err("report", "--pprof: %s", why);
		return SA_EXIT_USAGE;
	}
	if (a->pprof && a->by && strcmp(a->by, "stack")) {
		sa_err("report", "--pprof writes stacks: not --by %s", a->by);
		return SA_EXIT_USAGE;
	}
	if (a->folded) {
		gchar *key = g_strndup(a->sort ? a->sort : "bytes",
				       a->sort ? strcspn(a->sort, ",") : 5);
		int bad_key;

		p->e.fmt = SA_FMT_FOLDED;
		bad_key = sa_fold_key_parse(key, &p->e.fold_key);
		if (bad_key)
			sa_err("report", "--folded weighs by bytes, hits, "
			       "live or slack (--sort), not '%s'", key);
		g_free(key);
		if (bad_key)
			return SA_EXIT_USAGE;
	}
	if (p->e.fmt == SA_FMT_FOLDED && a->by && strcmp(a->by, "stack")) {
		sa_err("report", "--folded writes stacks: not --by %s", a->by);
		return SA_EXIT_USAGE;
	}
	metrics = p->e.fmt == SA_FMT_OPENMETRICS ||
		  p->e.fmt == SA_FMT_PROMETHEUS;
	/* not given: the metrics are bounded */
	p->top = top_given ? top_n : metrics ? 10 : 0;
	if (metrics && a->by && (!strcmp(a->by, "cache") ||
				 (!sa_group_by_parse(a->by, &p->opts.by) &&
				  sa_group_by_task(p->opts.by)))) {
		sa_err("report", "--format %s exports call sites, not --by "
		       "%s", a->format, a->by);
		return SA_EXIT_USAGE;
	}
	if (p->e.fmt == SA_FMT_ACCOUNT || p->e.fmt == SA_FMT_FOLDED ||
	    metrics || a->pprof)
		p->sections = 1u << SA_SEC_CALLSITE;
	return 0;
}

/* How the rows are made: sort, grouping, stacks, bounds; 0 or usage */
static int report_rows(struct report_args *a, struct report_plan *p)
{
	struct sa_report_opts *o = &p->opts;
	char *bad = NULL;
	gchar **w;

	if (a->sort) {
		if (sa_sort_parse(a->sort, &p->sorter, &bad)) {
			sa_err("report", "unknown sort key '%s' (%s)", bad,
			       sa_sort_key_names());
			g_free(bad);
			return SA_EXIT_USAGE;
		}
		p->sp = &p->sorter;
	}
	if (a->by && sa_group_by_parse(a->by, &o->by)) {
		sa_err("report", "--by takes %s, not '%s'",
		       sa_group_by_names(), a->by);
		return SA_EXIT_USAGE;
	}
	if (a->stack_depth != -1 && (a->stack_depth < 1 ||
				     a->stack_depth > SA_ATTRIB_MAX_DEPTH)) {
		sa_err("report", "--stack-depth takes 1 to %d frames, not %d",
		       SA_ATTRIB_MAX_DEPTH, a->stack_depth);
		return SA_EXIT_USAGE;
	}
	if (a->stack_depth != -1 && a->by && strcmp(a->by, "stack")) {
		sa_err("report", "--stack-depth goes with --by stack, not "
		       "--by %s", a->by);
		return SA_EXIT_USAGE;
	}
	if (a->width == G_MININT)	/* no --width */
		a->width = sa_text_width_default(a->output != NULL);
	if (p->top < 0 || a->min_bytes < 0 || a->depth < 0 || a->width < 0 ||
	    a->threads < 0) {
		sa_err("report", "--top, --min-bytes, --depth, --width and "
		       "--threads take numbers >= 0");
		return SA_EXIT_USAGE;
	}
	if (a->interval && parse_interval(a->interval, &o->interval_ns)) {
		sa_err("report", "bad --interval '%s' (a duration from 1ns, "
		       "e.g. 100ms, 1s, 500us)", a->interval);
		return SA_EXIT_USAGE;
	}
	if (!a->by)
		o->by = a->stack_depth != -1 ? SA_BY_STACK : SA_BY_CALLSITE;
	o->stack_depth = a->stack_depth > 0 ? a->stack_depth : 0;
	if (p->e.fmt == SA_FMT_FOLDED || a->pprof) {
		o->by = SA_BY_STACK;
		if (a->stack_depth == -1)
			o->stack_depth = SA_ATTRIB_MAX_DEPTH;
	}
	if (a->wrapper_names) {
		p->wrappers = sa_wrappers_new();
		for (w = a->wrapper_names; *w; w++) {
			if (!**w) {
				sa_err("report", "--wrapper takes a function "
				       "name");
				return SA_EXIT_USAGE;
			}
			sa_wrappers_add(p->wrappers, *w);
		}
		o->wrappers = p->wrappers;
		o->wrapper_names = (const char *const *)a->wrapper_names;
	}
	o->objects = a->objects;
	o->vmlinux = a->vmlinux;
	o->force_vmlinux = a->force_vmlinux;
	o->build_tree = a->build_tree;
	o->depth = a->depth;
	o->threads = a->threads;
	o->no_raw = a->no_raw;
	return 0;
}

/* Whether the input can be written in the format asked; usage if not */
static int report_input_fits(const char *path, enum sa_input_kind input,
			     enum sa_format fmt)
{
	if (input == SA_INPUT_ALLOCINFO && (fmt == SA_FMT_ACCOUNT ||
					   fmt == SA_FMT_OPENMETRICS ||
					   fmt == SA_FMT_PROMETHEUS)) {
		sa_err("report", "%s: a /proc/allocinfo snapshot has live "
		       "figures only, not the totals of the /proc/slab_account "
		       "layout or the metrics (--format text, json, csv or "
		       "--html)", path);
		return SA_EXIT_USAGE;
	}
	if (input == SA_INPUT_HIST && fmt != SA_FMT_TEXT &&
	    fmt != SA_FMT_JSON && fmt != SA_FMT_CSV && fmt != SA_FMT_HTML) {
		sa_err("report", "%s: a hist file has allocations and bytes "
		       "per call site only (--format text, json, csv or "
		       "--html)", path);
		return SA_EXIT_USAGE;
	}
	return 0;
}

/* Read path, whatever its kind; 0 with *rep, or the exit status */
static int report_load(const char *path, struct report_plan *p,
		       struct sa_report **rep)
{
	char *label = g_strdup_printf("slabacct report: reading %s", path);
	enum sa_input_kind input;
	GError *err = NULL;
	int ret;

	/* a bar on a terminal's stderr when reading takes over 2 s */
	p->opts.progress_data = sa_progress_new(stderr, label);
	p->opts.progress = sa_progress_cb;
	sa_crash_guard("report", path);
	/* a text snapshot, told by its first line, or a trace */
	if (sa_input_kind(path, &input, &err)) {
		ret = SA_EXIT_FAIL;
	} else if ((ret = report_input_fits(path, input, p->e.fmt))) {
		;
	} else {
		if (input == SA_INPUT_ALLOCINFO)
			*rep = sa_report_from_allocinfo(path, &p->opts, &err);
		else if (input == SA_INPUT_HIST)
			*rep = sa_report_from_hist(path, &p->opts, &err);
		else if (input == SA_INPUT_SLAB_ACCOUNT)
			*rep = sa_report_from_account(path, &p->opts, &err);
		else
			*rep = sa_report_read(path, p->sections, &p->opts,
					      &err);
		if (*rep && (input == SA_INPUT_ALLOCINFO ||
			     input == SA_INPUT_HIST ||
			     input == SA_INPUT_SLAB_ACCOUNT))
			p->sections = (*rep)->sections;
		ret = *rep ? 0 : SA_EXIT_FAIL;
	}
	sa_progress_done(p->opts.progress_data);
	g_free(label);
	if (err) {
		sa_err("report", "%s", err->message);
		g_error_free(err);
	}
	return ret;
}

/* What the report cannot show of rep: said once, before it is written */
static void report_warn(const char *path, struct report_plan *p,
			struct sa_report *rep)
{
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
				path);
		else if (p->sections & ~area_secs)
			sa_warn("report", "%s: the trace has no kmem events, "
				"only %s ones (report --what vmalloc,percpu): "
				"the slab's sections are empty", path, areas);
	}
	if (p->budget_implicit && rep->result[SA_SEC_BUDGET] &&
	    !((struct sa_budget_result *)rep->result[SA_SEC_BUDGET])->budget) {
		rep->sections &= ~SA_SECBIT(SA_SEC_BUDGET);
		p->sections &= ~SA_SECBIT(SA_SEC_BUDGET);
	}
}

/* Write rep as planned; the exit status */
static int report_write(const struct report_args *a, const char *path,
			struct report_plan *p, struct sa_report *rep)
{
	struct sa_budget_result *budget = rep->result[SA_SEC_BUDGET];
	struct sa_output out = { 0 };
	GError *err = NULL;

	sa_callsite_view(rep->result[SA_SEC_CALLSITE], p->sp, p->top,
			 a->min_bytes);
	sa_live_view(rep->result[SA_SEC_LIVE], p->top);
	if (sa_output_open("report", a->pprof ? a->pprof : a->output, &a->of,
			   &out))
		return SA_EXIT_FAIL;
	if (a->pprof) {
		if (sa_pprof_report_write(out.f, rep, &err)) {
			sa_err("report", "writing %s: %s", a->pprof,
			       err->message);
			g_clear_error(&err);
			sa_output_close("report", &out, false);
			return SA_EXIT_FAIL;
		}
		return sa_output_close("report", &out, true) ? SA_EXIT_FAIL :
		       SA_EXIT_OK;
	}
	p->e.out = out.f;
	p->e.width = a->width;
	p->e.verbose = a->verbose;
	if (sa_emit_report(&p->e, rep)) {
		sa_err("report", "writing the report: %s", g_strerror(errno));
		sa_output_close("report", &out, false);
		return SA_EXIT_FAIL;
	}
	if ((p->sections & SA_SECBIT(SA_SEC_BUDGET)) && budget &&
	    !budget->budget) {
		sa_err("report", "%s: no budget: %s", path, budget->why);
		sa_output_close("report", &out, true);
		return SA_EXIT_FAIL;
	}
	if (sa_output_close("report", &out, true))
		return SA_EXIT_FAIL;
	return a->fail_on_lost && sa_fail_on_trace_loss("report", path,
							&rep->origin,
							rep->missed_events) ?
	       SA_EXIT_LOST : SA_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct report_plan p = { .sections = 1 };
	struct sa_report *rep = NULL;
	int ret = report_parse(&argc, &argv, &a);

	if (!ret && a.html && argc == 3) {
		ret = sa_report_html_diff(a.html, argv[1], argv[2], &a.oo);
	} else if (!ret && argc != 2) {
		sa_err("report", argc < 2 ? "which trace file? (see --help)" :
		       "one trace file at a time (see --help)");
		ret = SA_EXIT_USAGE;
	} else if (!ret && !(ret = report_format(&a, &p)) &&
		   !(ret = report_rows(&a, &p)) &&
		   !(ret = report_load(argv[1], &p, &rep))) {
		report_warn(argv[1], &p, rep);
		ret = report_write(&a, argv[1], &p, rep);
	}
	sa_output_opts_clear(&a.oo);
	sa_report_free(rep);
	sa_wrappers_free(p.wrappers);
	g_free(a.what);
	g_free(a.format);
	g_free(a.sort);
	g_free(a.by);
	g_strfreev(a.wrapper_names);
	g_free(a.interval);
	g_free(a.vmlinux);
	g_free(a.build_tree);
	g_free(a.output);
	g_free(a.html);
	g_free(a.pprof);
	return ret;
}
