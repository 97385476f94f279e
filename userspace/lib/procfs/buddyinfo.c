// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/buddyinfo and the unusable free space index.
 */
#include <string.h>

#include "procfs/buddyinfo.h"
#include "procfs/parse.h"

/* "Node 0, zone   Normal   2073 542 ..."; an empty line is skipped. */
static gboolean buddy_line(void *data, const struct sa_line *l, char **f,
			   int n, GError **err)
{
	GArray *zones = data;
	struct sa_buddy_zone z = { 0 };
	int i;

	if (!l->len)
		return TRUE;
	if (n < 5 || n - 4 > SA_BUDDY_MAX_ORDERS ||
	    !sa_parse_node_zone(f, n, &z.node, z.zone, sizeof(z.zone)))
		goto bad;
	z.nr_orders = n - 4;
	for (i = 0; i < z.nr_orders; i++)
		if (!sa_parse_u64(f[4 + i], &z.nr_free[i]))
			goto bad;
	g_array_append_val(zones, z);
	return TRUE;
bad:
	sa_parse_error(err, "buddyinfo: line %d is malformed", (int)l->no);
	return FALSE;
}

GArray *sa_buddyinfo_parse(const char *text, GError **err)
{
	GArray *zones = g_array_new(FALSE, TRUE, sizeof(struct sa_buddy_zone));

	if (!sa_procfile_fields(text, buddy_line, zones, err)) {
		g_array_unref(zones);
		return NULL;
	}
	if (!zones->len) {
		sa_parse_error(err, "buddyinfo: no zones");
		g_array_unref(zones);
		return NULL;
	}
	return zones;
}

guint64 sa_buddy_free_pages_from(const struct sa_buddy_zone *z, int order)
{
	guint64 pages = 0;
	int i;

	for (i = order < 0 ? 0 : order; i < z->nr_orders; i++)
		pages += z->nr_free[i] << i;
	return pages;
}

guint64 sa_buddy_free_pages(const struct sa_buddy_zone *z)
{
	return sa_buddy_free_pages_from(z, 0);
}

double sa_buddy_unusable(const struct sa_buddy_zone *z, int order)
{
	guint64 free = sa_buddy_free_pages(z);

	if (!free)
		return 1;
	return (double)(free - sa_buddy_free_pages_from(z, order)) / free;
}

unsigned int sa_buddy_unusable_milli(const struct sa_buddy_zone *z,
				     int order)
{
	guint64 free = sa_buddy_free_pages(z);

	if (!free)
		return 1000;
	return (free - sa_buddy_free_pages_from(z, order)) * 1000 / free;
}
