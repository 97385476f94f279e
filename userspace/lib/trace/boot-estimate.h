/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizing the boot-time ring buffer: the kernel parameters that start
 * slabacct's events at boot, an estimate of the per-CPU buffer a typical
 * boot needs, and, after a boot, the size that would have lost nothing.
 */
#ifndef SLABACCT_BOOT_ESTIMATE_H
#define SLABACCT_BOOT_ESTIMATE_H

#include <glib.h>

/* One group's share of the estimate. */
struct sa_boot_share {
	const char *group;
	guint64 events;		/* events of a typical boot */
	guint64 bytes;		/* their ring-buffer bytes */
};

struct sa_boot_estimate {
	struct sa_boot_share shares[12];
	int nr_shares;
	guint64 total_bytes;
	guint64 buffer_kb;	/* per CPU, headroom included, whole MB */
};

/* The estimate for a group mask (enum sa_group). */
void sa_boot_estimate(unsigned int groups, struct sa_boot_estimate *est);

/* "trace_event=kmem:kmalloc,... trace_buf_size=16M trace_clock=global" */
char *sa_boot_cmdline(unsigned int groups, guint64 buffer_kb);

/*
 * After a boot: the per-CPU size in KB (whole MB, 20% headroom) that
 * would have held every event, from what each CPU kept (bytes, events)
 * and lost. 0 when no CPU recorded anything.
 */
guint64 sa_boot_needed_kb(int nr_cpus, const guint64 *bytes,
			  const guint64 *events, const guint64 *lost);

#endif /* SLABACCT_BOOT_ESTIMATE_H */
