/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fast path of the report reader: the per-CPU ring-buffer pages of an
 * uncompressed trace.dat (version 6, what slabacct record writes) walked
 * in place with libtraceevent's kbuffer, with no allocation per record.
 * libtracecmd still opens the file for the event formats; files it would
 * adjust timestamps of (OFFSET, TIME_SHIFT, TSC2NSEC options), version 7
 * and latency files take libtracecmd's own iterator.
 */
#ifndef SLABACCT_TRACE_RAW_H
#define SLABACCT_TRACE_RAW_H

#include <event-parse.h>

#include "trace/check.h"

/* Whether the file of this layout can be read by the fast path. */
bool sa_raw_usable(const struct sa_tracedat_layout *lay);

typedef int (*sa_raw_fn)(struct tep_record *rec, void *data);

/*
 * Walk the pages in [off, off + size) of the file (one CPU's, starting on
 * a page boundary of its data) in order, calling fn with each record
 * (ts, cpu, data, size and missed_events set). map is the whole file, len
 * bytes. Each page is checked (trace/ringbuf-page.h) before kbuffer reads it,
 * and released from memory once read. Returns fn's non-zero return, -1
 * for a range outside the file, -2 for a damaged page (*dmg says where),
 * or 0.
 */
int sa_raw_iterate_range(const guint8 *map, size_t len,
			 const struct sa_tracedat_layout *lay, int cpu,
			 guint64 off, guint64 size, sa_raw_fn fn, void *data,
			 struct sa_page_damage *dmg);

/* The timestamp in a ring-buffer page's header. */
guint64 sa_raw_page_ts(const guint8 *page,
		       const struct sa_tracedat_layout *lay);

#endif /* SLABACCT_TRACE_RAW_H */
