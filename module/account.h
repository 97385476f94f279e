/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: the probes' path through the call-site table (table.h)
 * and the live-object map (map.h), inlined into each probe (probes.c), so
 * that an event costs one call: the tracepoint's. The common case runs
 * here, and so does a free the map cannot be tracking (its address not
 * at home, no object of its home away); anything else (a call site's
 * first event, a large kmalloc, an object that cannot have its home
 * slot, a free not at home while an object of its home is away) is
 * handed whole to a function out of line (account.c, map.c), by a tail
 * call.
 */
#ifndef SLAB_ACCOUNT_ACCOUNT_H
#define SLAB_ACCOUNT_ACCOUNT_H

#include "map.h"
#include "table.h"

/* account.c: an allocation the path below does not account */
void sa_account_alloc_slow(enum sa_kind kind, unsigned long call_site,
			   const void *ptr, size_t req, size_t alloc);

static __always_inline void sa_account_alloc(enum sa_kind kind,
					     unsigned long call_site,
					     const void *ptr, size_t req,
					     size_t alloc)
{
	unsigned long site = sa_site_home(call_site, kind);

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || sa_is_paused())
		return;
	/*
	 * the call site at home (never a wrapper's: sa_site_claim), not a
	 * large kmalloc (sa_repeat), and counted here
	 */
	if (unlikely(READ_ONCE(sa_hot.site_keys[site]) != call_site) ||
	    (kind == SA_KMALLOC && unlikely(alloc > KMALLOC_MAX_CACHE_SIZE)) ||
	    unlikely(!sa_site_add_fast(site, alloc, req))) {
		sa_account_alloc_slow(kind, call_site, ptr, req, alloc);
		return;
	}
	sa_obj_insert(ptr, site, alloc, req);
}

static __always_inline void sa_account_free(const void *ptr)
{
	struct sa_obj *objs = sa_hot.map.objs;
	unsigned long slot;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || sa_is_paused())
		return;
	slot = sa_obj_home((unsigned long)ptr);
	if (unlikely(READ_ONCE(objs[slot].key) != (unsigned long)ptr)) {
		/*
		 * not at home, and no object of its home away: not tracked
		 * (sa_obj_find), as every free of an object from before
		 * the module's load
		 */
		if (!READ_ONCE(sa_hot.map.away[slot]))
			this_cpu_inc(sa_pcpu.untracked_frees);
		else
			sa_account_free_slow(ptr);
		return;
	}
	sa_obj_release(objs, slot);
}

#endif /* SLAB_ACCOUNT_ACCOUNT_H */
