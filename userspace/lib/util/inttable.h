/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash table (util/oatable.h) from a 64-bit integer key to
 * a 32-bit value, for the report's hot path (call site -> row), where
 * GHashTable's generic hashing, callbacks and separate hash array cost
 * more than the work itself. Any key, 0 included.
 */
#ifndef SLABACCT_INTTABLE_H
#define SLABACCT_INTTABLE_H

#include <stdbool.h>
#include <glib.h>

#include "util/oatable.h"

struct sa_int_slot {
	guint64 key;
	guint32 val;
	guint32 used;
};

#define SA_INT_KEY(s)	((s)->key)
#define SA_INT_USED(s)	((s)->used)
SA_OATABLE_DECLARE(sa_inttable, struct sa_int_slot, SA_INT_KEY, SA_INT_USED);

static inline guint64 sa_inttable_len(const struct sa_inttable *t)
{
	return t->len;
}

/* The value of key in *val; false if it is not there. */
bool sa_inttable_lookup(const struct sa_inttable *t, guint64 key,
			guint32 *val);

/*
 * The value of key, added (with value 0) if it was not there; *found says
 * which. The pointer is good until the next insertion or removal. Inline:
 * it is called for every event.
 */
static inline guint32 *sa_inttable_put(struct sa_inttable *t, guint64 key,
				       bool *found)
{
	struct sa_int_slot *s;

	if (G_UNLIKELY(t->len >= t->limit))
		sa_inttable_grow(t);
	s = sa_inttable_slot(t, key);
	*found = s->used;
	if (!s->used) {
		s->key = key;
		s->val = 0;
		s->used = 1;
		t->len++;
	}
	return &s->val;
}

/* Remove key, its value in *val (may be NULL); false if it was not there. */
bool sa_inttable_take(struct sa_inttable *t, guint64 key, guint32 *val);

#endif /* SLABACCT_INTTABLE_H */
