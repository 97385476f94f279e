// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/pagetypeinfo: free pages and pageblocks per migratetype.
 */
#include <string.h>

#include "procfs/buddyinfo.h"
#include "procfs/pagetypeinfo.h"
#include "procfs/parse.h"

static int type_index(struct sa_pagetypeinfo *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_types; i++)
		if (!strcmp(p->types[i], name))
			return i;
	if (p->nr_types == SA_PT_MAX_TYPES)
		return -1;
	p->types[p->nr_types] = g_strdup(name);
	return p->nr_types++;
}

static struct sa_pagetype_zone *zone_get(struct sa_pagetypeinfo *p, int node,
					 const char *zone)
{
	struct sa_pagetype_zone z = { .node = node };
	guint i;

	for (i = 0; i < p->zones->len; i++) {
		struct sa_pagetype_zone *e = &g_array_index(p->zones,
				struct sa_pagetype_zone, i);

		if (e->node == node && !strcmp(e->zone, zone))
			return e;
	}
	g_strlcpy(z.zone, zone, sizeof(z.zone));
	g_array_append_val(p->zones, z);
	return &g_array_index(p->zones, struct sa_pagetype_zone,
			      p->zones->len - 1);
}

void sa_pagetypeinfo_free(struct sa_pagetypeinfo *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nr_types; i++)
		g_free(p->types[i]);
	g_array_unref(p->zones);
	g_free(p);
}

struct pagetype_state {
	struct sa_pagetypeinfo *p;
	int blocks_cols[SA_PT_MAX_TYPES], nr_cols;
};

static gboolean pagetype_line(void *data, const struct sa_line *l, char **f,
			      int n, GError **err)
{
	struct pagetype_state *st = data;
	struct sa_pagetypeinfo *p = st->p;
	char zone[16];
	int node, i, t;
	guint64 v;

	if (n == 4 && !strcmp(f[0], "Page") && !strcmp(f[2], "order:") &&
	    sa_parse_u64(f[3], &v)) {
		p->pageblock_order = v;
	} else if (n > 3 && !strcmp(f[0], "Number") && !strcmp(f[3], "type")) {
		for (st->nr_cols = 0; st->nr_cols + 4 < n &&
		     st->nr_cols < SA_PT_MAX_TYPES; st->nr_cols++)
			st->blocks_cols[st->nr_cols] =
				type_index(p, f[4 + st->nr_cols]);
	} else if (n > 5 && sa_parse_node_zone(f, n, &node, zone,
						sizeof(zone))) {
		struct sa_pagetype_zone *z = zone_get(p, node, zone);

		if (!strcmp(f[4], "type") && n > 6) {
			/* as buddyinfo: shifts past 63 are undefined */
			if (n - 6 > SA_BUDDY_MAX_ORDERS) {
				sa_parse_error(err, "pagetypeinfo: line %d has "
					       "more than %d orders",
					       (int)l->no,
					       SA_BUDDY_MAX_ORDERS);
				return FALSE;
			}
			t = type_index(p, f[5]);
			for (i = 6; i < n && t >= 0; i++)
				if (sa_parse_u64(f[i], &v))
					z->free_pages[t] += v << (i - 6);
		} else if (st->nr_cols > 0) {
			for (i = 0; i < st->nr_cols && 4 + i < n; i++)
				if (st->blocks_cols[i] >= 0 &&
				    sa_parse_u64(f[4 + i], &v))
					z->blocks[st->blocks_cols[i]] = v;
		}
	}
	return TRUE;
}

struct sa_pagetypeinfo *sa_pagetypeinfo_parse(const char *text,
					      GError **err)
{
	struct pagetype_state st = { .nr_cols = -1 };
	struct sa_pagetypeinfo *p = g_new0(struct sa_pagetypeinfo, 1);

	p->zones = g_array_new(FALSE, TRUE, sizeof(struct sa_pagetype_zone));
	p->pageblock_order = -1;
	st.p = p;
	if (!sa_procfile_fields(text, pagetype_line, &st, err)) {
		sa_pagetypeinfo_free(p);
		return NULL;
	}
	if (!p->zones->len || p->pageblock_order < 0) {
		sa_parse_error(err, "pagetypeinfo: no zones or no page block "
			       "order");
		sa_pagetypeinfo_free(p);
		return NULL;
	}
	return p;
}
