// SPDX-License-Identifier: GPL-2.0
/*
 * Boot buffer sizing. The kmem count is that of a boot to user space of
 * Debian's 6.1 kernel in a 2-CPU, 512 MB QEMU guest with a 45 MB
 * initramfs (about 320,000 events), with some room for the drivers and
 * services of a real machine; the other groups are guesses; the bytes per event are
 * the ring-buffer record sizes of those events on x86_64 (4-byte header,
 * fields padded to 4 bytes). Early boot runs on CPU 0 alone, so one CPU's
 * buffer must hold nearly everything: the estimate is not divided by the
 * number of CPUs.
 */
#include <string.h>

#include "trace/boot-estimate.h"
#include "trace/events.h"

static const struct {
	enum sa_group group;
	const char *name;
	guint64 events;
	guint64 bytes_per_event;
} typical[] = {
	{ SA_GROUP_KMEM, "kmem", 350000, 56 },
	{ SA_GROUP_PAGE, "page", 150000, 44 },
	{ SA_GROUP_VMSCAN, "vmscan", 2000, 64 },
	{ SA_GROUP_COMPACTION, "compaction", 2000, 56 },
	{ SA_GROUP_OOM, "oom", 100, 64 },
	/* about 2,000 initcalls, 9 levels and the execs of user space */
	{ SA_GROUP_BOOT, "boot", 3000, 24 },
	/* vmap areas and percpu chunks of the drivers and modules loaded */
	{ SA_GROUP_VMALLOC, "vmalloc", 5000, 64 },
	{ SA_GROUP_PERCPU, "percpu", 5000, 80 },
};

#define MB_KB		((guint64)1024)
#define HEADROOM(x)	((x) + (x) / 4)	/* page headers, padding, variance */

static guint64 round_mb_kb(guint64 bytes)
{
	guint64 kb = (bytes + 1023) / 1024;

	return (kb + MB_KB - 1) / MB_KB * MB_KB;
}

void sa_boot_estimate(unsigned int groups, struct sa_boot_estimate *est)
{
	size_t i;

	memset(est, 0, sizeof(*est));
	for (i = 0; i < G_N_ELEMENTS(typical); i++) {
		struct sa_boot_share *s;

		if (!(groups & typical[i].group))
			continue;
		s = &est->shares[est->nr_shares++];
		s->group = typical[i].name;
		s->events = typical[i].events;
		s->bytes = typical[i].events * typical[i].bytes_per_event;
		est->total_bytes += s->bytes;
	}
	est->buffer_kb = round_mb_kb(HEADROOM(est->total_bytes));
}

char *sa_boot_cmdline(unsigned int groups, guint64 buffer_kb)
{
	const struct sa_event_desc *d;
	GString *s = g_string_new("trace_event=");
	gboolean first = TRUE;

	for (d = sa_event_table(); d->name; d++) {
		if (!(d->group & groups))
			continue;
		g_string_append_printf(s, "%s%s:%s", first ? "" : ",",
				       d->system, d->name);
		first = FALSE;
	}
	if (buffer_kb % MB_KB == 0)
		g_string_append_printf(s, " trace_buf_size=%" G_GUINT64_FORMAT
				       "M", buffer_kb / MB_KB);
	else
		g_string_append_printf(s, " trace_buf_size=%" G_GUINT64_FORMAT
				       "K", buffer_kb);
	g_string_append(s, " trace_clock=global");
	return g_string_free(s, FALSE);
}

guint64 sa_boot_needed_kb(int nr_cpus, const guint64 *bytes,
			  const guint64 *events, const guint64 *lost)
{
	guint64 worst = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		guint64 need;

		if (!events[cpu])
			continue;
		/* what it kept, scaled up to what it was sent */
		need = (guint64)((double)bytes[cpu] *
				 (events[cpu] + lost[cpu]) / events[cpu]);
		if (need > worst)
			worst = need;
	}
	if (!worst)
		return 0;
	return round_mb_kb(worst + worst / 5);
}
