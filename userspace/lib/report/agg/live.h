/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live (leaks) section: allocations not freed by the end of the
 * trace, by call site, with an age histogram (age = last event of the
 * trace - allocation time), and optionally every object.
 */
#ifndef SLABACCT_AGG_LIVE_H
#define SLABACCT_AGG_LIVE_H

#include "report/agg/callsite.h"

struct sa_live_row {
	guint64 ptr;
	guint64 age_ns;
	guint32 bytes_req, bytes_alloc;
	gint32 pid;
	const char *comm;		/* interned, "<...>" when unknown */
	const struct sa_site *site;
};

struct sa_live_result {
	guint64 age[SA_AGE_BUCKETS];	/* every live object */
	struct sa_totals total;		/* kmalloc and cache together */
	guint64 freed_untraced;		/* objects freed without a trace
					 * event: not live (agg/callsite.h) */
	GPtrArray *sites;		/* struct sa_site * with live > 0, by
					 * live bytes; not owned */
	GArray *objects;		/* struct sa_live_row, with --objects,
					 * oldest first; else NULL */
	guint64 sites_hidden;		/* left out of sites by --top */
	guint64 objects_hidden;		/* left out of objects by --top */
};

extern const struct sa_agg sa_agg_live;

#endif /* SLABACCT_AGG_LIVE_H */
