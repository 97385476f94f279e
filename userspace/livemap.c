// SPDX-License-Identifier: GPL-2.0
/*
 * The live-object map of livemap.h. It doubles when half full; a removal
 * moves later objects of the same run back so that lookups stop at the
 * first empty slot.
 */
#include <string.h>

#include "livemap.h"

#define MIN_SHIFT	(64 - 10)	/* 1024 slots */

void sa_livemap_init(struct sa_livemap *m)
{
	memset(m, 0, sizeof(*m));
}

void sa_livemap_clear(struct sa_livemap *m)
{
	g_free(m->slot);
	memset(m, 0, sizeof(*m));
}

void sa_livemap_grow(struct sa_livemap *m)
{
	struct sa_live_obj *old = m->slot;
	guint64 i, n = old ? m->mask + 1 : 0;

	m->shift = old ? m->shift - 1 : MIN_SHIFT;
	m->mask = (1ULL << (64 - m->shift)) - 1;
	m->limit = (m->mask + 1) / 2;
	m->slot = g_new0(struct sa_live_obj, m->mask + 1);
	for (i = 0; i < n; i++)
		if (old[i].ptr)
			*sa_livemap_slot(m, old[i].ptr) = old[i];
	g_free(old);
}

gboolean sa_livemap_take(struct sa_livemap *m, guint64 ptr,
			 struct sa_live_obj *out)
{
	struct sa_live_obj *o;
	guint64 i, j;

	if (!m->slot || !ptr)
		return FALSE;
	o = sa_livemap_slot(m, ptr);
	if (!o->ptr)
		return FALSE;
	*out = *o;
	m->len--;
	/* backward shift: pull later objects of the run into the hole */
	i = o - m->slot;
	for (j = (i + 1) & m->mask; m->slot[j].ptr; j = (j + 1) & m->mask) {
		guint64 h = sa_livemap_home(m, m->slot[j].ptr);

		/* j's object may move to i unless its home is in (i, j] */
		if (((j - h) & m->mask) >= ((j - i) & m->mask)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i].ptr = 0;
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
