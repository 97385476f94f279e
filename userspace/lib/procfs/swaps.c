// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/swaps.
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/swaps.h"

static void area_clear(gpointer p)
{
	struct sa_swap_area *a = p;

	g_free(a->name);
	g_free(a->type);
}

GArray *sa_swaps_parse(const char *text, GError **err)
{
	GArray *areas;
	char **lines = g_strsplit(text ? text : "", "\n", -1);
	int ln;

	if (!lines[0] || !g_str_has_prefix(lines[0], "Filename")) {
		sa_parse_error(err, "swaps: no Filename header");
		g_strfreev(lines);
		return NULL;
	}
	areas = g_array_new(FALSE, TRUE, sizeof(struct sa_swap_area));
	g_array_set_clear_func(areas, area_clear);
	for (ln = 1; lines[ln]; ln++) {
		struct sa_swap_area a = { 0 };
		guint64 prio;
		char **f;
		int n;
		bool neg;

		if (!lines[ln][0])
			continue;
		f = sa_fields(lines[ln], &n);
		neg = n == 5 && f[4][0] == '-';
		if (n != 5 || !sa_parse_u64(f[2], &a.size_kb) ||
		    !sa_parse_u64(f[3], &a.used_kb) ||
		    !sa_parse_u64(f[4] + neg, &prio)) {
			sa_parse_error(err, "swaps: line %d is malformed",
				       ln + 1);
			g_strfreev(f);
			g_strfreev(lines);
			g_array_unref(areas);
			return NULL;
		}
		/* the kernel escapes blanks in the name as \040 */
		a.name = g_strcompress(f[0]);
		a.type = g_strdup(f[1]);
		a.prio = neg ? -(int)prio : (int)prio;
		g_array_append_val(areas, a);
		g_strfreev(f);
	}
	g_strfreev(lines);
	return areas;
}
