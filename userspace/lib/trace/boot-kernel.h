/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel of a traced boot can do, asked of the kernel itself (its
 * symbol names: /proc/kallsyms on the target, or its System.map), never
 * of its version: whether it takes per-event triggers on its command line
 * (trace_trigger=), and the names its allocation wrappers have there
 * (kvmalloc_node is __kvmalloc_node_noprof on 6.10+), which a boot
 * trigger's filter names (call_site.function == NAME) and which must
 * exist: one unknown name makes the kernel refuse the whole trigger.
 */
#ifndef SLABACCT_BOOT_KERNEL_H
#define SLABACCT_BOOT_KERNEL_H

#include <stdbool.h>
#include <glib.h>

struct sa_boot_kernel {
	bool triggers;		/* it has trace_trigger= */
	bool hist;		/* it has hist triggers (CONFIG_HIST_TRIGGERS:
				 * event_hist_trigger_parse, before 5.17
				 * event_hist_trigger_func) */
	int arch;		/* enum sa_boot_arch by its symbols
				 * (__x64_sys_read, __arm64_sys_read,
				 * vector_swi); -1: none of them */
	GPtrArray *wrappers;	/* its names of the wrappers (char *) */
	GPtrArray *cache_wrappers; /* those that call kmem_cache_alloc */
};

/*
 * Read the symbol file at path (kallsyms or System.map: "ADDR TYPE NAME",
 * module symbols ignored). Returns 0, or -1 with *err set (unreadable,
 * or not a symbol file: lines, names and size are bounded).
 */
int sa_boot_kernel_read(const char *path, struct sa_boot_kernel *k,
			GError **err);
void sa_boot_kernel_clear(struct sa_boot_kernel *k);

/*
 * The value of trace_trigger= (unquoted: it holds spaces) that takes a
 * stack after the allocations of groups at a wrapper's call site only:
 * kmalloc and kmem_cache_alloc filtered on call_site.function, and with
 * the page and vmalloc groups every mm_page_alloc and alloc_vmap_area
 * (they have no call site; as record --stacks=wrappers does). NULL when
 * there is nothing to trigger on.
 */
char *sa_boot_kernel_triggers(const struct sa_boot_kernel *k,
			      unsigned int groups);

/*
 * The value of trace_trigger= that sets the kernel's histograms of
 * kmem:kmalloc and kmem:kmem_cache_alloc keyed by call site, size
 * entries each: two per event, since trace_trigger= splits its value at
 * every comma and a trigger can take one value only (bytes_alloc, whose
 * map is set first, then bytes_req). size is a power of two within
 * SA_BOOT_HIST_MIN..MAX (the kernel's TRACING_MAP_BITS 7..17).
 */
#define SA_BOOT_HIST_MIN	128
#define SA_BOOT_HIST_MAX	131072
#define SA_BOOT_HIST_MAPS	4
char *sa_boot_kernel_hist(unsigned int size);

#endif /* SLABACCT_BOOT_KERNEL_H */
