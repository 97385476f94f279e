// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the live-object map (struct sa_map in table.h; map.h), what
 * the probes' path leaves out of line: objects that cannot have their
 * home slot, addresses tracked still (freed with no free event), frees
 * not found at home.
 *
 * An allocation's probe runs before the caller sees the pointer and a
 * free's probe runs before the memory is released, so the events of one
 * address never race with each other; those of other addresses in the
 * same bucket do, and the slot protocol (table.h, map.h) keeps them apart
 * without a lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "map.h"

#define SA_BYTES_LOW	0x0101010101010101ULL
#define SA_BYTES_HIGH	0x8080808080808080ULL
/* slots whose tags make a word */
#define SA_TAG_WORD	8

static unsigned int sa_bucket_bits;

/* The tags of the word of slots starting at slot */
static u64 sa_tags(unsigned long slot)
{
	return READ_ONCE(*(u64 *)&sa_hot.map.tags[slot]);
}

/*
 * The slots whose tag is tag, as the top bit of their byte in tags: all
 * of them, and now and then a slot above one of them whose tag differs
 * in the lowest bit only (the borrow of the subtraction), which the key
 * then tells apart. Never an empty slot, whose top bit is clear.
 */
static u64 sa_tag_match(u64 tags, u8 tag)
{
	u64 x = tags ^ (tag * SA_BYTES_LOW);

	return (x - SA_BYTES_LOW) & ~x & SA_BYTES_HIGH;
}

/* The empty slots, as the top bit of their byte */
static u64 sa_tag_empty(u64 tags)
{
	return ~tags & SA_BYTES_HIGH;
}

/*
 * The lowest slot of a mask of sa_tag_match() or sa_tag_empty() of the
 * word of slots starting at slot
 */
static unsigned long sa_tag_slot(unsigned long slot, u64 mask)
{
	unsigned int byte = __ffs64(mask) / 8;

	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		byte = SA_TAG_WORD - 1 - byte;
	return slot + byte;
}

/* An object's tag in a slot other than its home */
static u8 sa_obj_tag(unsigned long key)
{
	/* bits below those of the slot (sa_obj_home) */
	return (u8)(key * SA_GOLDEN >> (BITS_PER_LONG == 64 ? 24 : 16)) | 0x80;
}

/*
 * The slot tracking key, in the bucket of its home slot, or -1. While no
 * object of its home is away, key can only be at home (table.h): what
 * put key away raised away first, in an event of key's own, which came
 * before this one (map.c's head); only key's leaving lowers it again.
 */
static unsigned long sa_obj_find(unsigned long home, unsigned long key,
				 u8 tag)
{
	unsigned long first = round_down(home, SA_BUCKET), w;

	if (READ_ONCE(sa_hot.map.objs[home].key) == key)
		return home;
	if (!READ_ONCE(sa_hot.map.away[home]))
		return -1UL;

	for (w = first; w < first + SA_BUCKET; w += SA_TAG_WORD) {
		u64 match = sa_tag_match(sa_tags(w), tag);

		for (; match; match &= match - 1) {
			unsigned long i = sa_tag_slot(w, match);

			if (READ_ONCE(sa_hot.map.objs[i].key) == key)
				return i;
		}
	}
	return -1UL;
}

/*
 * Add d to the count of the objects away from home slot home. A byte: by
 * cmpxchg, as atomic_t is a word; fully ordered.
 */
static void sa_away_add(unsigned long home, int d)
{
	u8 *away = &sa_hot.map.away[home], old = READ_ONCE(*away), cur;

	while ((cur = cmpxchg(away, old, (u8)(old + d))) != old)
		old = cur;
}

/*
 * Track ptr, allocated at row site, where its home slot was taken or some
 * other object of that home is away from it (sa_account_alloc). If ptr is
 * tracked still, it was freed by a path with no free event: it is counted
 * as lost at its old row, and tracked under the new one. If the bucket is
 * full, it is not tracked, and leaves the live set at once.
 */
void sa_obj_insert_slow(const void *ptr, unsigned long site, size_t alloc,
			size_t req)
{
	unsigned long key = (unsigned long)ptr, home, first, i, w;
	u64 empty;
	u8 tag = sa_obj_tag(key);

	this_cpu_inc(sa_pcpu.slow_objects);
	home = sa_obj_home(key);
	i = sa_obj_find(home, key, tag);
	if (i != -1UL) {
		struct sa_obj *o = &sa_hot.map.objs[i];

		this_cpu_inc(sa_pcpu.lost_frees);
		sa_lost(o->site);
		o->site = site;
		o->bytes_alloc = alloc;
		o->bytes_req = req;
		return;
	}
	if (!cmpxchg(&sa_hot.map.objs[home].key, 0UL, key)) {
		sa_obj_publish(&sa_hot.map.objs[home], home, SA_TAG_HOME, site,
			       alloc, req);
		return;
	}
	/* raised first, ordered before the key */
	sa_away_add(home, 1);
	first = round_down(home, SA_BUCKET);
	for (w = first; w < first + SA_BUCKET; w += SA_TAG_WORD) {
		empty = sa_tag_empty(sa_tags(w));
		for (; empty; empty &= empty - 1) {
			i = sa_tag_slot(w, empty);
			if (i == home || cmpxchg(&sa_hot.map.objs[i].key, 0UL, key))
				continue;
			sa_obj_publish(&sa_hot.map.objs[i], i, tag, site, alloc,
				       req);
			return;
		}
	}
	sa_away_add(home, -1);
	this_cpu_inc(sa_pcpu.map_full);
	sa_lost(site);
}

