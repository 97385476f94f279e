/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's VMCOREINFO (the figures crash dump tools read: page size,
 * symbols, structure sizes), as the ELF note of root/proc/kcore holds
 * it. The RAM budget takes from it the boot-time allocation of the
 * sparse memory model's section roots (SPARSEMEM_EXTREME), which no
 * /proc file names: LENGTH(mem_section) pointers, memblock's from
 * sparse_init, on 6.1 x86-64 2 MB whatever the RAM.
 */
#ifndef SLABACCT_PROCFS_VMCOREINFO_H
#define SLABACCT_PROCFS_VMCOREINFO_H

#include <stdbool.h>
#include <glib.h>

/* No VMCOREINFO note is near this size (a few kB) */
#define SA_VMCOREINFO_MAX	(64u << 10)

/*
 * The lines of root/proc/kcore's VMCOREINFO note that the budget reads
 * (PAGESIZE, SYMBOL(_stext), SYMBOL(mem_section), LENGTH(mem_section),
 * SIZE(mem_section), SIZE(list_head), NUMBER(SECTION_SIZE_BITS)), each
 * ending in a newline. NULL with *err when kcore cannot be read (not
 * root, no CONFIG_PROC_KCORE) or has no such note.
 */
char *sa_vmcoreinfo_capture(const char *root, GError **err);

struct sa_vmcoreinfo {
	guint64 page_size;
	guint64 stext;			/* SYMBOL(_stext); 0 if absent */
	guint64 mem_section;		/* SYMBOL(mem_section): the roots */
	guint64 mem_section_len;	/* LENGTH(mem_section): how many */
	guint64 ptr_size;		/* SIZE(list_head) / 2 */
	bool have_sections;		/* all three of the above */
};

/*
 * Parse the text of sa_vmcoreinfo_capture (KEY=VALUE lines; others
 * skipped). Returns -1 with *err on a malformed value.
 */
int sa_vmcoreinfo_parse(const char *text, struct sa_vmcoreinfo *v,
			GError **err);

/*
 * The bytes of the section roots allocated at boot: LENGTH(mem_section)
 * pointers, when SYMBOL(mem_section) lies outside the kernel image
 * [_stext, _stext + image_bytes) (a static array inside it is part of
 * the image); 0 when not, or not known.
 */
guint64 sa_vmcoreinfo_section_roots(const struct sa_vmcoreinfo *v,
				    guint64 image_bytes);

#endif /* SLABACCT_PROCFS_VMCOREINFO_H */
