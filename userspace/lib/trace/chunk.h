/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit the report's readers hand to the merge: decoded records of one
 * stream, in timestamp order, with what was counted while reading them.
 */
#ifndef SLABACCT_REPORT_CHUNK_H
#define SLABACCT_REPORT_CHUNK_H

#include <string.h>

#include <event-parse.h>

#include "trace/events.h"

#define CHUNK_RECS	2048

struct chunk {
	guint n;
	gboolean last;			/* the stream's last (stream readers) */
	guint64 nr_records;		/* records read, used or not */
	guint64 missed, missed_unknown;
	guint64 first_ts, last_ts;
	guint64 done, min_off;		/* bytes of event data read */
	struct sa_rec r[CHUNK_RECS];
};

static inline void chunk_reset(struct chunk *c)
{
	memset(c, 0, offsetof(struct chunk, r));
}

/* Count rec (read, used or not) in c. */
static inline void chunk_count(struct chunk *c, const struct tep_record *rec)
{
	c->nr_records++;
	if (G_UNLIKELY(rec->missed_events)) {
		if (rec->missed_events > 0)
			c->missed += rec->missed_events;
		else
			c->missed_unknown++;
	}
	if (G_UNLIKELY(!c->first_ts) || rec->ts < c->first_ts)
		c->first_ts = rec->ts;
	if (rec->ts > c->last_ts)
		c->last_ts = rec->ts;
}

#endif /* SLABACCT_REPORT_CHUNK_H */
