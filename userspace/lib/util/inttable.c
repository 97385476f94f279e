// SPDX-License-Identifier: GPL-2.0
/*
 * The integer hash table of util/inttable.h, on util/oatable.h.
 */
#include "util/inttable.h"

#define MIN_SHIFT	(64 - 4)	/* 16 slots */

#define SA_INT_CLEAR(s)	((s)->used = 0)
SA_OATABLE_DEFINE(sa_inttable, struct sa_int_slot, SA_INT_KEY, SA_INT_USED,
		  SA_INT_CLEAR, MIN_SHIFT)

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

	if (!t->slot)
		return false;
	s = sa_inttable_slot(t, key);
	if (!s->used)
		return false;
	if (val)
		*val = s->val;
	sa_inttable_remove(t, s);
	return true;
}
