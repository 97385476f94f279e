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

struct swaps_state {
	GArray *areas;
	guint64 lines;
};

/* Line 1 is the Filename header; each other line that is not empty, an area. */
static gboolean swaps_line(void *data, const struct sa_line *l, char **f,
			   int n, GError **err)
{
	struct swaps_state *st = data;
	struct sa_swap_area a = { 0 };
	guint64 prio;
	bool neg;

	st->lines = l->no;
	if (l->no == 1) {
		if (l->len < 8 || memcmp(l->s, "Filename", 8)) {
			sa_parse_error(err, "swaps: no Filename header");
			return FALSE;
		}
		return TRUE;
	}
	if (!l->len)
		return TRUE;
	neg = n == 5 && f[4][0] == '-';
	if (n != 5 || !sa_parse_u64(f[2], &a.size_kb) ||
	    !sa_parse_u64(f[3], &a.used_kb) ||
	    !sa_parse_u64(f[4] + neg, &prio)) {
		sa_parse_error(err, "swaps: line %d is malformed", (int)l->no);
		return FALSE;
	}
	/* the kernel escapes blanks in the name as \040 */
	a.name = g_strcompress(f[0]);
	a.type = g_strdup(f[1]);
	a.prio = neg ? -(int)prio : (int)prio;
	g_array_append_val(st->areas, a);
	return TRUE;
}

GArray *sa_swaps_parse(const char *text, GError **err)
{
	struct swaps_state st = { 0 };

	st.areas = g_array_new(FALSE, TRUE, sizeof(struct sa_swap_area));
	g_array_set_clear_func(st.areas, area_clear);
	if (!sa_procfile_fields(text, swaps_line, &st, err)) {
		g_array_unref(st.areas);
		return NULL;
	}
	if (!st.lines) {
		sa_parse_error(err, "swaps: no Filename header");
		g_array_unref(st.areas);
		return NULL;
	}
	return st.areas;
}
