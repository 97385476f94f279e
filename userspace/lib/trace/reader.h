/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a trace.dat: its structure checked first (trace/check.c), then
 * its records decoded (trace/decode.h) by reader threads and handed to a sink
 * in timestamp order. The reader knows the event table, not what is made
 * of the records.
 */
#ifndef SLABACCT_TRACE_READER_H
#define SLABACCT_TRACE_READER_H

#include <stdbool.h>
#include <glib.h>

#include "trace/events.h"

struct tep_handle;

struct sa_read_opts {
	int threads;			/* reader threads; 0 = automatic */
	bool no_raw;			/* read through libtracecmd's
					 * iterator, not trace/raw.c */
	/*
	 * Called now and then (from the calling thread), with the bytes of
	 * event data read and in the file; NULL: none.
	 */
	void (*progress)(void *data, guint64 done, guint64 total);
	void *progress_data;
};

/* What was read, besides the records. */
struct sa_read_counts {
	guint64 nr_records;		/* every record in the file */
	guint64 nr_used;		/* records the table knows */
	guint64 missed_events;		/* ring-buffer pages flagged lost */
	guint64 missed_pages_unknown;	/* pages lost, count unknown */
	guint64 first_ts, last_ts;	/* of the records read */
	guint64 stacks;			/* kernel stacks, each attached to
					 * its event (sa_rec.stack) */
	guint64 stacks_lost;		/* kernel stacks with no event to go
					 * to (after lost events) */
};

/* Where the records go. Callbacks get data; any may be NULL. */
struct sa_read_sink {
	/*
	 * The file's headers are read (tep is its handle), no record yet.
	 * Returns 0, or -1 with *err set: the read ends with that error.
	 */
	int (*opened)(void *data, struct tep_handle *tep, GError **err);
	/* Each record the table knows, in timestamp order. */
	void (*record)(void *data, struct sa_rec *r);
	/* Whether the sink wants no more records (checked now and then). */
	bool (*stopped)(void *data);
	/*
	 * Every record is read and the trace is still open (tep). Not called
	 * when the file was damaged or the sink stopped. 0, or -1 (*err).
	 */
	int (*done)(void *data, struct tep_handle *tep,
		    const struct sa_read_counts *c, GError **err);
	/* The decoder's findings: ids present ([SA_EV_NR]), notes. */
	bool *ev_present;
	GPtrArray *notes;
	void *data;
};

/*
 * Read path into sink. Returns 0; 1 if the sink stopped the read; or -1
 * with *err naming the file (and the offset, when the damage is at a
 * known place).
 */
int sa_trace_read(const char *path, const struct sa_read_opts *o,
		  const struct sa_read_sink *sink, GError **err);

#endif /* SLABACCT_TRACE_READER_H */
