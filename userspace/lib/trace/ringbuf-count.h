/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting the events in raw ring-buffer pages (as read from
 * trace_pipe_raw), by event type, without decoding them.
 */
#ifndef SLABACCT_RINGBUF_COUNT_H
#define SLABACCT_RINGBUF_COUNT_H

#include <glib.h>
#include <event-parse.h>

#define SA_RINGBUF_SMALL_IDS	4096

struct sa_ringbuf_counts {
	guint64 *small;		/* [SA_RINGBUF_SMALL_IDS] counts of ids
				 * below that, created on first use */
	GHashTable *by_id;	/* larger ids (GINT_TO_POINTER) ->
				 * guint64 * */
	guint64 events;
	guint64 pages;
	guint64 missed;		/* events the pages say were lost */
	guint64 first_ts, last_ts;	/* 0 when no events */
};

/*
 * Add the events of the pages in fd (from offset 0 to the end, page_size
 * bytes each, in this machine's byte order and long size) to c; tep
 * knows the event formats. Returns 0 or -1
 * with errno set.
 */
int sa_ringbuf_count_fd(struct tep_handle *tep, int fd, int page_size,
			struct sa_ringbuf_counts *c);

/* The count for one event id. */
guint64 sa_ringbuf_count_of(const struct sa_ringbuf_counts *c, int id);

void sa_ringbuf_counts_clear(struct sa_ringbuf_counts *c);

#endif /* SLABACCT_RINGBUF_COUNT_H */
