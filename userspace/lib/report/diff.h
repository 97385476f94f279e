/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabacct diff: two recordings (trace.dat) or two /proc/slab_account
 * snapshots, or one of each, compared call site by call site; or two
 * /proc/allocinfo snapshots, site (file:line and function) by site, by
 * their live figures (the only ones allocinfo has). Sites are
 * matched by kind and name ("func+0xoff [module]"; the "/0xsize" the
 * module prints is dropped), or by function with SA_DIFF_BY_FUNCTION,
 * which survives code moving inside a function between two kernels, and
 * renaming across them: a function is matched by its sa_sym_alloc_name
 * (symbols/symbols.h: kvmalloc_node on 6.1 is __kvmalloc_node_noprof on 6.12),
 * unless two functions of one side share that name (d_alloc, __d_alloc),
 * which then stay apart under their own names.
 */
#ifndef SLABACCT_REPORT_DIFF_H
#define SLABACCT_REPORT_DIFF_H

#include <stdbool.h>
#include <glib.h>

#include "report/report.h"

enum sa_diff_by {
	SA_DIFF_BY_SITE,
	SA_DIFF_BY_FUNCTION,
};

struct sa_diff_vals {
	guint64 allocs, frees, bytes_alloc, bytes_req, slack;
	gint64 live, live_bytes;
};

/*
 * B - A of two counters, exact whatever their values: a magnitude and a
 * sign (neg is false when mag is 0). Sums of counters saturate instead
 * (at G_MAXUINT64, or the gint64 limits).
 */
struct sa_delta {
	guint64 mag;
	bool neg;
};

struct sa_delta sa_delta_u64(guint64 a, guint64 b);
struct sa_delta sa_delta_s64(gint64 a, gint64 b);
/* The delta as a gint64, saturated at -G_MAXINT64 and G_MAXINT64. */
gint64 sa_delta_clamp(struct sa_delta d);

/*
 * The vmalloc and percpu totals, each apart from the slab's (never one
 * number of different allocators): the sums of their rows.
 */
enum sa_diff_area {
	SA_DIFF_AREA_VMALLOC,
	SA_DIFF_AREA_PERCPU,
	SA_DIFF_AREA_NR,
};

struct sa_diff_area_total {
	bool traced;			/* the input has the section: its
					 * allocation event was recorded */
	struct sa_diff_vals total;	/* bytes_req and slack are 0 */
};

/*
 * A trace's coverage totals (report/agg/coverage.h), in slot sizes: the
 * live slab it explains, /proc/slabinfo's at its end, and the rest.
 */
struct sa_diff_coverage {
	bool known;			/* the trace carried slabinfo */
	guint64 traced_bytes, slab_bytes;
	gint64 rest_bytes;
	guint64 traced_objs, slab_objs;
	gint64 rest_objs;
};

struct sa_diff_side {
	char *file;
	const char *source;		/* "trace", "account" or
					 * "allocinfo" */
	char *kernel;			/* kernel release, or NULL */
	bool lost_known;
	guint64 lost;			/* events lost while recording */
	/*
	 * The recording stopped early (trace/origin.h): why, or NULL. A
	 * merge: how many of its runs did, in words ("2 of 5 runs"), and
	 * truncated_runs.
	 */
	char *truncated;
	guint64 truncated_ns;
	bool truncated_at_known;
	guint truncated_runs;
	char *snapshot;			/* system snapshot (snapshot.h JSON) at
					 * the end of the recording, or NULL */
	struct sa_account_head *account;	/* a /proc/slab_account
						 * input's header, or NULL */
	struct sa_allocinfo_head *allocinfo;	/* a /proc/allocinfo
						 * input's header, or NULL */
	struct sa_diff_vals total;	/* the slab's (or allocinfo's) */
	struct sa_diff_area_total area[SA_DIFF_AREA_NR];
	struct sa_diff_coverage cov;
	GHashTable *rows;		/* key -> struct sa_diff_vals */
	GHashTable *names;		/* key -> the name as shown (by
					 * function: its own), or NULL */
	guint runs;			/* a merge of runs (slabacct merge):
					 * its rows and totals are the
					 * medians over that many; else 0 */
	bool hidden_rows;		/* a report's JSON cut by --top */
};

