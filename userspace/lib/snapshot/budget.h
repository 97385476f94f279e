/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RAM budget: physical RAM split into its owners, each figure from a
 * named source, the owners summed to the RAM, and what no source names
 * as "unexplained" (signed: negative if two sources count a page twice).
 *
 *   RAM (iomem "System RAM", else firmware memmap, else the device
 *   tree's memory nodes, else the zones' present pages)
 *     = reserved at boot + MemTotal
 *
 *   reserved at boot = RAM - MemTotal
 *     = struct pages (present pages x sizeof(struct page) from BTF)
 *     + kernel image (dmesg "Memory:" code + rwdata + rodata + bss, and
 *       init while it was not freed; its other sections: iomem "Kernel
 *       bss" start - "Kernel data" end - init - SMP alternatives freed)
 *     + percpu first chunk (dmesg "Embedded N pages/cpu" x units)
 *     + early hash tables (dmesg, the linear HASH_EARLY ones)
 *     + crash kernel (iomem) + unexplained (the memory map of the
 *       holes in a section, early page tables, initrd kept, ...)
 *
 *   MemTotal = MemFree + per-CPU lists (zoneinfo count) + SReclaimable
 *     + SUnreclaim + (KReclaimable - SReclaimable) + Buffers
 *     + (Cached - Shmem) + Shmem + SwapCached + AnonPages + Hugetlb
 *     + PageTables + SecPageTables + VmallocUsed (kernel stacks in it
 *       when vmalloc'ed, else KernelStack apart) + (Percpu - first
 *       chunk) + trace buffers (tracefs, the CPUs online)
 *     + the other linear hash tables (dmesg) + Zswap + Unaccepted
 *     + unexplained (pages taken from the page allocator
 *       that no counter names: drivers, network buffers, pipes, kernel
 *       page tables, ...)
 *
 * All figures in kB.
 */
#ifndef SLABACCT_BUDGET_H
#define SLABACCT_BUDGET_H

#include <stdbool.h>
#include <glib.h>

enum sa_budget_source {
	SA_BSRC_MEMINFO,	/* proc/meminfo */
	SA_BSRC_ZONEINFO,	/* proc/zoneinfo */
	SA_BSRC_BUDDYINFO,	/* proc/buddyinfo */
	SA_BSRC_IOMEM,		/* proc/iomem */
	SA_BSRC_MEMMAP,		/* sys/firmware/memmap, as a table */
	SA_BSRC_KMSG,		/* dev/kmsg, its memory lines */
	SA_BSRC_TRACEBUF,	/* tracefs buffer sizes (tracebuf.h), a table */
	SA_BSRC_VMALLOCINFO,	/* proc/vmallocinfo */
	SA_BSRC_BTF,		/* sizeof(struct page), from the BTF */
	SA_BSRC_DEVICETREE,	/* its memory nodes, as memmap's table */
	SA_BSRC_MEMBLOCK,	/* debugfs memblock/reserved */
	SA_BSRC_VMCOREINFO,	/* proc/kcore's VMCOREINFO, what it uses */
	SA_BSRC_FTRACE,		/* tracefs dyn_ftrace_total_info */
	SA_BSRC_NR,
};

/* The sources' raw text, as captured (NULL: not available, and why). */
struct sa_budget_input {
	guint64 page_size;
	char *text[SA_BSRC_NR];
	char *why[SA_BSRC_NR];
};

/* "meminfo", "iomem", ... (stable: JSON keys) */
const char *sa_budget_source_name(enum sa_budget_source src);

/* Read every source under root ("/" live); a missing one is noted. */
struct sa_budget_input *sa_budget_capture(const char *root);
void sa_budget_input_free(struct sa_budget_input *in);

struct sa_budget_row {
	const char *key;	/* stable: "reserved.kernel_image.code" */
	const char *label;	/* "code" */
	char *source;		/* "dmesg Memory: kernel code" */
	int depth;		/* 0 for RAM */
	gint64 kb;		/* a group's is its children's sum */
	bool leaf;		/* an owner: the leaves sum to RAM */
	bool unexplained;	/* a leaf no source names */
};

struct sa_budget_zone {
	int node;
	char zone[16];
	guint64 free_pages;	/* zoneinfo "pages free" */
	guint64 pcp_pages;	/* zoneinfo pagesets' "count:" */
	guint64 managed_pages, present_pages;
	int nr_orders;		/* buddyinfo's columns; 0 if not read */
	guint64 nr_free[16];	/* free blocks per order */
};

struct sa_budget {
	guint64 page_size;
	gint64 ram_kb;
	const char *ram_source;	/* "iomem", "memmap", "devicetree" or
				 * "zoneinfo" */
	GArray *rows;		/* struct sa_budget_row, tree in pre-order */
	gint64 unexplained_kb;	/* the two unexplained leaves' sum */
	GArray *zones;		/* struct sa_budget_zone */
	/* cross-checks: other sources of the same totals, -1 unknown */
	gint64 memmap_kb, iomem_kb, devicetree_kb, present_kb;
	gint64 dmesg_present_kb;
	gint64 memblock_reserved_kb;	/* debugfs; freed parts still in */
	GPtrArray *notes;	/* what was missing, and its effect */
};

/*
 * The budget of the captured sources. NULL with *err without meminfo
 * (MemTotal) or without any source of the RAM.
 */
struct sa_budget *sa_budget_compute(const struct sa_budget_input *in,
				    GError **err);
void sa_budget_free(struct sa_budget *b);

#endif /* SLABACCT_BUDGET_H */
