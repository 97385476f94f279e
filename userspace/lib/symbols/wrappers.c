// SPDX-License-Identifier: GPL-2.0
/*
 * The allocation wrappers (symbols/wrappers.h).
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"
#include "symbols/wrappers.h"
#include "uapi/slab_account.h"

/*
 * By their sa_sym_alloc_name: __kvmalloc_node_noprof is kvmalloc_node,
 * mempool_alloc_noprof mempool_alloc, kmemdup_noprof kmemdup. The table
 * is the module's too (include/uapi/slab_account.h). Not
 * kmalloc_node_track_caller: its callers pass their own caller as the
 * call site, and where it is a call site itself (6.10+: a large kmalloc
 * traced twice, the allocator's event first) the next event is the
 * caller's (report/agg/callsite.h).
 */
static const char *const builtin[] = {
	SLAB_ACCOUNT_WRAPPERS,
	NULL,
};

/*
 * vmalloc: from alloc_vmap_area out to the APIs (vmalloc, vzalloc,
 * __vmalloc_node_range, vmap, vm_map_ram, ioremap, execmem), and
 * percpu's entry points: where the kernel's own call_site is inside them
 * (pcpu_alloc's _RET_IP_ before 6.10), or its frames are on the stack.
 */
static const char *const area_builtin[] = {
	"alloc_vmap_area", "get_vm_area_node", "get_vm_area_caller",
	"get_vm_area", "vmalloc_node_range", "vmalloc_node", "vmalloc",
	"vzalloc", "vzalloc_node", "vmalloc_user", "vmalloc_32",
	"vmalloc_32_user", "vmalloc_huge", "vmalloc_huge_node",
	"vmalloc_array", "vcalloc", "vmalloc_node_flags_caller",
	"kvmalloc_array_node", "kvmalloc_array",
	"vmap", "vm_map_ram", "vb_alloc", "new_vmap_block",
	"ioremap", "ioremap_caller", "ioremap_prot", "ioremap_cache",
	"ioremap_wc", "ioremap_uc", "generic_ioremap_prot",
	"execmem_alloc", "execmem_vmalloc", "execmem_alloc_rw",
	"module_alloc",
	NULL,
};
static const char *const percpu_builtin[] = {
	"alloc_percpu_gfp", "alloc_percpu", "alloc_reserved_percpu",
	"pcpu_alloc",
	NULL,
};

/*
 * The page allocator, from the function that fires kmem:mm_page_alloc
 * out to its APIs, and the large kmalloc that takes pages from it: the
 * frames between a page event's tracepoint and the caller that asked
 * for the pages (by allocation name: __alloc_pages_noprof matches
 * "alloc_pages").
 */
static const char *const pages_builtin[] = {
	"alloc_pages", "alloc_frozen_pages", "alloc_pages_nodemask",
	"alloc_pages_mpol", "alloc_pages_node", "alloc_pages_vma",
	"alloc_pages_exact", "alloc_pages_exact_nid", "alloc_pages_bulk",
	"alloc_pages_bulk_array", "alloc_pages_bulk_array_mempolicy",
	"alloc_pages_bulk_mempolicy", "alloc_pages_bulk_array_node",
	"alloc_pages_bulk_node", "alloc_frozen_pages_nolock",
	"alloc_pages_nolock", "folio_alloc", "folio_alloc_mpol",
	"folio_alloc_node", "vma_alloc_folio", "get_free_pages",
	"get_zeroed_page",
	"kmalloc", "kmalloc_node", "kmalloc_large", "kmalloc_large_node",
	"kmalloc_order", "kmalloc_order_trace", "kmalloc_node_track_caller",
	"kmalloc_trace", "kmalloc_cache",
	NULL,
};

struct sa_wrappers {
	GHashTable *names;		/* allocation names, interned */
	bool copies;		/* names matched by sa_sym_alloc_base */
};

const char *const *sa_wrappers_builtin(void)
{
	return builtin;
}

static const char *norm(const char *func, char *buf, size_t size)
{
	return sa_sym_alloc_name(func, buf, size);
}

struct sa_wrappers *sa_wrappers_new(void)
{
	struct sa_wrappers *w = g_new0(struct sa_wrappers, 1);
	int i;

	w->names = g_hash_table_new(g_str_hash, g_str_equal);
	for (i = 0; builtin[i]; i++)
		g_hash_table_add(w->names, (gpointer)builtin[i]);
	return w;
}

const char *const *sa_wrappers_area_builtin(void)
{
	return area_builtin;
}

const char *const *sa_wrappers_percpu_builtin(void)
{
	return percpu_builtin;
}

const char *const *sa_wrappers_pages_builtin(void)
{
	return pages_builtin;
}

struct sa_wrappers *sa_wrappers_new_pages(void)
{
	struct sa_wrappers *w = sa_wrappers_new();
	int i;

	for (i = 0; pages_builtin[i]; i++)
		g_hash_table_add(w->names, (gpointer)pages_builtin[i]);
	w->copies = true;
	return w;
}

