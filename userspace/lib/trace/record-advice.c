// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer size that would have kept a lossy recording's events
 * (trace/record-advice.h).
 */
#include <math.h>
#include <string.h>

#include "trace/record-advice.h"

#define UNKNOWN_EVENT_BYTES	64	/* when no CPU kept an event */

void sa_buffer_advise(int nr_cpus, const guint64 *bytes,
		      const guint64 *events, const guint64 *lost,
		      guint64 buffer_kb, double seconds,
		      struct sa_buffer_advice *a)
{
	guint64 all_bytes = 0, all_events = 0;
	double worst = 0, k, unit;
	int cpu;

	memset(a, 0, sizeof(*a));
	a->cpu = -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		all_bytes += bytes[cpu];
		all_events += events[cpu];
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		double per, need;

		if (!lost[cpu])
			continue;
		per = all_events ? (double)all_bytes / all_events :
		      UNKNOWN_EVENT_BYTES;
		if (events[cpu])
			per = (double)bytes[cpu] / events[cpu];
		need = (double)buffer_kb * 1024 + (double)lost[cpu] * per;
		if (need > worst) {
			worst = need;
			a->cpu = cpu;
			a->lost = lost[cpu];
			a->lost_bytes = (guint64)((double)lost[cpu] * per);
			a->read_kbps = seconds > 0 ?
				       bytes[cpu] / 1024.0 / seconds : 0;
		}
	}
	if (a->cpu < 0)
		return;
	k = worst * 1.2 / 1024;
	unit = k >= 1024 ? 1024 : 4;
	k = ceil(k / unit) * unit;
	if (k > SA_BUFFER_KB_MAX) {
		k = SA_BUFFER_KB_MAX;
		a->over_max = true;
	}
	a->need_kb = (guint64)k;
}
