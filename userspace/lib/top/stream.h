/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event stream behind top's tracefs source: every event of a tracefs
 * instance, read as the ring buffers fill, decoded by the report's
 * decoder and fed in timestamp order to a callback (the call-site
 * aggregator). Nothing is dropped on the way: an event is lost only if
 * the kernel overwrote it before a reader came, which the instance's
 * per-CPU stats count.
 *
 * One thread per CPU (trace/cpu-readers.c) copies the pages of its
 * trace_pipe_raw to memory as soon as the buffer reaches its watermark.
 * Every SA_TOP_STREAM_EPOCH_MS, and at each sync, a merger drains every
 * CPU (partly filled pages too), decodes the pages and feeds their
 * records, merged across CPUs by timestamp. With the instance on the
 * "mono" trace clock, records stamped after the drain began are held
 * for the next round: a record drained early on one CPU can then never
 * be fed before an earlier one that another CPU's drain had not reached
 * yet (an allocation and its free on another CPU stay in order).
 */
#ifndef SLABACCT_TOP_STREAM_H
#define SLABACCT_TOP_STREAM_H

#include <stdbool.h>
#include <glib.h>
#include <tracefs.h>

#include "report/pipeline.h"

#define SA_TOP_STREAM_EPOCH_MS	100

typedef void (*sa_top_feed_fn)(struct sa_rec *r, void *data);

struct sa_top_stream;

/*
 * Read inst's nr_cpus CPUs from now on (call before tracing is on),
 * decoding with dec (on tep) and feeding fn. The memory a CPU's pages
 * may take while they wait for the merger is bounded: past it, the
 * reader waits and the kernel's buffer takes the excess (or loses it,
 * counted). mono_clock: the instance stamps events with CLOCK_MONOTONIC
 * ("mono"), which lets records stamped after a drain wait for the next.
 * NULL with *err on error.
 */
struct sa_top_stream *sa_top_stream_start(struct tracefs_instance *inst,
					  int nr_cpus,
					  struct tep_handle *tep,
					  struct sa_decode *dec,
					  bool mono_clock, sa_top_feed_fn fn,
					  void *data, GError **err);

/*
 * Feed every record up to now, then call fn (if any) while no record is
 * fed: it may read what the records were fed to. 0, or -1 with *err if
 * a reader failed.
 */
int sa_top_stream_sync(struct sa_top_stream *s, void (*fn)(void *data),
		       void *data, GError **err);

/*
 * One round's merge (for the tests): feed the records of recs[0..n)
 * (each array in time order) stamped before t0, merged by timestamp,
 * equal ones from the lower array first, and remove them from their
 * arrays, which keep the later ones for the next round.
 */
void sa_top_stream_merge(GArray **recs, int n, guint64 t0,
			 sa_top_feed_fn fn, void *data);

/* Stop reading and free; the instance can then be removed. */
void sa_top_stream_free(struct sa_top_stream *s);

#endif /* SLABACCT_TOP_STREAM_H */
