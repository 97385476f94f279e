/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: the call-site table (table.c) and what the probes read
 * on every event (struct sa_hot, the live-object map's arrays with it),
 * and the table's steps that the probes' path (account.h) inlines.
 */
#ifndef SLAB_ACCOUNT_TABLE_H
#define SLAB_ACCOUNT_TABLE_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "counter.h"
#include "slab_account.h"

/* The multiplier of hash_long(), as wide as a long */
#define SA_GOLDEN	((unsigned long)(BITS_PER_LONG == 64 ?		\
					 GOLDEN_RATIO_64 : GOLDEN_RATIO_32))

/*
 * A call site's counters, one set per CPU (the sum is the row), so that
 * the probes update them with plain adds on their own CPU's cache lines
 * (counter.h). What is live is counted in the live-object map when a row
 * is read, and frees are what neither lives nor was lost, so that a free
 * adds to no counter.
 */
struct sa_count {
	struct sa_ctr allocs;
	struct sa_ctr bytes_alloc;
	struct sa_ctr bytes_req;
	struct sa_ctr lost;		/* gone without a free event seen */
};

/*
 * A slot of the live-object map: the object's address (key, 0: empty),
 * its row and sizes (kmalloc sizes fit in 32 bits), side by side, so
 * that a probe reaches all from one address.
 */
struct sa_obj {
	unsigned long key;
	u32 site;
	u32 bytes_alloc;
	u32 bytes_req;
};

#define SA_BUCKET	16

/*
 * The live-object map: slots in buckets of SA_BUCKET, each slot an
 * object's address (key) and what it was allocated with (struct sa_obj),
 * and a tag byte, 0 for an empty slot, else 0x80 | 7 bits of the key's
 * hash, or SA_TAG_HOME for an object in its home slot; eight slots' tags
 * make one aligned word. Arrays by slot, so that the probes reach a
 * slot's fields from its number alone.
 *
 * The key's hash names a home slot, where the object is put if that slot
 * is free. away counts, by home slot, the objects whose home it is that
 * are in another slot of the bucket (15 at most, a byte): while it is 0,
 * an address of that home can only be tracked in its home slot,
 * and both an allocation (which must find an address still tracked,
 * freed with no free event) and a free look there alone. Otherwise the
 * home slot's key is compared, and a load of the tags tells which of
 * eight other slots may hold the address (but for one in 128 tags, the
 * same, and the home slots' constant tag) and which are empty. Any tag
 * with its top bit set would do for an object at home, as its key is
 * compared there first: a constant spares the probes the tag's hash.
 *
 * A slot is claimed by a cmpxchg of its key from 0, filled, then tagged;
 * it is released by clearing its tag, then its key. So a slot whose tag
 * is set is filled, and a cleared tag never lands on a slot claimed
 * again. A tag byte is only ever stored, never read-modified-written with
 * its neighbours. away is raised before an object is put away from home
 * and lowered after it has left.
 */
struct sa_map {
	u8 *tags;
	struct sa_obj *objs;
	u8 *away;			/* by home slot */
};

/* The rare events, per CPU. */
struct sa_rare {
	u64 untracked_frees;
	u64 map_full;
	u64 lost_frees;
	u64 kmalloc_repeats;
	u64 unattributed;	/* wrappers' allocations left at their site */
	u64 slow_sites;		/* allocations whose row was found out of line */
	u64 slow_objects;	/* objects whose slot was found out of line */
	u64 slow_frees;	/* frees whose slot was found out of line */
	u64 pages_alloc[SA_NR_ORDERS];
	u64 pages_free[SA_NR_ORDERS];
};

/*
 * What the probes read on every event, in one place, so that a probe
 * finds all of it from one address (on ARM a symbol's address costs a
 * movw/movt pair).
 */
struct sa_hot {
	/*
	 * a call site's row: its key's slot, or nr_sites + kind (overflow);
	 * pair rows (wrap.c) follow the overflow rows
	 */
	unsigned long *site_keys;	/* 0: empty */
	unsigned long golden;		/* SA_GOLDEN: sa_golden() */
	/*
	 * What picks a slot from a hash (sa_site_home, sa_obj_home): on
	 * 64-bit kernels, bits 32 and up, masked (a shift by a variable
	 * takes x86's cl, which holds a probe's argument); on 32-bit ones,
	 * the top bits, which have the most of the key in them.
	 */
	unsigned long site_mask;	/* nr_sites - 2: an even slot */
	unsigned long slot_mask;	/* slots - 1 */
	unsigned int site_shift;	/* BITS_PER_LONG - log2(nr_sites) */
	unsigned int slot_shift;	/* BITS_PER_LONG - log2(slots) */
	struct sa_map map;
};
extern struct sa_hot sa_hot;

