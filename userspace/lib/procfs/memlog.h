/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot log's memory lines: what the kernel said it reserved before
 * the page allocator took over, and what it gave back later.
 *
 *   Memory: 260916K/523768K available (14343K kernel code, 2338K rwdata,
 *     9132K rodata, 2824K init, 17344K bss, 73112K reserved,
 *     0K cma-reserved)
 *
 * (mm/mm_init.c): available = free pages then, the total is the present
 * pages, reserved = present - managed pages then; the kernel image's
 * sections are in it. Later lines give some of it back to the page
 * allocator, and so to MemTotal: "Freeing unused kernel image (initmem)
 * memory: 2824K" (the init sections; "Freeing unused kernel memory:" on
 * arm), "Freeing initrd memory: 7448K", gaps between sections, and
 * "Freeing unused decrypted memory: 2036K" (x86: the unused part of
 * .bss..decrypted, which is inside the bss the Memory: line counts),
 * "Freeing SMP alternatives memory: 36K" (x86: .smp_locks, between the
 * init sections and the bss).
 *
 *   percpu: Embedded 62 pages/cpu s217088 r8192 d28672 u1048576
 *   pcpu-alloc: [0] 0 1
 *
 * The first percpu chunk: that many pages for each unit listed (a "-"
 * is a unit with no CPU), reserved at boot, and counted in meminfo's
 * Percpu with the later chunks.
 *
 *   Dentry cache hash table entries: 32768 (order: 6, 262144 bytes, linear)
 *
 * alloc_large_system_hash's tables (mm/mm_init.c): "linear" ones are
 * memblock's for the early tables (HASH_EARLY: the dentry and inode
 * caches' early tables, the paravirt qspinlock's), reserved at boot,
 * and alloc_pages_exact's for the others, pages of MemTotal that no
 * counter names; "vmalloc" ones are in VmallocUsed and not counted here.
 *
 *   NODE_DATA(0) allocated [mem 0x0ee58000-0x0ee82fff]
 *
 * Each node's pglist_data, allocated from memblock at boot, never freed.
 *
 *   ftrace: allocated 159 pages with 6 groups
 *
 * The dyn_ftrace records of every traceable function (kernel/trace/
 * ftrace.c), page allocator pages that no counter names; tracefs's
 * dyn_ftrace_total_info gives them as they are now (some are freed
 * after boot).
 *
 *   DMA: preallocated 128 KiB GFP_KERNEL|GFP_DMA32 pool for atomic allocations
 *
 * dma-direct's atomic pools (kernel/dma/pool.c), pages the page
 * allocator gave at boot that no counter names. A pool grows when it
 * runs low, without a log line: the figure is its size at boot.
 */
#ifndef SLABACCT_MEMLOG_H
#define SLABACCT_MEMLOG_H

#include <stdbool.h>
#include <glib.h>

struct sa_memlog {
	bool have_memory;	/* a "Memory: ...K/...K available" line */
	guint64 avail_kb, present_kb;
	guint64 code_kb, rwdata_kb, rodata_kb, init_kb, bss_kb;
	guint64 reserved_kb, cma_kb;
	bool init_freed;	/* the init sections were given back */
	guint64 decrypted_freed_kb;	/* of the bss, given back */
	guint64 smp_alt_freed_kb;	/* "Freeing SMP alternatives
					 * memory": .smp_locks, given back */
	bool have_initrd_freed;
	guint64 initrd_freed_kb;
	bool have_percpu;	/* "percpu: Embedded N pages/cpu" and units */
	guint64 percpu_pages;	/* pages per unit */
	unsigned int percpu_units;
	guint64 early_hash_bytes;	/* linear HASH_EARLY tables */
	guint64 hash_bytes;		/* the other linear tables */
	unsigned int early_hashes, hashes;
	guint64 node_data_bytes;	/* "NODE_DATA(N) allocated [mem
					 * 0xA-0xB]": memblock's pglist_data */
	unsigned int node_datas;
	bool have_ftrace;	/* "ftrace: allocated N pages with M groups" */
	guint64 ftrace_pages;
	guint64 dma_pool_kb;	/* "DMA: preallocated N KiB ... pool" */
	unsigned int dma_pools;
};

/* Whether the capture keeps a log line. */
bool sa_memlog_line_wanted(const char *line);

/* Parse the kept lines (kmsg or dmesg form); false if none is known. */
bool sa_memlog_parse(const char *text, struct sa_memlog *m);

#endif /* SLABACCT_MEMLOG_H */
