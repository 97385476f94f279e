/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/zoneinfo: free pages against the watermarks, per zone.
 */
#ifndef SLABACCT_ZONEINFO_H
#define SLABACCT_ZONEINFO_H

#include <glib.h>

struct sa_zone_info {
	int node;
	char zone[16];
	guint64 free;		/* pages free */
	guint64 min, low, high;	/* watermarks, pages */
	guint64 spanned, present, managed;
	guint64 pcp;		/* pages in the per-CPU lists ("count:" of
				 * each CPU's pageset): not in "pages free" */
};

/* An array of struct sa_zone_info; NULL with *err if there is none. */
GArray *sa_zoneinfo_parse(const char *text, GError **err);

#endif /* SLABACCT_ZONEINFO_H */
