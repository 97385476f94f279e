/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: the probes' path through the call-site table (table.c)
 * and the live-object map (map.c), inlined into each probe (probes.c), so
 * that an event costs one call: the tracepoint's. The common case runs
 * here; anything else (a call site's first event, a large kmalloc, an
 * object that cannot have its home slot, a free not found there) is
 * handed whole to a function out of line, by a tail call.
 */
#ifndef SLAB_ACCOUNT_TABLE_H
#define SLAB_ACCOUNT_TABLE_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <asm/local64.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "slab_account.h"

/* The multiplier of hash_long(), as wide as a long */
#define SA_GOLDEN	((unsigned long)(BITS_PER_LONG == 64 ?		\
					 GOLDEN_RATIO_64 : GOLDEN_RATIO_32))

/*
 * A call site's counters, one set per CPU (the sum is the row), so that
 * the probes update them with plain adds on their own CPU's cache lines.
 * What is live is counted in the live-object map when a row is read, and
 * frees are what neither lives nor was lost, so that a free adds to no
 * counter.
 */
struct sa_count {
	local64_t allocs;
	local64_t bytes_alloc;
	local64_t bytes_req;
	local64_t lost;		/* gone without a free event seen */
};

/* A tracked object: its row and sizes (kmalloc sizes fit in 32 bits). */
struct sa_obj {
	u32 site;
	u32 bytes_alloc;
	u32 bytes_req;
};

#define SA_BUCKET	8

/*
 * A bucket of the live-object map: SA_BUCKET slots, each an object's
 * address (key) and what it was allocated with, and a tag byte per slot,
 * all in one word: 0 for an empty slot, else 0x80 | 7 bits of the key's
 * hash.
 *
 * The key's hash also names a home slot in the bucket, where the object
 * is put when the slot is free. displaced counts the objects in a slot
 * other than their home: while it is 0, an address can only be tracked
 * in its home slot, and both an allocation (which must find an address
 * still tracked, freed with no free event) and a free look there alone.
 * Otherwise one load of the tags tells which slots may hold an address
 * (but for one in 128 tags, the same) and which are empty.
 *
 * A slot is claimed by a cmpxchg of its key from 0, filled, then tagged;
 * it is released by clearing its tag, then its key. So a slot whose tag
 * is set is filled, and a cleared tag never lands on a slot claimed
 * again. A tag byte is only ever stored, never read-modified-written with
 * its neighbours. displaced is raised before an object is put away from
 * home and lowered after it has left.
 */
