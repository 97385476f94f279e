/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab caches from /proc/slabinfo (version 2.1) or /sys/kernel/slab, with
 * the figures of the kernel's tools/mm/slabinfo and of slabtop(1):
 *
 *   Space (size) = slabs * (PAGE_SIZE << order)
 *   Used         = objects * object_size
 *   Loss         = Space - Used
 *   Efficiency % = Used * 100 / Space  (integer, as slabinfo; 100 when
 *                  the cache has no slabs)
 *
 * objects are the objects in use. From /sys/kernel/slab object_size is
 * the size the cache was created with, so Loss includes the per-object
 * padding and metadata, exactly as tools/mm/slabinfo. /proc/slabinfo
 * gives only the slot size (s->size), so there Loss is the free slots and
 * the slab tail only.
 */
#ifndef SLABACCT_SLABINFO_H
#define SLABACCT_SLABINFO_H

#include <stdbool.h>
#include <glib.h>

enum sa_slab_origin {
	SA_SLAB_PROC,		/* /proc/slabinfo */
	SA_SLAB_SYSFS,		/* /sys/kernel/slab */
};

struct sa_slab_cache {
	char *name;
	guint64 active_objs;	/* objects in use */
	guint64 num_objs;	/* object slots in all slabs */
	guint64 object_size;	/* bytes (proc: the slot size) */
	guint64 slot_size;	/* bytes per object slot */
	guint64 objs_per_slab;
	guint64 pages_per_slab;
	guint64 slabs;		/* proc: num_slabs; sysfs: slabs */
	guint64 active_slabs;	/* proc only (= slabs for SLUB) */
	/* computed */
	guint64 size;		/* Space */
	guint64 used;
	guint64 loss;
	unsigned int eff;	/* % */
};

/* slabtop's header, from /proc/slabinfo */
struct sa_slab_totals {
	guint64 active_objs, num_objs;
	guint64 active_slabs, num_slabs;
	unsigned int active_caches, nr_caches;	/* active: num_objs > 0 */
	guint64 active_size;	/* sum of active_objs * object_size */
	guint64 total_size;	/* sum of num_objs * object_size */
	guint64 min_objsize, max_objsize, avg_objsize; /* avg: total_size /
							* num_objs */
	/* tools/mm/slabinfo's totals */
	guint64 space;		/* sum of Space */
	guint64 used;		/* sum of Used */
	guint64 loss;		/* sum of Loss */
};

struct sa_slab_table {
	enum sa_slab_origin origin;
	long page_size;
	GPtrArray *caches;	/* struct sa_slab_cache * */
	struct sa_slab_totals tot;
};

/* NULL with *err if the text is not slabinfo 2.x. */
struct sa_slab_table *sa_slab_parse_proc(const char *text, long page_size,
					 GError **err);
/* The table sa_slab_sysfs_capture wrote. */
struct sa_slab_table *sa_slab_parse_sysfs(const char *text, long page_size,
					  GError **err);
void sa_slab_table_free(struct sa_slab_table *t);

/*
 * Read root/sys/kernel/slab into a table, one line per cache:
 *   name object_size slab_size order objects total_objects slabs
 *   objs_per_slab
 * (tables recorded before had a ninth column, aliases; the parser takes
 * both). With root/proc/slabinfo readable, the counters come from it and
 * only object_size from sysfs, and caches are named as slabinfo names
 * them; otherwise every attribute is read from the cache directories
 * (merged caches under their ":..." directory names; the symlinks of
 * their aliases are left out, as tools/mm/slabinfo does).
 * NULL with *err if the directory or its objects counts (which need
 * CONFIG_SLUB_DEBUG) cannot be read.
 */
char *sa_slab_sysfs_capture(const char *root, GError **err);

enum sa_slab_sort {
	SA_SLAB_BY_SIZE,
	SA_SLAB_BY_LOSS,
};

/* A new array of the caches (not copies) sorted, largest first. */
GPtrArray *sa_slab_sorted(const struct sa_slab_table *t,
			  enum sa_slab_sort key);

/* The computed figures of one cache (exposed for the tests). */
void sa_slab_cache_compute(struct sa_slab_cache *c, long page_size);

#endif /* SLABACCT_SLABINFO_H */