struct sa_wrappers *sa_wrappers_new_area(void)
{
	struct sa_wrappers *w = sa_wrappers_new();
	int i;

	for (i = 0; area_builtin[i]; i++)
		g_hash_table_add(w->names, (gpointer)area_builtin[i]);
	sa_wrappers_add_percpu(w);
	return w;
}

void sa_wrappers_add_percpu(struct sa_wrappers *w)
{
	int i;

	for (i = 0; percpu_builtin[i]; i++)
		g_hash_table_add(w->names, (gpointer)percpu_builtin[i]);
}

void sa_wrappers_add(struct sa_wrappers *w, const char *func)
{
	char buf[128];

	if (norm(func, buf, sizeof(buf)) && buf[0])
		g_hash_table_add(w->names, (gpointer)g_intern_string(buf));
}

void sa_wrappers_free(struct sa_wrappers *w)
{
	if (!w)
		return;
	g_hash_table_destroy(w->names);
	g_free(w);
}

bool sa_wrappers_has(const struct sa_wrappers *w, const char *func)
{
	char buf[128];
	int i;

	if (w && w->copies)
		return sa_sym_alloc_base(func, buf, sizeof(buf)) &&
		       g_hash_table_contains(w->names, buf);
	if (!norm(func, buf, sizeof(buf)))
		return false;
	if (w)
		return g_hash_table_contains(w->names, buf);
	for (i = 0; builtin[i]; i++)
		if (!strcmp(buf, builtin[i]))
			return true;
	return false;
}

/* One line of /proc/kallsyms: "ADDR TYPE NAME [MODULE]". */
struct ksline {
	guint64 addr;
	const char *name;
	size_t len;
	char type;
};

static bool parse_line(const char *line, struct ksline *l)
{
	const char *p = strchr(line, ' ');

	if (!p || !p[1] || p[2] != ' ')
		return false;
	l->addr = g_ascii_strtoull(line, NULL, 16);
	l->type = p[1];
	l->name = p + 3;
	l->len = strcspn(l->name, "\t\n ");
	return l->len > 0;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_range(gconstpointer a, gconstpointer b)
{
	return cmp_u64(&((const struct sa_addr_range *)a)->lo,
		       &((const struct sa_addr_range *)b)->lo);
}

GArray *sa_wrappers_ranges(const struct sa_wrappers *w, const char *kallsyms)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct sa_addr_range));
	GArray *addrs = g_array_new(FALSE, FALSE, sizeof(guint64));
	const char *line;
	struct ksline l;
	guint i, j;

	for (line = kallsyms; line && *line;) {
		const char *nl = strchr(line, '\n');

		if (parse_line(line, &l) && l.addr) {
			g_array_append_val(addrs, l.addr);
			if (is_text(l.type)) {
				char *name = g_strndup(l.name, l.len);

				if (sa_wrappers_has(w, name)) {
					struct sa_addr_range r = {
						l.addr, 0 };

					g_array_append_val(out, r);
				}
				g_free(name);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	qsort(addrs->data, addrs->len, sizeof(guint64), cmp_u64);
	/* each one ends at the next higher address */
	for (i = 0; i < out->len; i++) {
		struct sa_addr_range *r = &g_array_index(out, struct
							  sa_addr_range, i);
		guint lo = 0, hi = addrs->len;

		while (lo < hi) {
			guint mid = (lo + hi) / 2;

			if (g_array_index(addrs, guint64, mid) <= r->lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		r->hi = lo < addrs->len ? g_array_index(addrs, guint64, lo) :
			r->lo + 1;
	}
	g_array_sort(out, cmp_range);
	/* joined where they touch or overlap (aliases) */
	for (i = 0, j = 0; i < out->len; i++) {
		struct sa_addr_range *r = &g_array_index(out, struct
							  sa_addr_range, i);
		struct sa_addr_range *prev = j ?
			&g_array_index(out, struct sa_addr_range, j - 1) :
			NULL;

		if (prev && r->lo <= prev->hi) {
			if (r->hi > prev->hi)
				prev->hi = r->hi;
			continue;
		}
		g_array_index(out, struct sa_addr_range, j++) = *r;
	}
	g_array_set_size(out, j);
	g_array_unref(addrs);
	return out;
}

bool sa_kallsyms_has_func(const char *kallsyms, const char *func)
{
	size_t len = strlen(func);
	const char *line;
	struct ksline l;

	for (line = kallsyms; line && *line && len;) {
		const char *nl = strchr(line, '\n');

		if (parse_line(line, &l) && is_text(l.type) && l.len == len &&
		    !memcmp(l.name, func, len))
			return true;
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

const char *sa_sym_wrapper_hint(const char *func)
{
	if (!sa_wrappers_has(NULL, func))
		return NULL;
	return "an allocation wrapper: its call site hides the real "
	       "caller. Record with kernel stacks (slabacct record "
	       "--stacks, or trace-cmd record -T) and the report "
	       "attributes its allocations to their callers; on 6.10+, "
	       "CONFIG_MEM_ALLOC_PROFILING (/proc/allocinfo) sees "
	       "through it too";
}
