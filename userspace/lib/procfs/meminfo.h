/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/meminfo, and the figures free(1), sar -r/-S/-H compute from it.
 */
#ifndef SLABACCT_MEMINFO_H
#define SLABACCT_MEMINFO_H

#include <stdbool.h>
#include <glib.h>

/* Every "Name: value [kB]" line: name -> value (kB, or a count). */
GHashTable *sa_meminfo_parse(const char *text, GError **err);
/* Whether the field exists; its value in *v. */
bool sa_meminfo_get(GHashTable *mi, const char *name, guint64 *v);

/* In kB, as free(1) of procps 4 prints them (free -k). */
struct sa_memfree {
	guint64 total;		/* MemTotal */
	guint64 used;		/* total - available (total - free if
				 * that is negative) */
	guint64 free;		/* MemFree */
	guint64 shared;		/* Shmem */
	guint64 buffers;	/* Buffers */
	guint64 cache;		/* Cached + SReclaimable */
	guint64 buff_cache;	/* buffers + cache */
	guint64 available;	/* MemAvailable (MemFree if missing) */
	bool available_estimated; /* no MemAvailable in the file */
	guint64 swap_total, swap_free, swap_used;
	guint64 swap_cached;	/* SwapCached */
	double swap_used_pct;	/* sar -S %swpused; 0 without swap */
	double swap_cached_pct;	/* sar -S %swpcad: SwapCached/used */
	/* Where the memory is, for the explanation */
	guint64 file_lru;	/* Active(file) + Inactive(file) */
	guint64 anon;		/* AnonPages */
	guint64 slab, sreclaimable, sunreclaim;
	guint64 kernel_stack, page_tables, vmalloc_used, percpu;
	guint64 committed_as, commit_limit;
	double commit_pct;	/* sar -r %commit: Committed_AS /
				 * (MemTotal + SwapTotal) */
	guint64 huge_total_kb, huge_free_kb; /* HugePages_* x Hugepagesize */
	double huge_used_pct;	/* sar -H %hugused */
};

/* -1 with *err if MemTotal or MemFree is missing. */
int sa_memfree_compute(GHashTable *mi, struct sa_memfree *f, GError **err);

#endif /* SLABACCT_MEMINFO_H */
