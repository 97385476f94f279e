// SPDX-License-Identifier: GPL-2.0
/*
 * Rates between two vmstat readings (vmstat(8), sar -B and -W).
 */
#include <string.h>

#include "procfs/rates.h"

static double rate(guint64 a, guint64 b, double dt)
{
	return b > a ? (double)(b - a) / dt : 0;
}

void sa_vm_rates_compute(const struct sa_vm_counters *a,
			 const struct sa_vm_counters *b, double dt,
			 long page_size, struct sa_vm_rates *r)
{
	guint64 scan_a, scan_b, steal_a, steal_b;

	memset(r, 0, sizeof(*r));
	if (dt <= 0)
		dt = 1;
	r->fault = rate(a->pgfault, b->pgfault, dt);
	r->majflt = rate(a->pgmajfault, b->pgmajfault, dt);
	r->pgpgin = rate(a->pgpgin, b->pgpgin, dt);
	r->pgpgout = rate(a->pgpgout, b->pgpgout, dt);
	r->pgfree = rate(a->pgfree, b->pgfree, dt);
	r->pgscank = rate(a->pgscan_kswapd + a->pgscan_khugepaged +
			  a->pgscan_proactive, b->pgscan_kswapd +
			  b->pgscan_khugepaged + b->pgscan_proactive, dt);
	r->pgscand = rate(a->pgscan_direct, b->pgscan_direct, dt);
	steal_a = a->pgsteal_kswapd + a->pgsteal_direct +
		a->pgsteal_khugepaged + a->pgsteal_proactive;
	steal_b = b->pgsteal_kswapd + b->pgsteal_direct +
		b->pgsteal_khugepaged + b->pgsteal_proactive;
	r->pgsteal = rate(steal_a, steal_b, dt);
	scan_a = a->pgscan_kswapd + a->pgscan_direct + a->pgscan_khugepaged +
		a->pgscan_proactive;
	scan_b = b->pgscan_kswapd + b->pgscan_direct + b->pgscan_khugepaged +
		b->pgscan_proactive;
	r->vmeff = scan_b > scan_a ?
		100.0 * (steal_b > steal_a ? steal_b - steal_a : 0) /
		(scan_b - scan_a) : -1;
	r->pswpin = rate(a->pswpin, b->pswpin, dt);
	r->pswpout = rate(a->pswpout, b->pswpout, dt);
	r->si_kb = r->pswpin * page_size / 1024;
	r->so_kb = r->pswpout * page_size / 1024;
	r->allocstall = rate(a->allocstall, b->allocstall, dt);
	r->oom_kill = rate(a->oom_kill, b->oom_kill, dt);
}
