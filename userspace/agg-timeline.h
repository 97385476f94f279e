/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline section: bytes allocated minus bytes freed over time, in
 * bins of --interval (boot phases). Freed bytes are those of frees that
 * match an allocation in the trace; outstanding is the running sum of
 * allocated - freed from the start of the trace.
 */
#ifndef SLABACCT_AGG_TIMELINE_H
#define SLABACCT_AGG_TIMELINE_H

#include "report.h"

struct sa_bin {
	guint64 start_ns;		/* from the first record of the trace */
	guint64 allocs, frees;
	guint64 alloc_bytes, freed_bytes;
	gint64 net;			/* alloc_bytes - freed_bytes */
	gint64 outstanding;		/* running sum of net */
};

struct sa_timeline_result {
	guint64 interval_ns;
	guint64 t0_ns;			/* trace time of the first bin */
	GArray *bins;			/* struct sa_bin */
};

extern const struct sa_agg sa_agg_timeline;

/* Bins kept while reading before pairs are merged (automatic interval). */
#define SA_TIMELINE_MAX_BINS	4096
/* Bins shown with the automatic interval, at most. */
#define SA_TIMELINE_AUTO_BINS	40

#endif /* SLABACCT_AGG_TIMELINE_H */
