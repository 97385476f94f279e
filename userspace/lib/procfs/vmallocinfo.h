/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/vmallocinfo (root only): whether kernel stacks are vmalloc'ed
 * (CONFIG_VMAP_STACK), and so inside meminfo's VmallocUsed. Each line is
 * "0x...-0x... size caller pages=N vmalloc ..."; a stack's caller is
 * alloc_thread_stack_node, or the function it is inlined into:
 * dup_task_struct, copy_process, kernel_clone (Debian's 6.1 and 6.12).
 */
#ifndef SLABACCT_VMALLOCINFO_H
#define SLABACCT_VMALLOCINFO_H

#include <glib.h>

/*
 * The kernel reads the list a page at a time, and an area freed between
 * two reads shifts the rest: a reading can skip a live area. The union
 * of several readings does not (an area freed meanwhile may be counted;
 * the same area read twice once). Returns the distinct lines of the n
 * texts, sorted (by address: the kernel prints them zero-padded), or
 * NULL when no text is given.
 */
#define SA_VMALLOCINFO_READS 5
char *sa_vmallocinfo_union(char *const *texts, int n);

/* Pages of the areas allocated for kernel stacks (0: none). */
guint64 sa_vmallocinfo_stack_pages(const char *text);

#endif /* SLABACCT_VMALLOCINFO_H */