/* A free whose object is not in its home slot (sa_account_free) */
void sa_account_free_slow(const void *ptr)
{
	unsigned long key = (unsigned long)ptr, home, i;
	u8 tag = sa_obj_tag(key);

	this_cpu_inc(sa_pcpu.slow_frees);
	home = sa_obj_home(key);
	i = sa_obj_find(home, key, tag);
	if (i == -1UL) {
		this_cpu_inc(sa_pcpu.untracked_frees);
		return;
	}
	sa_obj_release(sa_hot.map.objs, i);
	/* lowered last: the object has left */
	if (i != home)
		sa_away_add(home, -1);
}

/*
 * Move a tracked ptr from one row to another; false unless it is tracked
 * under row from, with these sizes.
 */
bool sa_obj_move(const void *ptr, u32 from, u32 to, size_t alloc,
		 size_t req)
{
	unsigned long key = (unsigned long)ptr, home, i;
	struct sa_obj *o;
	u8 tag = sa_obj_tag(key);

	home = sa_obj_home(key);
	i = sa_obj_find(home, key, tag);
	if (i == -1UL)
		return false;
	o = &sa_hot.map.objs[i];
	if (o->site != from || o->bytes_alloc != (u32)alloc ||
	    o->bytes_req != (u32)req)
		return false;
	o->site = to;
	return true;
}

/*
 * Count the objects tracked in the map by row into live[sa_table_rows()].
 * Process context: it reads every bucket, and yields now and then.
 */
void sa_live_count(struct sa_live *live)
{
	unsigned long slot, slots = sa_table_objects();
	unsigned int rows = sa_table_rows();

	memset(live, 0, array_size(sizeof(*live), rows));
	for (slot = 0; slot < slots; slot += SA_TAG_WORD) {
		u64 used = sa_tags(slot) & SA_BYTES_HIGH;

		/* tagged, so filled: pairs with the smp_wmb() in sa_obj_publish */
		smp_rmb();
		for (; used; used &= used - 1) {
			const struct sa_obj *o;
			u32 site;

			o = &sa_hot.map.objs[sa_tag_slot(slot, used)];
			site = READ_ONCE(o->site);
			/* a row torn by a reset clearing the map meanwhile */
			if (site >= rows)
				continue;
			live[site].objs++;
			live[site].bytes += READ_ONCE(o->bytes_alloc);
			live[site].req += READ_ONCE(o->bytes_req);
		}
		if (slot % 32768 == 0)
			cond_resched();
	}
	/* the map before the rows: an object seen was counted at its row */
	smp_rmb();
}

unsigned int sa_table_objects(void)
{
	return SA_BUCKET << sa_bucket_bits;
}

/* Only while the probes are paused and quiescent (sa_reset). */
void sa_map_clear(void)
{
	unsigned int slots = sa_table_objects();

	memset(sa_hot.map.tags, 0, slots);
	memset(sa_hot.map.objs, 0, array_size(sizeof(*sa_hot.map.objs), slots));
	memset(sa_hot.map.away, 0, slots);
}

int sa_map_init(unsigned int objects)
{
	unsigned int slots;

	/* the map keeps sizes in 32 bits */
	BUILD_BUG_ON(KMALLOC_MAX_SIZE > U32_MAX);
	sa_bucket_bits = ilog2(roundup_pow_of_two(max(objects, 64U) /
						  SA_BUCKET));
	sa_hot.slot_shift = BITS_PER_LONG - ilog2(SA_BUCKET) - sa_bucket_bits;
	sa_hot.slot_mask = (SA_BUCKET << sa_bucket_bits) - 1;
	slots = sa_table_objects();
	/* vmalloc'ed: aligned, so a bucket's tags make an aligned word */
	sa_hot.map.tags = vzalloc(slots);
	sa_hot.map.objs = vzalloc(array_size(sizeof(*sa_hot.map.objs), slots));
	sa_hot.map.away = vzalloc(slots);
	if (!sa_hot.map.tags || !sa_hot.map.objs || !sa_hot.map.away) {
		sa_map_exit();
		return -ENOMEM;
	}
	return 0;
}

void sa_map_exit(void)
{
	vfree(sa_hot.map.away);
	vfree(sa_hot.map.objs);
	vfree(sa_hot.map.tags);
	memset(&sa_hot.map, 0, sizeof(sa_hot.map));
}
