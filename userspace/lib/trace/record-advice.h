/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-buffer size a recording that lost events should have had.
 *
 * A CPU's reader drains its buffer while the CPU fills it; events are lost
 * when the unread backlog outgrows the buffer. Whatever the reading rate,
 * the backlog a larger buffer would have had to hold is at most the
 * buffer it had plus what was lost, so per CPU:
 *
 *	need = buffer + lost * bytes per event
 *
 * with the bytes per event of that CPU's own pages in the file (page
 * headers included), or the average of all CPUs when it kept none. The
 * advice is the largest need over the CPUs (-b is per CPU), 20% more,
 * rounded up to 4 KB (to 1 MB from 1 MB on). Only events lost to the
 * buffer count: those lost because the disk filled and the readers
 * stopped are not a buffer's fault.
 */
#ifndef SLABACCT_RECORD_ADVICE_H
#define SLABACCT_RECORD_ADVICE_H

#include <stdbool.h>
#include <glib.h>

#define SA_BUFFER_KB_MAX	(16u * 1024 * 1024)	/* record -b's limit */

struct sa_buffer_advice {
	guint64 need_kb;	/* the -b to advise; 0: nothing was lost */
	int cpu;		/* the CPU that needs the most */
	guint64 lost;		/* its events lost to the buffer */
	guint64 lost_bytes;	/* about that many bytes */
	double read_kbps;	/* what its reader kept, KB/s (0: unknown) */
	bool over_max;		/* need_kb was cut to SA_BUFFER_KB_MAX */
};

/*
 * Per CPU: bytes[] and events[] kept in the file, lost[] to the buffer;
 * buffer_kb per CPU during the recording, seconds its length (0: unknown).
 */
void sa_buffer_advise(int nr_cpus, const guint64 *bytes,
		      const guint64 *events, const guint64 *lost,
		      guint64 buffer_kb, double seconds,
		      struct sa_buffer_advice *a);

#endif /* SLABACCT_RECORD_ADVICE_H */
