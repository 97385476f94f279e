/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coverage section: the slab memory live at the end of the trace,
 * reconciled with /proc/slabinfo taken when the recording ended (the
 * system snapshot "at end" that record and boot collect store in the
 * trace, trace/origin.h).
 *
 * Everything is compared in slot sizes: a traced object counts its
 * event's bytes_alloc (the slot: s->size, kmalloc's size class), a
 * slabinfo cache active_objs x objsize (objsize is s->size there too).
 *
 *   traced = the slab objects the trace saw allocated and not freed
 *   slab   = active_objs x objsize, per cache
 *   rest   = slab - traced: allocated before the events were on, or
 *            allocated untraced (kmem_cache_alloc_bulk), or free slots
 *            that SLUB counts as active (the objects of per-CPU slabs);
 *            below 0 where the trace missed frees (kmem_cache_free_bulk,
 *            RCU-batched frees)
 *
 * A kmalloc larger than the biggest kmalloc cache's slot comes from the
 * page allocator: it is counted apart, never in the slab's figures.
 *
 * Per cache only where the events name it (kmem_cache_alloc's "name":
 * this 6.18 host's has it, Debian's 6.1 and 6.12 have not). kmalloc's events do not: a kmalloc of slot N may come from
 * kmalloc-N, kmalloc-cg-N, kmalloc-rcl-N, dma-kmalloc-N or a
 * kmalloc-rnd-*-N cache, so the kmalloc caches are one row per slot size,
 * "kmalloc-*-N", summing them all, with the named allocations from those
 * caches (caches merged into a kmalloc cache carry its name). Without
 * names (where caches merged into kmalloc-N allocate unnamed), the
 * figures are the totals only.
 */
#ifndef SLABACCT_AGG_COVERAGE_H
#define SLABACCT_AGG_COVERAGE_H

#include "report/report.h"

struct sa_cov_row {
	char *cache;			/* a cache, or "kmalloc-*-N" */
	bool kmalloc;			/* the kmalloc caches of one slot */
	guint64 slot;			/* objsize (bytes per slot) */
	guint64 caches;			/* slabinfo caches in the row */
	guint64 traced_objs, traced_bytes;
	guint64 slab_objs, slab_bytes;	/* active_objs, x objsize */
	gint64 rest_objs, rest_bytes;	/* slab - traced */
};

struct sa_coverage_result {
	bool have_slabinfo;		/* the trace carries one at its end */
	const char *why;		/* if not: why */
	bool per_cache;			/* the events name their caches */
	struct sa_cov_row total;	/* every cache */
	guint64 kmalloc_max;		/* the biggest kmalloc slot */
	guint64 large_objs, large_bytes;	/* live kmallocs above it:
						 * pages, not slab */
	guint64 unnamed_objs, unnamed_bytes;	/* live kmem_cache_alloc
						 * objects of no named cache */
	GPtrArray *rows;		/* struct sa_cov_row *, by rest_bytes
					 * (largest first); empty unless
					 * per_cache */
};

extern const struct sa_agg sa_agg_coverage;

/* Whether a slabinfo cache name is a kmalloc cache's. */
bool sa_cov_is_kmalloc(const char *name);

#endif /* SLABACCT_AGG_COVERAGE_H */
