// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/zoneinfo: the per-zone free pages and watermarks.
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/zoneinfo.h"

GArray *sa_zoneinfo_parse(const char *text, GError **err)
{
	GArray *zones = g_array_new(FALSE, TRUE, sizeof(struct sa_zone_info));
	char **lines = g_strsplit(text ? text : "", "\n", -1);
	struct sa_zone_info *z = NULL;
	int pz = -1;		/* the zone whose pagesets follow */
	int ln;

	for (ln = 0; lines[ln]; ln++) {
		struct sa_zone_info nz = { 0 };
		char **f;
		int n;
		guint64 v;

		f = sa_fields(lines[ln], &n);
		if (sa_parse_node_zone(f, n, &nz.node, nz.zone,
				       sizeof(nz.zone))) {
			g_array_append_val(zones, nz);
			pz = -1;
			z = &g_array_index(zones, struct sa_zone_info,
					   zones->len - 1);
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
			pz = z ? (int)zones->len - 1 : -1;
			z = NULL;
		} else if (pz >= 0 && n == 2 && !strcmp(f[0], "count:") &&
			   sa_parse_u64(f[1], &v)) {
			g_array_index(zones, struct sa_zone_info, pz).pcp +=
				v;
		}
		g_strfreev(f);
	}
	g_strfreev(lines);
	if (!zones->len) {
		sa_parse_error(err, "zoneinfo: no zones");
		g_array_unref(zones);
		return NULL;
	}
	return zones;
}
