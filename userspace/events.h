/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace events slabacct knows, grouped the way `-e GROUPS` names them.
 * Whether an event exists is asked of tracefs at run time; no kernel
 * version is ever assumed.
 */
#ifndef SLABACCT_EVENTS_H
#define SLABACCT_EVENTS_H

#include <stdbool.h>
#include <glib.h>

enum sa_group {
	SA_GROUP_KMEM = 1 << 0,		/* slab: kmalloc, kfree, kmem_cache_* */
	SA_GROUP_PAGE = 1 << 1,		/* page allocator */
	SA_GROUP_VMSCAN = 1 << 2,
	SA_GROUP_COMPACTION = 1 << 3,
	SA_GROUP_OOM = 1 << 4,
	SA_GROUP_ALL = (1 << 5) - 1,
};

struct sa_event_desc {
	const char *system;		/* tracefs system: kmem, vmscan, ... */
	const char *name;		/* event name */
	enum sa_group group;
	const char *alt;		/* an event of the same kind, of the same
					 * system: where it exists, this one's
					 * absence is normal (kmalloc_node went
					 * into kmalloc); NULL: none */
};

/* The whole table, terminated by an entry with a NULL name. */
const struct sa_event_desc *sa_event_table(void);

/*
 * Parse a comma list of group names ("kmem,vmscan", "all") into a mask.
 * Returns 0 and sets *mask, or -1 with errno = EINVAL and *bad pointing
 * at a newly allocated copy of the first unknown name (free with g_free).
 */
int sa_groups_parse(const char *list, unsigned int *mask, char **bad);

/* "kmem,page" for a mask; the caller frees the string with g_free. */
char *sa_groups_format(unsigned int mask);

#endif /* SLABACCT_EVENTS_H */
