/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything computed from one snapshot: each source parsed, or the
 * reason it is not available. Emitters (emit/snapshot-text.c, -json.c, -csv.c)
 * only format this.
 */
#ifndef SLABACCT_SNAPSHOT_VIEW_H
#define SLABACCT_SNAPSHOT_VIEW_H

#include "procfs/buddyinfo.h"
#include "procfs/meminfo.h"
#include "procfs/oomlog.h"
#include "procfs/pagetypeinfo.h"
#include "procfs/procs.h"
#include "procfs/psi.h"
#include "procfs/rates.h"
#include "procfs/slabinfo.h"
#include "snapshot/snapshot.h"
#include "procfs/swaps.h"
#include "procfs/vmstat.h"
#include "procfs/zoneinfo.h"

struct sa_snapshot_view {
	const struct sa_snapshot *snap;
	char *why[SA_SRC_NR];	/* NULL: parsed; else why not available */

	GHashTable *meminfo;
	struct sa_memfree mem;
	GHashTable *vmstat;
	struct sa_vm_counters vm;
	struct sa_slab_table *slab_proc;	/* /proc/slabinfo */
	struct sa_slab_table *slab_sysfs;	/* /sys/kernel/slab */
	GArray *buddy;		/* struct sa_buddy_zone */
	struct sa_pagetypeinfo *pagetype;
	GArray *zones;		/* struct sa_zone_info */
	GArray *swaps;		/* struct sa_swap_area */
	struct sa_psi psi;
	GArray *procs;		/* struct sa_proc_mem */
	GArray *ooms;		/* struct sa_oom_kill */
	GArray *rates;		/* struct sa_vm_rates, between samples */
};

/* Never fails: a source that does not parse is marked not available. */
struct sa_snapshot_view *sa_snapshot_view_new(const struct sa_snapshot *snap);
void sa_snapshot_view_free(struct sa_snapshot_view *v);

static inline bool sa_view_has(const struct sa_snapshot_view *v,
			       enum sa_snap_source src)
{
	return v->why[src] == NULL;
}

/* The slab table to rank caches by (sysfs when present, else proc). */
const struct sa_slab_table *sa_view_slab(const struct sa_snapshot_view *v);

#endif /* SLABACCT_SNAPSHOT_VIEW_H */
