/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash table from a 64-bit integer key to a 32-bit
 * value: linear probing, Fibonacci hashing, deletion by backward shift (no
 * tombstones). It is the report's hot path (pointer -> live object, call
 * site -> row), where GHashTable's generic hashing, callbacks and separate
 * hash array cost more than the work itself. Any key, 0 included.
 */
#ifndef SLABACCT_INTTABLE_H
#define SLABACCT_INTTABLE_H

#include <stdbool.h>
#include <glib.h>

struct sa_int_slot {
	guint64 key;
	guint32 val;
	guint32 used;
};

struct sa_inttable {
	struct sa_int_slot *slot;	/* [mask + 1] */
	guint64 mask;
	guint64 len;
	guint64 limit;			/* grows past this many entries */
	int shift;			/* 64 - log2(mask + 1) */
};

void sa_inttable_init(struct sa_inttable *t);
void sa_inttable_clear(struct sa_inttable *t);	/* frees; init again to reuse */

static inline guint64 sa_inttable_len(const struct sa_inttable *t)
{
	return t->len;
}

/* The value of key in *val; false if it is not there. */
bool sa_inttable_lookup(const struct sa_inttable *t, guint64 key,
			guint32 *val);

/* A key's home slot: the top bits of key * 2^64/phi. */
static inline guint64 sa_inttable_home(const struct sa_inttable *t,
				       guint64 key)
{
	return (key * 0x9e3779b97f4a7c15ULL) >> t->shift;
}

/* The table's slot for key, or the empty slot where it would go. */
static inline struct sa_int_slot *sa_inttable_slot(const struct sa_inttable *t,
						   guint64 key)
{
	guint64 i = sa_inttable_home(t, key);

	for (;; i = (i + 1) & t->mask) {
		struct sa_int_slot *s = &t->slot[i];

		if (!s->used || s->key == key)
			return s;
	}
}

void sa_inttable_grow(struct sa_inttable *t);

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