enum sa_diff_status {
	SA_DIFF_SAME,
	SA_DIFF_CHANGED,
	SA_DIFF_NEW,			/* only in B */
	SA_DIFF_GONE,			/* only in A */
};

struct sa_diff_row {
	char *site;			/* the name, without the kind; "A -> B"
					 * for a function renamed across
					 * kernels */
	int kind;			/* enum sa_diff_kind */
	enum sa_diff_status status;
	struct sa_diff_vals a, b;
	struct sa_delta d_bytes, d_slack, d_allocs, d_live_bytes;
	struct sa_delta d_live;		/* live objects (allocinfo: calls) */
};

/*
 * A row's kind: allocinfo's sites are of every allocator. vmalloc and
 * percpu rows (a trace's vmalloc and percpu sections: bytes_alloc is
 * their bytes, bytes_req and slack 0) are compared as the others, and
 * summed in totals of their own (side.area[]), not in the slab's.
 */
enum sa_diff_kind {
	SA_DIFF_KIND_KMALLOC,
	SA_DIFF_KIND_CACHE,
	SA_DIFF_KIND_ANY,
	SA_DIFF_KIND_VMALLOC,
	SA_DIFF_KIND_PERCPU,
	SA_DIFF_KIND_NR,
};

struct sa_diff {
	struct sa_diff_side side[2];
	bool allocinfo;			/* both sides are /proc/allocinfo:
					 * live figures only */
	struct sa_delta d_bytes, d_slack, d_allocs, d_live_bytes;
	struct sa_delta d_live;
	/* B - A of the vmalloc and percpu totals; shown when either side
	 * traced the section */
	struct {
		bool shown;
		struct sa_delta d_bytes, d_allocs, d_frees, d_live_bytes,
				d_live;
	} area[SA_DIFF_AREA_NR];
	/* B - A of the coverage totals; shown when both sides have them */
	struct {
		bool shown;
		struct sa_delta d_traced, d_slab, d_rest;
	} cov;
	guint64 n_new, n_gone, n_changed, n_same;
	GArray *rows;			/* struct sa_diff_row, by |change| */
	guint64 hidden;			/* rows left out by top/unchanged */
	/* the page's differential flame graph: struct sa_diff_stack *
	 * (report/diff-stacks.h), or NULL (not in the JSON then) */
	GPtrArray *stacks;
};

enum sa_diff_sort {
	SA_DIFF_SORT_BYTES,
	SA_DIFF_SORT_SLACK,
	SA_DIFF_SORT_ALLOCS,
	SA_DIFF_SORT_LIVE,
	SA_DIFF_SORT_LIVE_COUNT,	/* live objects: allocinfo's allocs */
};

struct sa_thresholds;

struct sa_diff_opts {
	enum sa_diff_by by;
	enum sa_diff_sort sort;
	guint top;			/* 0: all */
	bool all;			/* also rows that did not change */
	int threads;
	/* --fail-on: the limits to judge the diff by (report/threshold.h) */
	const struct sa_thresholds *fail_on;
	/* passed on to sa_report_read (report/report.h) */
	void (*progress)(void *data, guint64 done, guint64 total);
	void *progress_data;
};

/*
 * Load one side (report/diff-input.c): a trace.dat (through
 * sa_report_read), our JSON, or a /proc/slab_account snapshot. Returns
 * 0, or -1 with *err naming the file.
 */
int sa_diff_side_load(struct sa_diff_side *s, const char *path,
		      const struct sa_diff_opts *o, GError **err);
/* The same of a trace.dat, or a snapshot, into a side made ready. */
int sa_diff_side_load_trace(struct sa_diff_side *s, const char *path,
			    const struct sa_diff_opts *o, GError **err);
int sa_diff_side_load_account(struct sa_diff_side *s, const char *path,
			      const struct sa_diff_opts *o, GError **err);
