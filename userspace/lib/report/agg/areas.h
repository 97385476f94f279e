/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vmalloc and percpu aggregators: per call site, allocations, bytes,
 * frees, and what is still allocated at the end of the trace, and failed
 * allocations where the kernel traces them. One result type, two
 * sections (report/table.c: vmalloc, percpu).
 *
 * vmalloc (vmalloc:alloc_vmap_area, free_vmap_area_noflush): a vmap
 * area of every user of the vmalloc space (vmalloc, vmap, ioremap,
 * module text), its size with the guard page. The event has no call
 * site: an allocation with a kernel stack (record --stacks) is attributed
 * to the first frame outside vmalloc's machinery (symbols/wrappers.h:
 * sa_wrappers_area_builtin, and the allocation wrappers), the outermost
 * machinery frame kept as the entry point: "vmalloc_node_range <-
 * bpf_map_area_alloc+0x7e". One without is counted in one row that says
 * so. A failed attempt (the event's failed field) is counted as failed,
 * not as an allocation; the kernel may retry it after a purge.
 *
 * percpu (percpu:percpu_alloc_percpu, percpu_free_percpu,
 * percpu_alloc_percpu_fail): the call site is the event's (5.19+), read
 * through a stack like a kmalloc's when it is in the machinery (older
 * kernels: __alloc_percpu_gfp). Bytes are bytes_alloc, the size on every
 * possible CPU, where the event has it, else the size per CPU (noted).
 * percpu_alloc_percpu_fail has no call site: failures are a total.
 *
 * Frees are matched to their allocation by address (va_start, the percpu
 * ptr) and counted at its row; a free of memory allocated before the
 * trace is counted apart, as is an allocation at an address still live
 * (its free was not traced: it is no longer live).
 */
#ifndef SLABACCT_AGG_AREAS_H
#define SLABACCT_AGG_AREAS_H

#include "report/report.h"

enum sa_area_kind {
	SA_AREA_VMALLOC,
	SA_AREA_PERCPU,
};

/* How a row was found. */
enum sa_area_how {
	SA_AREA_SITE,		/* the event's call site (percpu) */
	SA_AREA_CALLER,		/* through the stack: via <- caller */
	SA_AREA_VIA,		/* --by wrapper: the entry point alone */
	SA_AREA_NO_STACK,	/* vmalloc without a stack */
	SA_AREA_NO_CALLER,	/* a stack with no frame past the machinery */
};

struct sa_area_row {
	enum sa_area_how how;
	char *sym;		/* "via <- caller+0xoff", "func+0xoff", or
				 * "(no kernel stack)" */
	const char *via;	/* the entry point's allocation name
				 * (interned), or NULL */
	char *caller_sym;	/* "caller+0xoff", or NULL */
	const char *func, *module, *file;	/* the caller's or site's */
	int line;
	guint64 addr;		/* the call site or the caller's frame */
	guint64 allocs, bytes, frees, freed_bytes, live, live_bytes;
	guint64 failed;		/* failed attempts (vmalloc) */
	guint64 freed_untraced;	/* live, then allocated again */
};

struct sa_area_result {
	enum sa_area_kind kind;
	bool present;		/* the allocation event is in the trace */
	bool have_free;		/* the free event is in the trace */
	bool per_cpu_bytes;	/* percpu: no bytes_alloc, bytes per CPU */
	bool stacks;		/* the trace has kernel stacks */
	guint64 allocs, bytes, frees, freed_bytes, live, live_bytes;
	guint64 failed;		/* vmalloc: failed attempts; percpu: the
				 * percpu_alloc_percpu_fail events */
	guint64 failed_bytes;	/* percpu: their sizes (per CPU) */
	guint64 unmatched_frees;	/* allocated before the trace */
	guint64 freed_untraced;
	guint64 attributed;	/* allocations attributed by their stack */
	guint64 no_stack;	/* vmalloc allocations without a stack */
	GPtrArray *rows;	/* struct sa_area_row *, by bytes, desc */
};

extern const struct sa_agg sa_agg_vmalloc, sa_agg_percpu;

/* "vmalloc" or "percpu" */
const char *sa_area_name(enum sa_area_kind kind);
/* "site", "caller", "via", "no_stack", "no_caller" */
const char *sa_area_how_name(enum sa_area_how how);

#endif /* SLABACCT_AGG_AREAS_H */
