/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: the probes' path through the call-site table and the
 * live-object map (table.c), inlined into each probe (probes.c), so that
 * an event costs one call: the tracepoint's.
 */
#ifndef SLAB_ACCOUNT_TABLE_H
#define SLAB_ACCOUNT_TABLE_H

#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "slab_account.h"

#define SA_BUCKET	8

/*
 * Live figures are derived on read (live = allocated - gone), so that an
 * allocation and a free each cost three atomic adds here.
 */
struct sa_site {
	unsigned long key;		/* 0: empty */
	atomic64_t allocs;
	atomic64_t bytes_alloc;
	atomic64_t bytes_req;
	atomic64_t frees;
	atomic64_t lost;		/* gone without a free event seen */
	atomic64_t gone_bytes;		/* freed or lost */
	atomic64_t gone_req;
};

struct sa_obj {
	u32 site;
	u32 bytes_alloc;
	u32 bytes_req;
	u32 unused;
};

/* The rare events, per CPU. */
struct sa_rare {
	u64 untracked_frees;
	u64 map_full;
	u64 lost_frees;
	u64 kmalloc_repeats;
	u64 pages_alloc[SA_NR_ORDERS];
	u64 pages_free[SA_NR_ORDERS];
};

extern struct sa_site *sa_sites;	/* nr_sites + SA_NR_KINDS overflow */
extern unsigned int sa_site_bits;
extern unsigned long *sa_obj_keys;
extern struct sa_obj *sa_objs;
extern unsigned int sa_bucket_bits;
DECLARE_PER_CPU(struct sa_rare, sa_pcpu);

/* table.c: what the probes' path leaves out of line */
u32 sa_site_claim(unsigned long key, enum sa_kind kind);
bool sa_repeat(u32 site, const void *ptr, size_t req, size_t alloc);

/*
 * The row of a call site: its home slot among those of its kind's parity
 * (table.c), or sa_site_claim()
 */
static __always_inline u32 sa_site_get(unsigned long call_site,
				       enum sa_kind kind)
{
	unsigned int i = hash_long(call_site, sa_site_bits - 1) << 1 | kind;

	if (likely(READ_ONCE(sa_sites[i].key) == call_site))
		return i;
	return sa_site_claim(call_site, kind);
}

/* An object leaves the live set: freed, or lost (no free event seen). */
static __always_inline void sa_gone(u32 site, bool freed, u32 alloc, u32 req)
{
	struct sa_site *s = &sa_sites[site];

	atomic64_inc(freed ? &s->frees : &s->lost);
	atomic64_add(alloc, &s->gone_bytes);
	atomic64_add(req, &s->gone_req);
}

static __always_inline void sa_obj_fill(struct sa_obj *o, u32 site,
					size_t alloc, size_t req)
{
	o->site = site;
	o->bytes_alloc = min_t(size_t, alloc, U32_MAX);
	o->bytes_req = min_t(size_t, req, U32_MAX);
}

/* Track ptr; false if its bucket is full. */
static __always_inline bool sa_obj_insert(const void *ptr, u32 site,
					  size_t alloc, size_t req)
{
	unsigned long key = (unsigned long)ptr;
	unsigned int b = hash_long(key, sa_bucket_bits) * SA_BUCKET;
	unsigned long *keys = &sa_obj_keys[b];
	unsigned int i, empty = SA_BUCKET;

	for (i = 0; i < SA_BUCKET; i++) {
		unsigned long cur = READ_ONCE(keys[i]);

		/* still tracked: it was freed by a path with no free event */
		if (cur == key) {
			struct sa_obj *o = &sa_objs[b + i];

			this_cpu_inc(sa_pcpu.lost_frees);
			sa_gone(o->site, false, o->bytes_alloc, o->bytes_req);
			sa_obj_fill(o, site, alloc, req);
			return true;
		}
		if (!cur && empty == SA_BUCKET)
			empty = i;
	}
	for (i = empty; i < SA_BUCKET; i++) {
		if (READ_ONCE(keys[i]))
			continue;
		if (cmpxchg(&keys[i], 0UL, key) == 0) {
			sa_obj_fill(&sa_objs[b + i], site, alloc, req);
			return true;
		}
	}
	return false;
}

/* Stop tracking ptr; false if it was not tracked. */
static __always_inline bool sa_obj_remove(const void *ptr, struct sa_obj *out)
{
	unsigned long key = (unsigned long)ptr;
	unsigned int b = hash_long(key, sa_bucket_bits) * SA_BUCKET;
	unsigned long *keys = &sa_obj_keys[b];
	unsigned int i;

	for (i = 0; i < SA_BUCKET; i++) {
		if (READ_ONCE(keys[i]) != key)
			continue;
		*out = sa_objs[b + i];
		/* a full barrier: the copy is taken before the slot is free */
		if (cmpxchg(&keys[i], key, 0UL) == key)
			return true;
	}
	return false;
}

static __always_inline void sa_site_add(u32 site, size_t alloc, size_t req)
{
	struct sa_site *s = &sa_sites[site];

	atomic64_inc(&s->allocs);
	atomic64_add(alloc, &s->bytes_alloc);
	/* alloc before req: pairs with the smp_rmb() in sa_site_copy */
	smp_wmb();
	atomic64_add(req, &s->bytes_req);
}

static __always_inline void sa_account_alloc(enum sa_kind kind,
					     unsigned long call_site,
					     const void *ptr, size_t req,
					     size_t alloc)
{
	u32 site;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	site = sa_site_get(call_site, kind);
	if (unlikely(alloc > KMALLOC_MAX_CACHE_SIZE) && kind == SA_KMALLOC &&
	    sa_repeat(site, ptr, req, alloc))
		return;
	sa_site_add(site, alloc, req);
	if (unlikely(!sa_obj_insert(ptr, site, alloc, req))) {
		/* untracked: it leaves the live set now, its free is unknown */
		this_cpu_inc(sa_pcpu.map_full);
		sa_gone(site, false, alloc, req);
	}
}

static __always_inline void sa_account_free(const void *ptr)
{
	struct sa_obj o;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	if (!sa_obj_remove(ptr, &o)) {
		this_cpu_inc(sa_pcpu.untracked_frees);
		return;
	}
	sa_gone(o.site, true, o.bytes_alloc, o.bytes_req);
}

#endif /* SLAB_ACCOUNT_TABLE_H */
