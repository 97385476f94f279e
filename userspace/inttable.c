// SPDX-License-Identifier: GPL-2.0
/*
 * The integer hash table of inttable.h. The table doubles when it is half
 * full. A slot's home is the top bits of key * 2^64/phi; a removal moves
 * later entries of the same run back so that lookups stop at the first
 * empty slot.
 */
#include <string.h>

#include "inttable.h"

#define MIN_SHIFT	(64 - 4)	/* 16 slots */

void sa_inttable_init(struct sa_inttable *t)
{
	memset(t, 0, sizeof(*t));
}

void sa_inttable_clear(struct sa_inttable *t)
{
	g_free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Doubles the table (the first: 16 slots); it is kept at most half full. */
void sa_inttable_grow(struct sa_inttable *t)
{
	struct sa_int_slot *old = t->slot;
	guint64 i, n = old ? t->mask + 1 : 0;

	t->shift = old ? t->shift - 1 : MIN_SHIFT;
	t->mask = (1ULL << (64 - t->shift)) - 1;
	t->limit = (t->mask + 1) / 2;
	t->slot = g_new0(struct sa_int_slot, t->mask + 1);
	for (i = 0; i < n; i++)
		if (old[i].used)
			*sa_inttable_slot(t, old[i].key) = old[i];
	g_free(old);
}

bool sa_inttable_lookup(const struct sa_inttable *t, guint64 key,
			guint32 *val)
{
	struct sa_int_slot *s;

	if (!t->slot)
		return false;
	s = sa_inttable_slot(t, key);
	if (!s->used)
		return false;
	*val = s->val;
	return true;
}

bool sa_inttable_take(struct sa_inttable *t, guint64 key, guint32 *val)
{
	struct sa_int_slot *s;
	guint64 i, j;

	if (!t->slot)
		return false;
	s = sa_inttable_slot(t, key);
	if (!s->used)
		return false;
	if (val)
		*val = s->val;
	t->len--;
	/* backward shift: pull later entries of the run into the hole */
	i = s - t->slot;
	for (j = (i + 1) & t->mask; t->slot[j].used; j = (j + 1) & t->mask) {
		guint64 h = sa_inttable_home(t, t->slot[j].key);

		/* j's entry may move to i unless its home is in (i, j] */
		if (((j - h) & t->mask) >= ((j - i) & t->mask)) {
			t->slot[i] = t->slot[j];
			i = j;
		}
	}
	t->slot[i].used = 0;
	return true;
}
