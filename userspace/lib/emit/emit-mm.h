/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emitters of the memory-pressure sections, one file per section
 * holding its three formats: emit/pages.c, emit/reclaim.c,
 * emit/compaction.c, emit/oom.c. They only format what
 * report/agg/{pages,reclaim,compaction,oom}.c computed. The CSV tables,
 * by first column:
 *   pages_summary, pages_order, pages_gfp, pages_task, pages_extfrag,
 *   pages_unusable; reclaim_summary, reclaim_task, kswapd, shrinker,
 *   lru; compaction_summary, compaction_outcome, compaction_defer;
 *   oom_kill, oom_holder.
 */
#ifndef SLABACCT_EMIT_MM_H
#define SLABACCT_EMIT_MM_H

#include "emit/emit.h"

void sa_text_pages(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);
void sa_text_reclaim(struct sa_emit *e, const struct sa_report *rep,
		     const void *result);
void sa_text_compaction(struct sa_emit *e, const struct sa_report *rep,
			const void *result);
void sa_text_oom(struct sa_emit *e, const struct sa_report *rep,
		 const void *result);

void sa_json_pages(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);
void sa_json_reclaim(struct sa_emit *e, const struct sa_report *rep,
		     const void *result);
void sa_json_compaction(struct sa_emit *e, const struct sa_report *rep,
			const void *result);
void sa_json_oom(struct sa_emit *e, const struct sa_report *rep,
		 const void *result);

void sa_csv_pages(struct sa_emit *e, const struct sa_report *rep,
		  const void *result);
void sa_csv_reclaim(struct sa_emit *e, const struct sa_report *rep,
		    const void *result);
void sa_csv_compaction(struct sa_emit *e, const struct sa_report *rep,
		       const void *result);
void sa_csv_oom(struct sa_emit *e, const struct sa_report *rep,
		const void *result);

#endif /* SLABACCT_EMIT_MM_H */
