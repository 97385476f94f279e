/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: the live-object map (map.c; its layout is struct sa_map,
 * in table.h, beside what else the probes read) and its steps that the
 * probes' path (account.h) inlines.
 */
#ifndef SLAB_ACCOUNT_MAP_H
#define SLAB_ACCOUNT_MAP_H

#include "table.h"

/* map.c: the paths out of line */
void sa_obj_insert_slow(const void *ptr, unsigned long site, size_t alloc,
			size_t req);
void sa_account_free_slow(const void *ptr);
bool sa_obj_move(const void *ptr, u32 from, u32 to, size_t alloc,
		 size_t req);
/* map.c: the live-object map's life (sa_account_init, account.c) */
int sa_map_init(unsigned int objects);
void sa_map_clear(void);
void sa_map_exit(void);

#define SA_TAG_HOME	0x80

/* The home slot of an object's address */
static __always_inline unsigned long sa_obj_home(unsigned long key)
{
	unsigned long h = key * sa_golden();

#if BITS_PER_LONG == 64
	return h >> 32 & sa_hot.slot_mask;
#else
	return h >> sa_hot.slot_shift;
#endif
}

/* Fill claimed slot o, number slot, and tag it. */
static __always_inline void sa_obj_publish(struct sa_obj *o,
					   unsigned long slot, u8 tag,
					   unsigned long site, size_t alloc,
					   size_t req)
{
	o->site = site;
	o->bytes_alloc = alloc;
	o->bytes_req = req;
	/* filled before tagged: pairs with readers of the tags */
	smp_wmb();
	WRITE_ONCE(sa_hot.map.tags[slot], tag);
}

/* Release a slot; objs is sa_hot.map.objs. */
static __always_inline void sa_obj_release(struct sa_obj *objs,
					   unsigned long slot)
{
	WRITE_ONCE(sa_hot.map.tags[slot], 0);
	/* the tag cleared before the key is */
	smp_store_release(&objs[slot].key, 0UL);
}

/* Track ptr, allocated at row site: in its home slot, or out of line */
static __always_inline void sa_obj_insert(const void *ptr,
					  unsigned long site, size_t alloc,
					  size_t req)
{
	unsigned long slot, none = 0;
	struct sa_obj *o;

	/*
	 * At home, and no object of this home away: not tracked already.
	 * The claim needs no barrier: claims of one slot are ordered by the
	 * cmpxchg alone; the smp_wmb() of sa_obj_publish orders it, and the
	 * counters' adds before it, before the tag that shows the slot
	 * filled; what the read of away must see (this address put away by
	 * an event of its own, before the allocator handed it out again) is
	 * ordered by the allocator; and a free of ptr comes after its caller
	 * had it, so after all of this.
	 */
	slot = sa_obj_home((unsigned long)ptr);
	o = &sa_hot.map.objs[slot];
	if (unlikely(READ_ONCE(sa_hot.map.away[slot])) ||
	    unlikely(!try_cmpxchg_relaxed(&o->key, &none,
					  (unsigned long)ptr))) {
		sa_obj_insert_slow(ptr, site, alloc, req);
		return;
	}
	sa_obj_publish(o, slot, SA_TAG_HOME, site, alloc, req);
}

#endif /* SLAB_ACCOUNT_MAP_H */
