/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fast path of the report reader: the per-CPU ring-buffer pages of an
 * uncompressed trace.dat (version 6, what slabacct record writes) walked
 * in place with libtraceevent's kbuffer, with no allocation per record.
 * libtracecmd still opens the file for the event formats; files it would
 * adjust timestamps of (OFFSET, TIME_SHIFT, TSC2NSEC options), version 7
 * and latency files take libtracecmd's own iterator.
 */
#ifndef SLABACCT_REPORT_RAW_H
#define SLABACCT_REPORT_RAW_H

#include <sched.h>

#include <event-parse.h>

#include "report-check.h"

/* Whether the file of this layout can be read by the fast path. */
bool sa_raw_usable(const struct sa_tracedat_layout *lay);

typedef int (*sa_raw_fn)(struct tep_record *rec, void *data);

/*
 * Call fn for every record of the CPUs in cpus, in timestamp order (as
 * tracecmd_iterate_events does). map is the whole file, len bytes.
 * Pages are released from memory once read. A damaged page ends its CPU's
 * data; *bad_pages counts them. Returns 0, or what fn returned non-zero.
 */
int sa_raw_iterate(const guint8 *map, size_t len,
		   const struct sa_tracedat_layout *lay, const cpu_set_t *cpus,
		   sa_raw_fn fn, void *data, guint64 *bad_pages);

#endif /* SLABACCT_REPORT_RAW_H */
