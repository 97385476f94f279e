/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allocation wrappers: functions whose own allocation hides the
 * caller that asked for memory (kvmalloc_node, kmemdup, kasprintf,
 * mempool_alloc, ...). A built-in table, matched by sa_sym_alloc_name so
 * that the 6.10+ names (__kvmalloc_node_noprof, kmemdup_noprof) match
 * too, which a set can extend (report and record --wrapper SYM).
 *
 * The recorder takes a kernel stack only for allocations whose call site
 * lies in one of them (sa_wrappers_ranges: their address ranges in
 * /proc/kallsyms), and the report attributes such an allocation to the
 * first frame of its stack outside the set (symbols/attrib.h).
 */
#ifndef SLABACCT_SYMBOLS_WRAPPERS_H
#define SLABACCT_SYMBOLS_WRAPPERS_H

#include <stdbool.h>
#include <glib.h>

#include "trace/stack.h"

/* The built-in table, by allocation name (NULL-terminated). */
const char *const *sa_wrappers_builtin(void);

/*
 * The machinery of vmalloc (NULL-terminated): the functions between
 * alloc_vmap_area (which has no call site) and the caller that asked
 * for memory, by allocation name: __vmalloc_node_range_noprof,
 * __get_vm_area_node, vmap, ioremap, execmem_alloc. And percpu's entry
 * points (__alloc_percpu_gfp: before 6.10 the event's call site, which
 * hides the caller). The report attributes vmalloc and percpu
 * allocations past them (and the allocation wrappers), and names the
 * outermost one as the entry point.
 */
const char *const *sa_wrappers_area_builtin(void);
const char *const *sa_wrappers_percpu_builtin(void);

/*
 * The page allocator's functions between kmem:mm_page_alloc and its
 * caller, and the large kmalloc's (NULL-terminated), by allocation name.
 * The pages report attributes a page allocation to the first frame of
 * its stack past them and the allocation wrappers.
 */
const char *const *sa_wrappers_pages_builtin(void);

struct sa_wrappers;

/* The built-in set. */
struct sa_wrappers *sa_wrappers_new(void);
/* The built-in set and the vmalloc and percpu machinery. */
struct sa_wrappers *sa_wrappers_new_area(void);
/*
 * The built-in set and the page allocator's functions; a compiler's copy
 * of one (sa_sym_alloc_base: alloc_pages_mpol_noprof.constprop.0) is one
 * of them too.
 */
struct sa_wrappers *sa_wrappers_new_pages(void);
/* Add percpu's entry points to w (record --stacks with -e percpu). */
void sa_wrappers_add_percpu(struct sa_wrappers *w);
/* Add a function (by its name or its allocation name). */
void sa_wrappers_add(struct sa_wrappers *w, const char *func);
void sa_wrappers_free(struct sa_wrappers *w);

/* Whether func is in w (NULL: the built-in set). */
bool sa_wrappers_has(const struct sa_wrappers *w, const char *func);

/*
 * The ranges, in the text of /proc/kallsyms, of the functions (text
 * symbols) in w: from each one's address to the next symbol's, sorted,
 * adjacent ones joined. Returns a GArray of struct sa_addr_range (may be
 * empty: a kernel with none of them, or kallsyms read without root).
 */
GArray *sa_wrappers_ranges(const struct sa_wrappers *w, const char *kallsyms);

/* Whether the text of /proc/kallsyms has a text symbol named func. */
bool sa_kallsyms_has_func(const char *kallsyms, const char *func);

#endif /* SLABACCT_SYMBOLS_WRAPPERS_H */
