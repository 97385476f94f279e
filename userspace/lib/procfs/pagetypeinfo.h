/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/pagetypeinfo (root only): free pages and pageblocks per
 * migratetype in each zone.
 */
#ifndef SLABACCT_PAGETYPEINFO_H
#define SLABACCT_PAGETYPEINFO_H

#include <glib.h>

#define SA_PT_MAX_TYPES 8

struct sa_pagetype_zone {
	int node;
	char zone[16];
	guint64 free_pages[SA_PT_MAX_TYPES];	/* sum of n_i * 2^i */
	guint64 blocks[SA_PT_MAX_TYPES];	/* pageblocks */
};

struct sa_pagetypeinfo {
	int pageblock_order;
	int nr_types;
	char *types[SA_PT_MAX_TYPES];		/* "Unmovable", ... */
	GArray *zones;				/* struct sa_pagetype_zone */
};

struct sa_pagetypeinfo *sa_pagetypeinfo_parse(const char *text,
					      GError **err);
void sa_pagetypeinfo_free(struct sa_pagetypeinfo *p);

#endif /* SLABACCT_PAGETYPEINFO_H */
