/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/buddyinfo: free blocks per order in each zone, and the unusable
 * free space index (Mel Gorman's, the one the kernel shows in
 * /sys/kernel/debug/extfrag/unusable_index). For order j:
 *
 *   free        = sum over i of n_i * 2^i            (free pages)
 *   unusable(j) = (free - sum over i >= j of n_i * 2^i) / free
 *
 * the fraction of free memory that cannot satisfy an order-j request
 * because it is in smaller blocks; 1 when the zone has nothing free (as
 * the kernel has it: no free memory is all unusable). The kernel shows it
 * truncated to 3 decimals ("%d.%03d" of index * 1000 rounded down), and
 * so does every figure slabacct shows (text, CSV, the report's JSON);
 * only the snapshot's raw JSON keeps the exact fraction.
 */
#ifndef SLABACCT_BUDDYINFO_H
#define SLABACCT_BUDDYINFO_H

#include <glib.h>

#define SA_BUDDY_MAX_ORDERS 16

struct sa_buddy_zone {
	int node;
	char zone[16];		/* "DMA32", "Normal", ... */
	int nr_orders;		/* columns in the file (11 for MAX_ORDER 10) */
	guint64 nr_free[SA_BUDDY_MAX_ORDERS];	/* free blocks per order */
};

/* An array of struct sa_buddy_zone; NULL with *err if malformed. */
GArray *sa_buddyinfo_parse(const char *text, GError **err);

/* Free pages of the zone: sum of n_i * 2^i. */
guint64 sa_buddy_free_pages(const struct sa_buddy_zone *z);
/* Free pages in blocks of order >= order. */
guint64 sa_buddy_free_pages_from(const struct sa_buddy_zone *z, int order);
/* The index, 0..1, exact. */
double sa_buddy_unusable(const struct sa_buddy_zone *z, int order);
/* The kernel's integer form: index * 1000, rounded down, as debugfs
 * prints it with %d.%03d. */
unsigned int sa_buddy_unusable_milli(const struct sa_buddy_zone *z,
				     int order);

#endif /* SLABACCT_BUDDYINFO_H */
