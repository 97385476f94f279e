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

/* Pages of the areas allocated for kernel stacks (0: none). */
guint64 sa_vmallocinfo_stack_pages(const char *text);

#endif /* SLABACCT_VMALLOCINFO_H */
