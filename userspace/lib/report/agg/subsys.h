/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subsystems section: call-site rows rolled up by source directory
 * at --depth levels (from --vmlinux DWARF or --build-tree objects), else
 * by module ("[ext4]") and by symbol ("vmlinux:func"); vmlinux sites
 * that neither places are in one "(unresolved)" row; and the allocation
 * wrappers (kstrdup, kmemdup, ...) whose call sites hide their callers.
 */
#ifndef SLABACCT_AGG_SUBSYS_H
#define SLABACCT_AGG_SUBSYS_H

#include "report/agg/callsite.h"

/* The row of vmlinux call sites with no source file or object */
#define SA_SUBSYS_UNRESOLVED	"(unresolved)"

struct sa_subsys_row {
	const char *name;		/* interned */
	guint64 sites, allocs, bytes_alloc, bytes_req, slack, live_alloc;
};

struct sa_wrapper_row {
	const char *func;		/* interned */
	const char *hint;
	guint64 sites, allocs, bytes_alloc;
};

struct sa_subsys_result {
	const char *source;		/* "dwarf", "build-tree", "kallsyms" */
	int depth;
	GArray *rows;			/* struct sa_subsys_row, by bytes */
	GArray *wrappers;		/* struct sa_wrapper_row, by bytes */
};

extern const struct sa_agg sa_agg_subsys;

#endif /* SLABACCT_AGG_SUBSYS_H */
