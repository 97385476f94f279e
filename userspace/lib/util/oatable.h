/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Open addressing over any slot type, the one algorithm behind the
 * report's hot tables (inttable.h, livemap.h): linear probing, Fibonacci
 * hashing, kept at most half full, deletion by backward shift (no
 * tombstones), so that lookups stop at the first empty slot.
 *
 * SA_OATABLE_DECLARE(name, slot_type, KEY, USED), in a header, gives
 *   struct name { slot, mask, len, limit, shift }   (zeroed: empty)
 *   name_home(t, key)   a key's home slot: the top bits of key * 2^64/phi
 *   name_slot(t, key)   the slot holding key, or the empty slot where it
 *                       would go (the table must have slots)
 *   name_init(t)        an empty table (no slots yet)
 *   name_clear(t)       free it (init again to reuse)
 *   name_grow(t)        double the table (the first: 2^(64 - MIN_SHIFT))
 *   name_remove(t, s)   empty the used slot s
 * where KEY(s) is the 64-bit key of slot s and USED(s) tells if s holds
 * one. SA_OATABLE_DEFINE(name, slot_type, KEY, USED, CLEAR, MIN_SHIFT), in
 * one .c file, defines the last four; CLEAR(s) marks s empty.
 */
#ifndef SLABACCT_OATABLE_H
#define SLABACCT_OATABLE_H

#include <string.h>

#include <glib.h>

#define SA_OATABLE_DECLARE(name, slot_type, KEY, USED)			\
struct name {								\
	slot_type *slot;		/* [mask + 1] */		\
	guint64 mask;							\
	guint64 len;							\
	guint64 limit;			/* grows past this many */	\
	int shift;			/* 64 - log2(mask + 1) */	\
};									\
									\
static inline guint64 name##_home(const struct name *t, guint64 key)	\
{									\
	return (key * 0x9e3779b97f4a7c15ULL) >> t->shift;		\
}									\
									\
static inline slot_type *name##_slot(const struct name *t, guint64 key)\
{									\
	guint64 i = name##_home(t, key);				\
									\
	for (;; i = (i + 1) & t->mask) {				\
		slot_type *s = &t->slot[i];				\
									\
		if (!USED(s) || KEY(s) == key)				\
			return s;					\
	}								\
}									\
									\
void name##_init(struct name *t);					\
void name##_clear(struct name *t);					\
void name##_grow(struct name *t);					\
void name##_remove(struct name *t, slot_type *s)

#define SA_OATABLE_DEFINE(name, slot_type, KEY, USED, CLEAR, min_shift)\
void name##_init(struct name *t)					\
{									\
	memset(t, 0, sizeof(*t));					\
}									\
									\
void name##_clear(struct name *t)					\
{									\
	g_free(t->slot);						\
	memset(t, 0, sizeof(*t));					\
}									\
									\
void name##_grow(struct name *t)					\
{									\
	slot_type *old = t->slot;					\
	guint64 i, n = old ? t->mask + 1 : 0;				\
									\
	t->shift = old ? t->shift - 1 : (min_shift);			\
	t->mask = (1ULL << (64 - t->shift)) - 1;			\
	t->limit = (t->mask + 1) / 2;					\
	t->slot = g_new0(slot_type, t->mask + 1);			\
	for (i = 0; i < n; i++)						\
		if (USED(&old[i]))					\
			*name##_slot(t, KEY(&old[i])) = old[i];		\
	g_free(old);							\
}									\
									\
void name##_remove(struct name *t, slot_type *s)			\
{									\
	guint64 i = s - t->slot, j;					\
									\
	t->len--;							\
	/* backward shift: pull later entries of the run into the hole */\
	for (j = (i + 1) & t->mask; USED(&t->slot[j]);			\
	     j = (j + 1) & t->mask) {					\
		guint64 h = name##_home(t, KEY(&t->slot[j]));		\
									\
		/* j's entry may move to i unless its home is in (i, j] */\
		if (((j - h) & t->mask) >= ((j - i) & t->mask)) {	\
			t->slot[i] = t->slot[j];			\
			i = j;						\
		}							\
	}								\
	CLEAR(&t->slot[i]);						\
}

#endif /* SLABACCT_OATABLE_H */
