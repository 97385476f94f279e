/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OOM section: every kill (oom:mark_victim) with its victim, the task
 * that triggered it (the one running when the victim was marked) and
 * what it was allocating (its last direct reclaim's order and GFP flags,
 * and the reclaim and compaction retries it made), the OOM reaper's
 * timeline (wake_reaper, start/finish/skip_task_reaping of the victim,
 * relative to the kill), and, when the trace has the kmem allocations,
 * the call sites holding the most live bytes at that moment.
 */
#ifndef SLABACCT_AGG_OOM_H
#define SLABACCT_AGG_OOM_H

#include "report/agg/callsite.h"
#include "report/report.h"


#define SA_OOM_TOP	5	/* live call sites kept per kill */

enum sa_oom_step {
	SA_OOM_WAKE_REAPER,
	SA_OOM_START_REAP,
	SA_OOM_FINISH_REAP,
	SA_OOM_SKIP_REAP,
	SA_OOM_STEPS,
};

struct sa_oom_holder {
	const struct sa_site *site;	/* the callsite section's row */
	char *sym;			/* the call site */
	const char *kind;		/* "kmalloc", "cache" */
	guint64 live, live_bytes;	/* at the kill */
};

struct sa_oom_kill {
	guint64 ts;			/* trace time of mark_victim */
	guint64 rel_ns;			/* from the first record */
	gint32 victim_pid;
	const char *victim_comm;	/* interned; from the event, or the
					 * trace's saved cmdlines */
	guint64 anon_rss_kb, file_rss_kb, shmem_rss_kb;
	gint64 score_adj;
	bool have_rss, have_score_adj;
	gint32 trigger_pid;
	const char *trigger_comm;
	gint64 trigger_order;		/* -1 when unknown */
	char *trigger_gfp;		/* NULL when unknown */
	guint64 reclaim_retries, compact_retries;	/* by the trigger */
	/* reaping: ns after the kill, or -1 when not in the trace */
	gint64 step_ns[SA_OOM_STEPS];
	bool holders_known;		/* the trace had kmem allocations */
	GPtrArray *holders;		/* struct sa_oom_holder * */
};

struct sa_oom_result {
	bool have_victim, have_reaper;
	GPtrArray *kills;		/* struct sa_oom_kill *, in time order */
	guint64 reclaim_retries, compact_retries;	/* all tasks */
};

extern const struct sa_agg sa_agg_oom;

const char *sa_oom_step_name(int step);	/* "wake_reaper", ... */

#endif /* SLABACCT_AGG_OOM_H */
