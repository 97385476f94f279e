/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline section: bytes allocated minus bytes freed over time, in
 * bins of --interval (boot phases). Freed bytes are those of frees that
 * match an allocation in the trace; untraced bytes those of live objects
 * whose pointer was allocated again with no free traced in between
 * (kmem_cache_free_bulk, kfree_bulk, batched RCU frees: freed without a
 * trace event), which the live section drops at the same moment. A large
 * kmalloc traced twice is one allocation (agg/callsite.h). Outstanding is
 * the running sum of allocated - freed - untraced from the start of the
 * trace: its last value is the live section's bytes. The boot phases, where
 * the trace has them, are this section's too (report/agg/phases.h).
 */
#ifndef SLABACCT_AGG_TIMELINE_H
#define SLABACCT_AGG_TIMELINE_H

#include "report/report.h"
#include "report/agg/phases.h"

struct sa_bin {
	guint64 start_ns;		/* from the first record of the trace */
	guint64 allocs, frees;
	guint64 alloc_bytes, freed_bytes;
	guint64 untraced, untraced_bytes;	/* freed without an event */
	gint64 net;			/* alloc - freed - untraced bytes */
	gint64 outstanding;		/* running sum of net */
};

struct sa_timeline_result {
	guint64 interval_ns;
	guint64 t0_ns;			/* trace time of the first bin */
	GArray *bins;			/* struct sa_bin */
	struct sa_phases phases;	/* none: no initcall_level events */
};

extern const struct sa_agg sa_agg_timeline;

/* Bins kept while reading before pairs are merged (automatic interval). */
#define SA_TIMELINE_MAX_BINS	4096
/* Bins shown with the automatic interval, at most. */
#define SA_TIMELINE_AUTO_BINS	40
/*
 * Bins of a given --interval, at most (56 MB of them): a narrower
 * interval, or a trace whose timestamps jump, fails the report.
 */
#define SA_TIMELINE_FIXED_BINS	(1u << 20)

#endif /* SLABACCT_AGG_TIMELINE_H */
