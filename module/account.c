// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: an allocation accounted across the tables, out of line,
 * and the tables' life together. Above the call-site table (table.c), the
 * live-object map (map.c) and the attribution through wrappers (wrap.c),
 * each of which knows only the ones below it: the probes' path (account.h)
 * hands here what it does not do inline (a call site not in its home
 * slot, a wrapper's call site, a large kmalloc), and the module's load,
 * unload and reset build, free and clear the three here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "account.h"
#include "map.h"
#include "table.h"
#include "wrap.h"

/* The last large kmalloc seen, per CPU and context level (sa_repeat) */
struct sa_large {
	const void *ptr;
	size_t req;
	size_t alloc;
	u32 site;
};

static DEFINE_PER_CPU(struct sa_large[SA_CONTEXTS], sa_last_large);

/* Take back an allocation counted at a row (sa_repeat). */
static void sa_site_sub(u32 site, size_t alloc, size_t req)
{
	struct sa_count *c = this_cpu_read(sa_counts) + site;
	unsigned long flags = sa_ctr_begin();

	sa_ctr_sub(&c->bytes_req, req);
	/* req before alloc, so that req never passes alloc in memory */
	smp_wmb();
	sa_ctr_sub(&c->bytes_alloc, alloc);
	sa_ctr_sub(&c->allocs, 1);
	sa_ctr_end(flags);
}

/*
 * Large kmallocs (past the kmalloc caches) are traced twice by 6.10+
 * kernels: first with the allocator's own address (__kmalloc_noprof+x,
 * from __kmalloc_large_node_noprof), then with the caller's, with the
 * same pointer and sizes, back to back on one CPU. Known by that shape,
 * not by a version: each CPU keeps the last large kmalloc it saw, one
 * per context level, so that an interrupt between the two events (or
 * inside this probe) leaves the pair intact. An event that repeats it,
 * from another call site, while the first is still tracked in the live
 * map under its row, is the same allocation: it moves to this call site
 * and is counted in kmalloc_repeats. (A first event that found the live
 * map full cannot be checked, and is not folded.)
 *
 * True if the event at row site was such a repeat and is accounted.
 */
static bool sa_repeat(u32 site, const void *ptr, size_t req, size_t alloc)
{
	struct sa_large *last;

	last = this_cpu_ptr(&sa_last_large[sa_context_level()]);
	if (last->ptr != ptr || last->req != req || last->alloc != alloc ||
	    last->site == site ||
	    !sa_obj_move(ptr, last->site, site, alloc, req)) {
		last->ptr = ptr;
		last->req = req;
		last->alloc = alloc;
		last->site = site;
		return false;
	}
	sa_site_add(site, alloc, req);
	sa_site_sub(last->site, alloc, req);
	last->ptr = NULL;
	this_cpu_inc(sa_pcpu.kmalloc_repeats);
	return true;
}

/*
 * An allocation whose call site is not in its home slot, or a large
 * kmalloc (sa_account_alloc)
 */
void sa_account_alloc_slow(enum sa_kind kind, unsigned long call_site,
			   const void *ptr, size_t req, size_t alloc)
{
	/* a wrapper's call site this CPU met last: no lookup */
	u32 site = sa_wrap_cached(call_site, kind);

	this_cpu_inc(sa_pcpu.slow_sites);

	if (site == SA_NO_ROW) {
		site = sa_site_row(call_site, kind);
		if (site < sa_table_sites() &&
		    sa_site_class_of(site, call_site) == SA_SITE_WRAP)
			site = sa_attribute(site, call_site, kind);
	}
	if (alloc > KMALLOC_MAX_CACHE_SIZE && kind == SA_KMALLOC &&
	    sa_repeat(site, ptr, req, alloc))
		return;
	sa_site_add(site, alloc, req);
	sa_obj_insert(ptr, site, alloc, req);
}

int sa_account_init(unsigned int sites, unsigned int objects)
{
	int ret = sa_table_init(sites) ?: sa_map_init(objects);

	if (ret)
		sa_account_exit();
	return ret;
}

void sa_account_exit(void)
{
	sa_map_exit();
	sa_table_exit();
}

/* Only while the probes are paused and quiescent (sa_reset) */
void sa_account_clear(void)
{
	unsigned int cpu;

	sa_table_clear();
	sa_map_clear();
	sa_wrap_clear();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sa_last_large, cpu), 0,
		       sizeof(sa_last_large));
}