/* A /proc/allocinfo snapshot's (report/diff.c), into a side made ready. */
int sa_diff_side_load_allocinfo(struct sa_diff_side *s, const char *path,
				const struct sa_diff_opts *o, GError **err);
void sa_diff_side_clear(struct sa_diff_side *s);

/*
 * Add rows to a side (its rows table made): n sites, their kinds (0
 * kmalloc, 1 cache), names as in the input and values. Functions of one
 * side that share an allocation name stay apart, as for the others.
 */
void sa_diff_side_add_rows(struct sa_diff_side *s, guint n,
			   const int *kinds, const char *const *names,
			   const struct sa_diff_vals *vals, enum sa_diff_by by);

/*
 * Load one side from our JSON (report/json-input.c): a report's (report
 * --json: its call sites, and its vmalloc and percpu sections if it has
 * them), a /proc/slab_account's (account --json), or a merge's (merge
 * --json, whose medians it takes). text is the file's len bytes.
 */
int sa_diff_side_load_json(struct sa_diff_side *s, const char *path,
			   const char *text, gsize len,
			   const struct sa_diff_opts *o, GError **err);
/*
 * The most a JSON input may hold (its deepest nesting is
 * SA_JSON_READ_DEPTH, util/json-read.h); the most rows
 * a report's vmalloc or percpu section may have, and the longest name.
 */
#define SA_JSON_INPUT_MAX	(256u << 20)
#define SA_JSON_INPUT_AREA_ROWS	(1u << 20)
#define SA_JSON_INPUT_NAME_MAX	4096

/* The name a side shows for a key of its rows table. */
const char *sa_diff_side_name(const struct sa_diff_side *s, const char *key);

/*
 * Whether the loaded sides can be compared: a /proc/allocinfo snapshot
 * only with another. Returns 0, or -1 with *err saying why.
 */
struct sa_diff;
int sa_diff_check_sides(const struct sa_diff *d, GError **err);

/* Add the rows of a vmalloc or percpu result (report/agg/areas.h). */
struct sa_area_result;
void sa_diff_side_add_areas(struct sa_diff_side *s,
			    const struct sa_area_result *r,
			    enum sa_diff_by by);

/* Take the totals of a coverage result (report/agg/coverage.h). */
struct sa_coverage_result;
void sa_diff_side_add_coverage(struct sa_diff_side *s,
			       const struct sa_coverage_result *r);

/* Add the rows of a call-site result to a side (its rows table made). */
struct sa_callsite_result;
void sa_diff_side_add_callsite(struct sa_diff_side *s,
			       const struct sa_callsite_result *r,
			       enum sa_diff_by by);

/*
 * The key of a site name: the "/0x..." size dropped, or the function by
 * its sa_sym_alloc_name.
 */
char *sa_diff_key(const char *name, enum sa_diff_by by);

/*
 * Compare the two loaded sides into d (rows sorted by |change|, desc; two
 * allocinfo sides by live bytes, or with SA_DIFF_SORT_ALLOCS by live
 * allocations).
 */
void sa_diff_compute(struct sa_diff *d, const struct sa_diff_opts *o);
/*
 * The same in two steps: every row, sorted (what --fail-on judges), then
 * the view that leaves out unchanged rows (unless o->all) and those past
 * o->top.
 */
void sa_diff_compute_rows(struct sa_diff *d, const struct sa_diff_opts *o);
void sa_diff_view(struct sa_diff *d, const struct sa_diff_opts *o);
void sa_diff_clear(struct sa_diff *d);

int sa_diff_sort_parse(const char *s, enum sa_diff_sort *sort);
const char *sa_diff_kind_name(int kind);
/* The same in 5 columns at most (text): "kmall", "vmall", "pcpu", ... */
const char *sa_diff_kind_short(int kind);
/* "vmalloc", "percpu"; the row kind of an area */
const char *sa_diff_area_name(enum sa_diff_area a);
int sa_diff_area_kind(enum sa_diff_area a);

#endif /* SLABACCT_REPORT_DIFF_H */
