/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/vmstat: the event counters vmstat(8) and sar -B/-W read.
 */
#ifndef SLABACCT_VMSTAT_H
#define SLABACCT_VMSTAT_H

#include <stdbool.h>
#include <glib.h>

/* name -> guint64, every "name value" line. NULL with *err if none. */
GHashTable *sa_vmstat_parse(const char *text, GError **err);

/*
 * The counters the rates are made of, in pages (pgpgin/pgpgout: kB).
 * Reclaim counters are summed over the names that split them: any
 * pgscan_kswapd*, pgscan_direct* other than pgscan_direct_throttle (a
 * count of throttlings, not of pages), pgscan_khugepaged*,
 * pgscan_proactive*; and likewise
 * for pgsteal_. pgsteal_anon/file and pgscan_anon/file are the same
 * pages split another way and are not added again (sar adds every
 * pgsteal_* line, which counts them twice on kernels from 5.17 on).
 */
struct sa_vm_counters {
	guint64 pgfault, pgmajfault, pgfree;
	guint64 pgpgin, pgpgout;	/* kB */
	guint64 pswpin, pswpout;	/* pages */
	guint64 pgscan_kswapd, pgscan_direct, pgscan_khugepaged;
	guint64 pgscan_proactive;
	guint64 pgsteal_kswapd, pgsteal_direct, pgsteal_khugepaged;
	guint64 pgsteal_proactive;
	guint64 allocstall;		/* sum of allocstall_* */
	guint64 compact_stall;
	guint64 oom_kill;
	bool have_oom_kill;		/* the kernel counts oom_kill */
	guint64 numa_hit, numa_miss, numa_foreign, numa_local, numa_other;
	bool have_numa;
};

void sa_vm_counters_get(GHashTable *vm, struct sa_vm_counters *c);

#endif /* SLABACCT_VMSTAT_H */
