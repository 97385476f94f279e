/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabacct merge: many runs (trace.dat files, /proc/slab_account
 * snapshots, our JSON: each loaded as a diff side, report/diff.h) into
 * one table of call sites, with per site and per measure the sum over the
 * runs and the spread: min, median and max over every run, a run without
 * the site counting 0 (so min is 0 unless the site is in every run), and
 * in how many runs the site appears. The runs' totals get the same
 * spread. The median of an even number of runs is the mean of the two
 * middle values, rounded down. Sums saturate at 2^64 - 1; live figures
 * below 0 count 0.
 */
#ifndef SLABACCT_REPORT_MERGE_H
#define SLABACCT_REPORT_MERGE_H

#include <stdbool.h>
#include <glib.h>

#include "report/diff.h"

enum sa_merge_measure {
	SA_MERGE_ALLOCS,
	SA_MERGE_FREES,
	SA_MERGE_BYTES,			/* bytes allocated */
	SA_MERGE_REQ,			/* bytes requested */
	SA_MERGE_SLACK,
	SA_MERGE_LIVE,			/* live objects */
	SA_MERGE_LIVE_BYTES,
	SA_MERGE_NR,
};

/* The measure's name in JSON and CSV: allocs, ..., live_bytes. */
const char *sa_merge_measure_name(int m);

struct sa_spread {
	guint64 sum, min, median, max;
};

struct sa_merge_run {
	char *file;
	const char *source;		/* "trace" or "account" */
	char *kernel;			/* or NULL */
	bool lost_known;
	guint64 lost;
	char *truncated;		/* the run stopped early: why, or NULL */
	guint64 truncated_ns;
	bool truncated_at_known;
	guint64 sites;
	guint64 total[SA_MERGE_NR];
	struct sa_diff_coverage cov;	/* its coverage totals, if known */
};

/*
 * The coverage totals (report/agg/coverage.h) over the runs that have
 * them: traced, slabinfo and rest bytes (a rest below 0 counts 0).
 */
enum sa_merge_cov {
	SA_MERGE_COV_TRACED,
	SA_MERGE_COV_SLAB,
	SA_MERGE_COV_REST,
	SA_MERGE_COV_NR,
};

/* traced_bytes, slab_bytes, rest_bytes */
const char *sa_merge_cov_name(int c);

struct sa_merge_row {
	char *site;			/* as the first run that has it names it */
	int kind;			/* 0 kmalloc, 1 cache */
	guint runs;			/* runs that have the site */
	struct sa_spread v[SA_MERGE_NR];
};

struct sa_merge {
	enum sa_diff_by by;
	GPtrArray *runs;		/* struct sa_merge_run * */
	char *kernel;			/* every run's kernel, if one; or NULL */
	bool lost_known;		/* in every run of a trace */
	guint64 lost;			/* summed over the runs */
	guint truncated;		/* runs that stopped early */
	struct sa_spread total[SA_MERGE_NR];	/* over the runs' totals */
	guint cov_runs;			/* runs with coverage totals */
	struct sa_spread cov[SA_MERGE_COV_NR];	/* over those runs */
	GArray *rows;			/* struct sa_merge_row, by bytes
					 * allocated (sum), largest first */
	guint64 hidden;			/* rows left out by top */
	GHashTable *acc;		/* while adding: key -> values */
};

void sa_merge_init(struct sa_merge *m, enum sa_diff_by by);
/*
 * Add one loaded run. A merge (s->runs) is refused: its medians cannot be
 * merged again. Returns 0, or -1 with *err.
 */
int sa_merge_add(struct sa_merge *m, const struct sa_diff_side *s,
		 GError **err);
/* Compute the spreads and the rows, keeping the first top (0: all). */
void sa_merge_finish(struct sa_merge *m, guint top);
void sa_merge_clear(struct sa_merge *m);

/* The spread of n values (sorted in place). */
void sa_spread_of(guint64 *v, guint n, struct sa_spread *s);

#endif /* SLABACCT_REPORT_MERGE_H */
