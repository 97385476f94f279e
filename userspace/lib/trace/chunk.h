/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit the report's readers hand to the merge: decoded records of one
 * stream, in timestamp order, with what was counted while reading them.
 */
#ifndef SLABACCT_REPORT_CHUNK_H
#define SLABACCT_REPORT_CHUNK_H

#include <string.h>

#include <event-parse.h>

#include "trace/decode.h"
#include "trace/events.h"
#include "trace/stack.h"

#define CHUNK_RECS	2048

struct chunk {
	guint n;
	gboolean last;			/* the stream's last (stream readers) */
	guint64 nr_records;		/* records read, used or not */
	guint64 missed, missed_unknown;
	guint64 first_ts, last_ts;
	guint64 done, min_off;		/* bytes of event data read */
	guint64 stacks;			/* kernel stacks attached to events */
	guint64 stacks_lost;		/* kernel stacks with no event */
	/* one more: the record that finds the chunk full, for the next */
	struct sa_rec r[CHUNK_RECS + 1];
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

/*
 * Decode rec (read by dec, on tep) into c. A kernel_stack entry is
 * attached to its event among c's last records, or counted as lost:
 * after events lost in the buffer, or with no event of its CPU to go to.
 * A full chunk is handed on only when the next record is not a stack, and
 * its last records go on with the next chunk (chunk_carry), so that a
 * stack always finds the event before it. Returns 1 when c is full and
 * the record, in c->r[CHUNK_RECS], must go to the next chunk
 * (chunk_carry); else 0.
 */
static inline int chunk_add_record(struct chunk *c,
				   const struct sa_decode *dec,
				   struct tep_handle *tep,
				   struct tep_record *rec)
{
	struct sa_rec *slot = &c->r[c->n];

	chunk_count(c, rec);
	if (sa_decode_record(dec, tep, rec, slot))
		return 0;
	if (G_UNLIKELY(slot->ev == SA_EV_STACK)) {
		if (!rec->missed_events && slot->stack &&
		    sa_stack_attach(c->r, c->n, slot))
			c->stacks++;
		else
			c->stacks_lost++;
		return 0;
	}
	if (G_UNLIKELY(c->n == CHUNK_RECS))
		return 1;
	c->n++;
	return 0;
}

/*
 * The last records of a full chunk move on with the next one: a stack
 * that comes after its event and other CPUs' records (a reader of
 * several CPUs gets them merged in time order) still finds it.
 */
#define CHUNK_CARRY	64

/*
 * Move the last CHUNK_CARRY records of the full chunk from, and the
 * record that found it full, into the empty chunk to, before from is
 * handed on.
 */
static inline void chunk_carry(struct chunk *to, struct chunk *from)
{
	guint keep = CHUNK_RECS - CHUNK_CARRY;

	memcpy(&to->r[to->n], &from->r[keep],
	       (CHUNK_CARRY + 1) * sizeof(from->r[0]));
	to->n += CHUNK_CARRY + 1;
	from->n = keep;
}

#endif /* SLABACCT_REPORT_CHUNK_H */