/*
 * by call-site slot: one of these once its call site is classified
 * (wrap.c), 0 before
 */
extern u8 *sa_site_class;
/*
 * by call-site slot: the call site's offset in its function (so that
 * its function's start is known: wrap.c), 0 if not known
 */
extern u16 *sa_site_off;
#define SA_SITE_PLAIN	1
#define SA_SITE_WRAP	2
DECLARE_PER_CPU(struct sa_count *, sa_counts);	/* by row */
DECLARE_PER_CPU(struct sa_rare, sa_pcpu);

#define SA_NO_ROW	U32_MAX
/* table.c: rows, and the table's life (sa_account_init, account.c) */
u32 sa_site_find(unsigned long key, enum sa_kind kind);
u32 sa_site_claim(unsigned long key, enum sa_kind kind, u8 class, u16 off);
u32 sa_pair_claim(u32 via, unsigned long caller);
int sa_table_init(unsigned int sites);
void sa_table_exit(void);
void sa_table_clear(void);
/*
 * The hashes' multiplier. x86 puts it in a register with one instruction
 * (movabs); ARM builds it with two (movw/movt) or, on arm64, up to four
 * (movz/movk), where one load from sa_hot, a line the probes read anyway,
 * is cheaper.
 */
#ifdef CONFIG_X86
#define sa_golden()	SA_GOLDEN
#else
#define sa_golden()	sa_hot.golden
#endif

/*
 * The first slot a call site probes (hash_long()), among those of its
 * kind's parity (table.c)
 */
static __always_inline unsigned long sa_site_home(unsigned long call_site,
						  enum sa_kind kind)
{
	unsigned long h = call_site * sa_golden();

#if BITS_PER_LONG == 64
	return (h >> 32 & sa_hot.site_mask) | kind;
#else
	return (h >> sa_hot.site_shift & ~1UL) | kind;
#endif
}

static __always_inline void sa_site_add(unsigned long site, size_t alloc,
					size_t req)
{
	struct sa_count *c = this_cpu_read(sa_counts) + site;
	unsigned long flags = sa_ctr_begin();

	sa_ctr_add(&c->allocs, 1);
	sa_ctr_add(&c->bytes_alloc, alloc);
	/* alloc before req: pairs with the smp_rmb() in sa_site_copy */
	smp_wmb();
	sa_ctr_add(&c->bytes_req, req);
	sa_ctr_end(flags);
}

/*
 * sa_site_add() for the probes' path: true if it counted. On a 32-bit
 * kernel, an add that would carry into a counter's hi (counter.h) counts
 * nothing here and returns false, for the path out of line to count it
 * with sa_site_add(), so that the carry's call and the registers it
 * needs saved are not on this path, and one test of the three sums' bit
 * 31 finds a carry.
 */
static __always_inline bool sa_site_add_fast(unsigned long site,
					     size_t alloc, size_t req)
{
#if BITS_PER_LONG == 32
	struct sa_count *c = this_cpu_read(sa_counts) + site;
	unsigned long flags = sa_ctr_begin();
	u32 n = c->allocs.lo + 1;
	u32 a = c->bytes_alloc.lo + alloc;
	u32 r = c->bytes_req.lo + req;

	if (unlikely((n | a | r) & SA_CTR_CARRY)) {
		sa_ctr_end(flags);
		return false;
	}
	WRITE_ONCE(c->allocs.lo, n);
	WRITE_ONCE(c->bytes_alloc.lo, a);
	/* alloc before req: pairs with the smp_rmb() in sa_site_copy */
	smp_wmb();
	WRITE_ONCE(c->bytes_req.lo, r);
	sa_ctr_end(flags);
#else
	sa_site_add(site, alloc, req);
#endif
	return true;
}

/* An object leaves the live set with no free event seen. */
static __always_inline void sa_lost(unsigned long site)
{
	unsigned long flags = sa_ctr_begin();

	sa_ctr_add(&this_cpu_read(sa_counts)[site].lost, 1);
	sa_ctr_end(flags);
}

#endif /* SLAB_ACCOUNT_TABLE_H */
