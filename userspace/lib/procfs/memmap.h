/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The physical memory map: the firmware's (/sys/firmware/memmap, the
 * e820 table on x86, one directory per range with start, end and type)
 * and the kernel's (/proc/iomem, after the kernel's own changes to it;
 * its addresses are zeros unless read by root).
 *
 * RAM is counted in whole pages, as memblock trims its ranges: a range
 * [start, end] holds the pages from ceil(start / page) up to
 * floor((end + 1) / page).
 */
#ifndef SLABACCT_MEMMAP_H
#define SLABACCT_MEMMAP_H

#include <stdbool.h>
#include <glib.h>

/* More RAM than this (1 EiB of 4 KiB pages) is a malformed map */
#define SA_MEMMAP_MAX_PAGES	(1ull << 48)

/* At most this many ranges are read from /sys/firmware/memmap */
#define SA_MEMMAP_MAX_RANGES	65536

/*
 * root/sys/firmware/memmap as text, one range a line:
 * "0x0 0x9fbff System RAM". NULL with *err if it cannot be read.
 */
char *sa_memmap_capture(const char *root, GError **err);

/*
 * The device tree's memory nodes (root/sys/firmware/devicetree/base/
 * memory*, their "reg" cells, big-endian, as the root's #address-cells
 * and #size-cells say; disabled nodes skipped), in the text form above:
 * "0x40000000 0x4fffffff System RAM". NULL with *err without any.
 */
char *sa_devicetree_memory_capture(const char *root, GError **err);

struct sa_memmap_ram {
	guint64 pages;		/* whole pages of "System RAM" */
	unsigned int ranges;	/* "System RAM" ranges */
	guint64 crash_bytes;	/* iomem's "Crash kernel" ranges */
	/* iomem: the end (inclusive) of "Kernel data" and the start of
	 * "Kernel bss" (x86: _edata - 1, __bss_start); 0 unknown */
	guint64 kdata_end, kbss_start;
	guint64 low_pages;	/* whole pages of "System RAM" below 1 MB */
};

/* That text's "System RAM": -1 with *err if malformed or without RAM. */
int sa_memmap_parse(const char *text, guint64 page_size,
		    struct sa_memmap_ram *r, GError **err);

/*
 * /proc/iomem's top-level "System RAM" ranges, and its "Crash kernel"
 * ranges (nested in them). -1 with *err if there is no RAM or the
 * addresses are hidden (zeros: not root).
 */
int sa_iomem_parse(const char *text, guint64 page_size,
		   struct sa_memmap_ram *r, GError **err);

/*
 * /sys/kernel/debug/memblock/reserved (kept after boot where the
 * architecture keeps memblock, as arm64 does): "   0: 0xA..0xB" lines,
 * B inclusive, then (6.10+) the node and flags. The bytes of all
 * ranges; -1 with *err if there is no range or a line is malformed.
 * memblock does not forget what was freed to the page allocator later
 * (the initrd, init sections), so this is a cross-check, not an owner.
 */
int sa_memblock_reserved_parse(const char *text, guint64 *bytes,
			       GError **err);

#endif /* SLABACCT_MEMMAP_H */
