/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaim section: direct reclaim and memcg reclaim per task (count,
 * latency sum, max and histogram, pages reclaimed), kswapd per node
 * (wakes, sleeps, busy time, wake-up requests), shrink_slab per shrinker
 * (calls, time, objects scanned and freed), and the LRU's scan versus
 * steal efficiency (mm_vmscan_lru_shrink_inactive).
 *
 * Formulas (also in `slabacct report --help`):
 *   latency      = end - begin of one reclaim, per task (begin and end
 *                  are paired by pid)
 *   kswapd busy  = sum over wake..sleep intervals per node (a kswapd
 *                  still awake at the end counts until the last event)
 *   shrinker time = mm_shrink_slab_end - mm_shrink_slab_start, per task
 *   efficiency % = 100 * nr_reclaimed / nr_scanned (LRU steal / scan)
 */
#ifndef SLABACCT_AGG_RECLAIM_H
#define SLABACCT_AGG_RECLAIM_H

#include "report/report.h"


#define SA_LAT_BUCKETS	7	/* <10us <100us <1ms <10ms <100ms <1s >=1s */
#define SA_KSWAPD_NODES	64

enum sa_rc_kind {
	SA_RC_DIRECT,
	SA_RC_MEMCG,
	SA_RC_KINDS,
};

struct sa_rc_lat {
	guint64 count;
	guint64 sum_ns, max_ns;
	guint64 hist[SA_LAT_BUCKETS];
	guint64 reclaimed;		/* pages */
};

struct sa_rc_task {
	gint32 pid;
	const char *comm;		/* interned */
	struct sa_rc_lat lat;
};

struct sa_kswapd_node {
	int nid;
	guint64 wakes, sleeps, requests;	/* requests: wakeup_kswapd */
	guint64 busy_ns;
	int max_order;			/* highest order woken for */
	bool awake_at_end;
};

struct sa_shrinker {
	guint64 shrink;			/* the scan function's address */
	char *sym;			/* resolved, or "0x..." */
	guint64 calls;
	guint64 sum_ns, max_ns;
	guint64 to_scan, freed;
};

struct sa_lru_row {
	char *what;			/* "direct", "kswapd/other", flags */
	guint64 calls, scanned, reclaimed;
	double efficiency;		/* % */
};

struct sa_reclaim_result {
	bool have_direct, have_kswapd, have_shrink, have_lru, have_memcg;
	struct sa_rc_lat total[SA_RC_KINDS];
	GPtrArray *tasks[SA_RC_KINDS];	/* struct sa_rc_task *, by sum */
	guint64 unfinished[SA_RC_KINDS];	/* begun, no end in the trace */
	GArray *kswapd;			/* struct sa_kswapd_node, by nid */
	GPtrArray *shrinkers;		/* struct sa_shrinker *, by time */
	struct sa_lru_row lru_total;
	GPtrArray *lru;			/* struct sa_lru_row *: by context,
					 * then by reclaim flags */
	guint64 writes;			/* pages written back by reclaim */
};

extern const struct sa_agg sa_agg_reclaim;

int sa_lat_bucket(guint64 ns);
const char *sa_lat_label(int bucket);	/* "<10us", ..., ">=1s" */
const char *sa_rc_kind_name(int kind);	/* "direct", "memcg" */

#endif /* SLABACCT_AGG_RECLAIM_H */