struct sa_bucket {
	union {
		u64 word;
		u8 byte[SA_BUCKET];
	} tags;
	atomic_t displaced;
	unsigned long keys[SA_BUCKET];
	struct sa_obj objs[SA_BUCKET];
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

/* a call site's row: its key's slot, or nr_sites + kind (overflow) */
extern unsigned long *sa_site_keys;	/* 0: empty */
DECLARE_PER_CPU(struct sa_count *, sa_counts);	/* by row */
extern unsigned int sa_site_shift;	/* BITS_PER_LONG - log2(nr_sites) */
extern struct sa_bucket *sa_map;
extern unsigned int sa_slot_shift;	/* BITS_PER_LONG - log2(slots) */
DECLARE_PER_CPU(struct sa_rare, sa_pcpu);

/* table.c, map.c: the paths out of line */
void sa_account_alloc_slow(enum sa_kind kind, unsigned long call_site,
			   const void *ptr, size_t req, size_t alloc);
void sa_obj_insert_slow(const void *ptr, u32 site, size_t alloc, size_t req);
void sa_account_free_slow(const void *ptr);
bool sa_obj_move(const void *ptr, u32 from, u32 to, size_t alloc,
		 size_t req);
/* map.c: the live-object map's life */
int sa_map_init(unsigned int objects);
void sa_map_clear(void);
void sa_map_exit(void);

/*
 * The first slot a call site probes (hash_long()), among those of its
 * kind's parity (table.c)
 */
static __always_inline unsigned int sa_site_home(unsigned long call_site,
						 enum sa_kind kind)
{
	return ((call_site * SA_GOLDEN) >> sa_site_shift & ~1UL) | kind;
}

static __always_inline void sa_site_add(u32 site, size_t alloc, size_t req)
{
	struct sa_count *c = this_cpu_read(sa_counts) + site;

	local64_inc(&c->allocs);
	local64_add(alloc, &c->bytes_alloc);
	/* alloc before req: pairs with the smp_rmb() in sa_site_copy */
	smp_wmb();
	local64_add(req, &c->bytes_req);
}

/* An object leaves the live set with no free event seen. */
static __always_inline void sa_lost(u32 site)
{
	local64_inc(&this_cpu_read(sa_counts)[site].lost);
}

/* The bucket of an object's address, its home slot there, and its tag */
static __always_inline struct sa_bucket *sa_obj_home(unsigned long key,
						     unsigned int *slot,
						     u8 *tag)
{
	unsigned long h = key * SA_GOLDEN;
	unsigned long s = h >> sa_slot_shift;

	*slot = s % SA_BUCKET;
	/* bits below those of the slot */
	*tag = (u8)(h >> (BITS_PER_LONG / 2)) | 0x80;
	return &sa_map[s / SA_BUCKET];
}

static __always_inline void sa_obj_fill(struct sa_obj *o, u32 site,
					size_t alloc, size_t req)
{
	o->site = site;
	o->bytes_alloc = alloc;
	o->bytes_req = req;
}

/* Fill a claimed slot and tag it. */
static __always_inline void sa_obj_publish(struct sa_bucket *bk,
					   unsigned int i, u8 tag, u32 site,
					   size_t alloc, size_t req)
{
	sa_obj_fill(&bk->objs[i], site, alloc, req);
	/* filled before tagged: pairs with readers of the tags */
	smp_wmb();
	WRITE_ONCE(bk->tags.byte[i], tag);
}

/* Release a slot. */
static __always_inline void sa_obj_release(struct sa_bucket *bk,
					   unsigned int i)
{
	WRITE_ONCE(bk->tags.byte[i], 0);
	/* the tag cleared before the key is */
	smp_store_release(&bk->keys[i], 0UL);
}

/* Track ptr, allocated at row site: in its home slot, or out of line */
static __always_inline void sa_obj_insert(const void *ptr, u32 site,
					  size_t alloc, size_t req)
{
	struct sa_bucket *bk;
	unsigned int i;
	u8 tag;

	/* at home, and no object of the bucket away: not tracked already */
	bk = sa_obj_home((unsigned long)ptr, &i, &tag);
	if (unlikely(atomic_read(&bk->displaced)) ||
	    unlikely(cmpxchg(&bk->keys[i], 0UL, (unsigned long)ptr))) {
		sa_obj_insert_slow(ptr, site, alloc, req);
		return;
	}
	sa_obj_publish(bk, i, tag, site, alloc, req);
}

static __always_inline void sa_account_alloc(enum sa_kind kind,
					     unsigned long call_site,
					     const void *ptr, size_t req,
					     size_t alloc)
{
	unsigned int site = sa_site_home(call_site, kind);

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	/* the call site at home, and not a large kmalloc (sa_repeat) */
	if (unlikely(READ_ONCE(sa_site_keys[site]) != call_site) ||
	    (kind == SA_KMALLOC && unlikely(alloc > KMALLOC_MAX_CACHE_SIZE))) {
		sa_account_alloc_slow(kind, call_site, ptr, req, alloc);
		return;
	}
	sa_site_add(site, alloc, req);
	sa_obj_insert(ptr, site, alloc, req);
}

static __always_inline void sa_account_free(const void *ptr)
{
	struct sa_bucket *bk;
	unsigned int i;
	u8 tag;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	bk = sa_obj_home((unsigned long)ptr, &i, &tag);
	if (unlikely(READ_ONCE(bk->keys[i]) != (unsigned long)ptr)) {
		sa_account_free_slow(ptr);
		return;
	}
	sa_obj_release(bk, i);
}

#endif /* SLAB_ACCOUNT_TABLE_H */
