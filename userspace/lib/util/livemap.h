/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map of live objects: pointer -> allocation, the objects kept in the
 * slots themselves (an open-addressing table, util/oatable.h). A pointer of 0
 * marks an empty slot: a failed allocation is never live. One probe run
 * per allocation and per free, and no second array to reach the object:
 * this is the report's hottest table.
 */
#ifndef SLABACCT_LIVEMAP_H
#define SLABACCT_LIVEMAP_H

#include <glib.h>

#include "util/oatable.h"

struct sa_live_obj {
	guint64 ptr;			/* 0: an empty slot */
	guint64 ts;
	guint32 site;			/* index in the call-site rows */
	guint32 bytes_req, bytes_alloc;
	gint32 pid;
	guint16 cpu;
};

#define SA_LIVE_KEY(o)	((o)->ptr)
#define SA_LIVE_USED(o)	((o)->ptr != 0)
SA_OATABLE_DECLARE(sa_livemap, struct sa_live_obj, SA_LIVE_KEY, SA_LIVE_USED);

/*
 * The slot for ptr (not 0): its object if it is live (o->ptr == ptr),
 * else an empty slot that the caller must fill, ptr included. Good until
 * the next put or take.
 */
static inline struct sa_live_obj *sa_livemap_put(struct sa_livemap *m,
						 guint64 ptr)
{
	struct sa_live_obj *o;

	if (G_UNLIKELY(m->len >= m->limit))
		sa_livemap_grow(m);
	o = sa_livemap_slot(m, ptr);
	if (!o->ptr)
		m->len++;
	return o;
}

/* Remove ptr (not 0), its object in *out; FALSE if it is not live. */
gboolean sa_livemap_take(struct sa_livemap *m, guint64 ptr,
			 struct sa_live_obj *out);

/* Every live object, in no particular order. */
void sa_livemap_foreach(const struct sa_livemap *m,
			void (*fn)(const struct sa_live_obj *o, void *data),
			void *data);

#endif /* SLABACCT_LIVEMAP_H */
