// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/zoneinfo: the per-zone free pages and watermarks.
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/zoneinfo.h"

struct zoneinfo_state {
	GArray *zones;
	struct sa_zone_info *z;		/* the zone whose fields follow */
	int pz;				/* the zone whose pagesets follow */
};

static gboolean zoneinfo_line(void *data, const struct sa_line *l, char **f,
			      int n, GError **err)
{
	struct zoneinfo_state *st = data;
	struct sa_zone_info nz = { 0 }, *z = st->z;
	guint64 v;

	if (sa_parse_node_zone(f, n, &nz.node, nz.zone, sizeof(nz.zone))) {
		g_array_append_val(st->zones, nz);
		st->pz = -1;
		st->z = &g_array_index(st->zones, struct sa_zone_info,
				       st->zones->len - 1);
	} else if (z && n == 3 && !strcmp(f[0], "pages") &&
		   !strcmp(f[1], "free") && sa_parse_u64(f[2], &v)) {
		z->free = v;
	} else if (z && n == 2 && sa_parse_u64(f[1], &v)) {
		if (!strcmp(f[0], "min"))
			z->min = v;
		else if (!strcmp(f[0], "low"))
			z->low = v;
		else if (!strcmp(f[0], "high"))
			z->high = v;
		else if (!strcmp(f[0], "spanned"))
			z->spanned = v;
		else if (!strcmp(f[0], "present"))
			z->present = v;
		else if (!strcmp(f[0], "managed"))
			z->managed = v;
	} else if (n && !strcmp(f[0], "pagesets")) {
		/* per-CPU "count:", "high:" lines follow */
		st->pz = z ? (int)st->zones->len - 1 : -1;
		st->z = NULL;
	} else if (st->pz >= 0 && n == 2 && !strcmp(f[0], "count:") &&
		   sa_parse_u64(f[1], &v)) {
		g_array_index(st->zones, struct sa_zone_info, st->pz).pcp +=
			v;
	}
	return TRUE;
}

GArray *sa_zoneinfo_parse(const char *text, GError **err)
{
	struct zoneinfo_state st = {
		g_array_new(FALSE, TRUE, sizeof(struct sa_zone_info)),
		NULL, -1,
	};

	sa_procfile_fields(text, zoneinfo_line, &st, NULL);
	if (!st.zones->len) {
		sa_parse_error(err, "zoneinfo: no zones");
		g_array_unref(st.zones);
		return NULL;
	}
	return st.zones;
}
