/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rates between two vmstat readings, as vmstat(8) and sar -B/-W compute
 * them: the counter's increase divided by the seconds between readings.
 */
#ifndef SLABACCT_RATES_H
#define SLABACCT_RATES_H

#include "procfs/vmstat.h"

struct sa_vm_rates {
	double t0, t1;		/* uptime of the two readings */
	double fault, majflt;	/* sar -B fault/s, majflt/s */
	double pgpgin, pgpgout;	/* kB/s (sar -B pgpgin/s; vmstat bi/bo) */
	double pgfree;
	double pgscank, pgscand; /* sar -B pgscank/s, pgscand/s (the
				 * khugepaged and proactive scans count
				 * with kswapd's) */
	double pgsteal;		/* sar -B pgsteal/s */
	double vmeff;		/* sar -B %vmeff: 100 * steal / scan; -1
				 * when nothing was scanned */
	double pswpin, pswpout;	/* pages/s (sar -W) */
	double si_kb, so_kb;	/* kB/s (vmstat si/so) */
	double allocstall, oom_kill; /* per second */
};

/*
 * Rates from a to b, dt seconds apart (dt > 0). A counter that went down
 * (a reset) counts as 0.
 */
void sa_vm_rates_compute(const struct sa_vm_counters *a,
			 const struct sa_vm_counters *b, double dt,
			 long page_size, struct sa_vm_rates *r);

#endif /* SLABACCT_RATES_H */
