// SPDX-License-Identifier: GPL-2.0
/*
 * The live-object map of util/livemap.h, on util/oatable.h.
 */
#include "util/livemap.h"

#define MIN_SHIFT	(64 - 10)	/* 1024 slots */

#define SA_LIVE_CLEAR(o)	((o)->ptr = 0)
SA_OATABLE_DEFINE(sa_livemap, struct sa_live_obj, SA_LIVE_KEY, SA_LIVE_USED,
		  SA_LIVE_CLEAR, MIN_SHIFT)

gboolean sa_livemap_take(struct sa_livemap *m, guint64 ptr,
			 struct sa_live_obj *out)
{
	struct sa_live_obj *o;

	if (!m->slot || !ptr)
		return FALSE;
	o = sa_livemap_slot(m, ptr);
	if (!o->ptr)
		return FALSE;
	*out = *o;
	sa_livemap_remove(m, o);
	return TRUE;
}

void sa_livemap_foreach(const struct sa_livemap *m,
			void (*fn)(const struct sa_live_obj *o, void *data),
			void *data)
{
	guint64 i;

	for (i = 0; m->slot && i <= m->mask; i++)
		if (m->slot[i].ptr)
			fn(&m->slot[i], data);
}
