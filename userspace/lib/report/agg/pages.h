/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pages section: page allocations and frees (mm_page_alloc,
 * mm_page_free) by order x migratetype, by GFP
 * flags and by task; the pages still allocated at the end of the trace;
 * extfrag fallbacks and pageblock steals (mm_page_alloc_extfrag); and,
 * when the trace carries /proc/buddyinfo snapshots, the unusable free
 * space index per order (procfs/buddyinfo.h).
 *
 * Formulas (also in `slabacct report --help`):
 *   pages        = blocks << order
 *   live pages   = pages allocated in the trace and not freed by its end
 *   frees        = mm_page_free events, one per free of 1 << order pages
 *                  (/proc/vmstat's pgfree counts the same pages)
 *   in batches   = frees that mm_page_free_batched also reported: the
 *                  kernel fires it after mm_page_free for a page freed
 *                  as part of a list (free_unref_page_list, 6.1;
 *                  free_unref_folios, 6.12): the same free, not another
 *   fallback     = an allocation served from another migratetype's
 *                  free list (every mm_page_alloc_extfrag)
 *   steal        = a fallback that took over the whole pageblock
 *                  (change_ownership = 1)
 *   unusable(j)  = (free - sum over i >= j of n_i * 2^i) / free
 *   call site    = with kernel stacks (record --stacks=all), the first
 *                  frame of an allocation's stack past the page
 *                  allocator, the large kmalloc and the allocation
 *                  wrappers (symbols/wrappers.h), named "via <- caller"
 *                  after the outermost of those it went through
 */
#ifndef SLABACCT_AGG_PAGES_H
#define SLABACCT_AGG_PAGES_H

#include "procfs/buddyinfo.h"
#include "report/report.h"



#define SA_PG_ORDERS	11	/* orders 0..9, then ">= 10" */
#define SA_PG_MTS	5	/* Unmovable Movable Reclaimable HighAtomic
				 * and any other type */

struct sa_pg_cell {
	guint64 blocks, pages;
};

struct sa_pg_gfp {
	guint64 gfp;
	char *str;		/* as the traced kernel prints it */
	guint64 blocks, pages;
};

struct sa_pg_task {
	gint32 pid;
	const char *comm;	/* interned, "<...>" when unknown */
	guint64 blocks, pages;	/* allocated */
	guint64 freed_pages;
};

/* Pages by call site (with kernel stacks). */
enum sa_pg_site_how {
	SA_PG_SITE_CALLER,	/* via <- caller */
	SA_PG_SITE_NO_STACK,	/* the allocation had no kernel stack */
	SA_PG_SITE_NO_CALLER,	/* no frame past the page allocator */
};

struct sa_pg_site {
	enum sa_pg_site_how how;
	char *sym;		/* "alloc_pages <- pgd_alloc+0x25", or
				 * "(no kernel stack)" */
	const char *via;	/* the entry point's allocation name
				 * (interned), or NULL */
	char *caller_sym;	/* "pgd_alloc+0x25", or NULL */
	const char *func, *module;	/* the caller's */
	guint64 via_addr, addr;	/* the entry point, the caller's frame */
	guint64 blocks, pages;	/* allocated */
	guint64 live_blocks, live_pages;	/* not freed by the end */
};

/* The unusable free space index of one zone, from a buddyinfo snapshot. */
struct sa_pg_frag {
	int node;
	char zone[16];
	int nr_orders;
	guint64 free_pages;
	double unusable[SA_BUDDY_MAX_ORDERS];	/* 0..1, exact */
	/* as the kernel shows it: index * 1000, rounded down */
	unsigned int unusable_milli[SA_BUDDY_MAX_ORDERS];
};

struct sa_pages_result {
	bool have_alloc, have_free, have_extfrag;	/* events in the trace */
	guint64 allocs, pages_alloc, failed;	/* failed: pfn = -1 */
	struct sa_pg_cell alloc[SA_PG_ORDERS][SA_PG_MTS];
	guint64 frees, pages_freed;
	guint64 frees_unmatched;	/* of pages allocated before the trace */
	guint64 frees_batched;		/* of those frees, how many came in a
					 * batch (mm_page_free_batched) */
	struct sa_pg_cell freed[SA_PG_ORDERS];	/* by the free's order */
	struct sa_pg_cell live[SA_PG_ORDERS][SA_PG_MTS];
	guint64 live_blocks, live_pages;
	GPtrArray *gfp;		/* struct sa_pg_gfp *, most pages first */
	GPtrArray *tasks;	/* struct sa_pg_task *, most pages first */
	/* struct sa_pg_site *, most pages first; NULL when the trace has no
	 * kernel stacks or no symbols (by_site_why says which) */
	GPtrArray *sites;
	const char *by_site_why;
	guint64 with_stack;	/* allocations that had a kernel stack */
	guint64 fallbacks, steals;
	guint64 fallback_mt[SA_PG_MTS][SA_PG_MTS];	/* [alloc][fallback] */
	guint64 steal_mt[SA_PG_MTS][SA_PG_MTS];
	GArray *frag_start, *frag_end;	/* struct sa_pg_frag, or NULL */
	const char *frag_why;	/* why there is no index, or NULL */
};

extern const struct sa_agg sa_agg_pages;

/* "Unmovable", "Movable", "Reclaimable", "HighAtomic", "other". */
const char *sa_migratetype_name(int mt);
/* "0".."9", ">=10" */
const char *sa_order_label(int row);

#endif /* SLABACCT_AGG_PAGES_H */
