/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/swaps: the swap areas, as swapon --show prints them.
 */
#ifndef SLABACCT_SWAPS_H
#define SLABACCT_SWAPS_H

#include <glib.h>

struct sa_swap_area {
	char *name;
	char *type;		/* "partition", "file" */
	guint64 size_kb, used_kb;
	int prio;
};

/* An array of struct sa_swap_area, possibly empty (no swap); NULL with
 * *err if the header is missing or a line is malformed. */
GArray *sa_swaps_parse(const char *text, GError **err);

#endif /* SLABACCT_SWAPS_H */
