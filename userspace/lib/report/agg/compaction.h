/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compaction section: runs (mm_compaction_begin/end, paired by pid)
 * by mode (sync, async) with their time, outcomes by status as the traced
 * kernel names them, pages migrated and failed (mm_compaction_migratepages),
 * and deferrals (defer_compaction, deferred, defer_reset) by order.
 *
 * Formulas (also in `slabacct report --help`):
 *   run time     = mm_compaction_end - mm_compaction_begin, per task
 *   migrated     = sum of nr_migrated; failed = sum of nr_failed
 *   success %    = 100 * migrated / (migrated + failed)
 */
#ifndef SLABACCT_AGG_COMPACTION_H
#define SLABACCT_AGG_COMPACTION_H

#include "report/report.h"


#define SA_CP_ORDERS	11	/* 0..9, >= 10 */

struct sa_cp_mode {
	guint64 runs, sum_ns, max_ns;
};

struct sa_cp_outcome {
	gint64 status;
	char *name;			/* "success", "complete", ... */
	guint64 runs;
};

struct sa_compaction_result {
	bool have_runs, have_migrate, have_defer;
	struct sa_cp_mode mode[2];	/* [0] async, [1] sync */
	guint64 runs, sum_ns, max_ns;
	guint64 unfinished;		/* begun, no end in the trace */
	GPtrArray *outcomes;		/* struct sa_cp_outcome *, by runs */
	guint64 migrate_calls, migrated, failed;
	double success;			/* % */
	guint64 defer[SA_CP_ORDERS], deferred[SA_CP_ORDERS],
		defer_reset[SA_CP_ORDERS];
	guint64 defer_total, deferred_total, defer_reset_total;
};

extern const struct sa_agg sa_agg_compaction;

#endif /* SLABACCT_AGG_COMPACTION_H */
