// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the live-object map (struct sa_bucket in table.h), what
 * its probes' path leaves out of line: objects that cannot have their
 * home slot, addresses tracked still (freed with no free event), frees
 * not found at home.
 *
 * An allocation's probe runs before the caller sees the pointer and a
 * free's probe runs before the memory is released, so the events of one
 * address never race with each other; those of other addresses in the
 * same bucket do, and the slot protocol (table.h) keeps them apart
 * without a lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "table.h"

#define SA_BYTES_LOW	0x0101010101010101ULL
#define SA_BYTES_HIGH	0x8080808080808080ULL

struct sa_bucket *sa_map;
unsigned int sa_slot_shift;
static unsigned int sa_bucket_bits;

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

/* The lowest slot of a mask of sa_tag_match() or sa_tag_empty() */
static unsigned int sa_tag_slot(u64 mask)
{
	unsigned int byte = __ffs64(mask) / 8;

	return IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? SA_BUCKET - 1 - byte : byte;
}

/* The slot of bk tracking key, or SA_BUCKET */
static unsigned int sa_obj_find(struct sa_bucket *bk, unsigned long key,
				u8 tag)
{
	u64 match = sa_tag_match(READ_ONCE(bk->tags.word), tag);

	for (; match; match &= match - 1) {
		unsigned int i = sa_tag_slot(match);

		if (READ_ONCE(bk->keys[i]) == key)
			return i;
	}
	return SA_BUCKET;
}

/*
 * Track ptr, allocated at row site, where its home slot was taken or some
 * object of its bucket is away from home (sa_account_alloc). If ptr is
 * tracked still, it was freed by a path with no free event: it is counted
 * as lost at its old row, and tracked under the new one. If the bucket is
 * full, it is not tracked, and leaves the live set at once.
 */
void sa_obj_insert_slow(const void *ptr, u32 site, size_t alloc, size_t req)
{
	unsigned long key = (unsigned long)ptr;
	struct sa_bucket *bk;
	unsigned int home, i;
	u64 empty;
	u8 tag;

	bk = sa_obj_home(key, &home, &tag);
	i = sa_obj_find(bk, key, tag);
	if (i < SA_BUCKET) {
		this_cpu_inc(sa_pcpu.lost_frees);
		sa_lost(bk->objs[i].site);
		sa_obj_fill(&bk->objs[i], site, alloc, req);
		return;
	}
	if (!cmpxchg(&bk->keys[home], 0UL, key)) {
		sa_obj_publish(bk, home, tag, site, alloc, req);
		return;
	}
	/* raised first: the cmpxchg below orders it before the key */
	atomic_inc(&bk->displaced);
	empty = sa_tag_empty(READ_ONCE(bk->tags.word));
	for (; empty; empty &= empty - 1) {
		i = sa_tag_slot(empty);
		if (i == home || cmpxchg(&bk->keys[i], 0UL, key))
			continue;
		sa_obj_publish(bk, i, tag, site, alloc, req);
		return;
	}
	atomic_dec(&bk->displaced);
	this_cpu_inc(sa_pcpu.map_full);
	sa_lost(site);
}

/* A free whose object is not in its home slot (sa_account_free) */
void sa_account_free_slow(const void *ptr)
{
	unsigned long key = (unsigned long)ptr;
	struct sa_bucket *bk;
	unsigned int home, i;
	u8 tag;

	bk = sa_obj_home(key, &home, &tag);
	i = sa_obj_find(bk, key, tag);
	if (i == SA_BUCKET) {
		this_cpu_inc(sa_pcpu.untracked_frees);
		return;
	}
	sa_obj_release(bk, i);
	/* lowered last: the object has left */
	if (i != home)
		atomic_dec(&bk->displaced);
}

/*
 * Move a tracked ptr from one row to another; false unless it is tracked
 * under row from, with these sizes.
 */
bool sa_obj_move(const void *ptr, u32 from, u32 to, size_t alloc,
		 size_t req)
{
	unsigned long key = (unsigned long)ptr;
	struct sa_bucket *bk;
	unsigned int home, i;
	struct sa_obj *o;
	u8 tag;

	bk = sa_obj_home(key, &home, &tag);
	i = sa_obj_find(bk, key, tag);
	if (i == SA_BUCKET)
		return false;
	o = &bk->objs[i];
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
	unsigned int b, rows = sa_table_rows();

	memset(live, 0, array_size(sizeof(*live), rows));
	for (b = 0; b < 1U << sa_bucket_bits; b++) {
		struct sa_bucket *bk = &sa_map[b];
		u64 used = READ_ONCE(bk->tags.word) & SA_BYTES_HIGH;

		/* tagged, so filled: pairs with the smp_wmb() in sa_obj_publish */
		smp_rmb();
		for (; used; used &= used - 1) {
			const struct sa_obj *o = &bk->objs[sa_tag_slot(used)];
			u32 site = READ_ONCE(o->site);

			/* a row torn by a reset clearing the map meanwhile */
			if (site >= rows)
				continue;
			live[site].objs++;
			live[site].bytes += READ_ONCE(o->bytes_alloc);
			live[site].req += READ_ONCE(o->bytes_req);
		}
		if (b % 4096 == 4095)
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
	memset(sa_map, 0, sizeof(*sa_map) << sa_bucket_bits);
}

int sa_map_init(unsigned int objects)
{
	/* the map keeps sizes in 32 bits */
	BUILD_BUG_ON(KMALLOC_MAX_SIZE > U32_MAX);
	sa_bucket_bits = ilog2(roundup_pow_of_two(max(objects, 64U) /
						  SA_BUCKET));
	sa_slot_shift = BITS_PER_LONG - ilog2(SA_BUCKET) - sa_bucket_bits;
	sa_map = vzalloc(array_size(sizeof(*sa_map), 1U << sa_bucket_bits));
	return sa_map ? 0 : -ENOMEM;
}

void sa_map_exit(void)
{
	vfree(sa_map);
	sa_map = NULL;
}
