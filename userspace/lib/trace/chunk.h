/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit the report's readers hand to the merge: decoded records of one
 * stream, in timestamp order, with what was counted while reading them.
 */
#ifndef SLABACCT_TRACE_CHUNK_H
#define SLABACCT_TRACE_CHUNK_H

#include <stdbool.h>
#include <string.h>

#include <event-parse.h>

#include "trace/decode.h"
#include "trace/events.h"
#include "trace/stack.h"

#define CHUNK_RECS	4096

struct chunk {
	guint n;
	gboolean last;			/* the stream's last (stream readers) */
	guint64 nr_records;		/* records read, used or not */
	guint64 missed, missed_unknown;
	guint64 first_ts, last_ts;
	guint64 done, min_off;		/* bytes of event data read */
	guint64 stacks;			/* kernel stacks attached to events */
	guint64 stacks_lost;		/* kernel stacks with no event */
	/*
	 * bit cpu % 64: events of that CPU were lost before a record not
	 * kept (not in the event table); the next one kept gets SA_REC_GAP
	 */
	guint64 gap_pending;
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

/* chunk_add_record's answers */
enum {
	CHUNK_TAKEN,			/* decoded, counted (or not used) */
	CHUNK_FULL,			/* c is full: the record is for the next */
	CHUNK_ORPHAN,			/* a stack of the records before c */
};

/*
 * Decode rec (read by dec, on tep) into c. A kernel_stack entry is
 * attached to its event among c's last records (trace/stack.h), or
 * counted as lost: after events lost in the buffer, or with no event of
 * its CPU to go to. A record that follows events lost in the buffer is
 * marked (SA_REC_GAP), so that no stack after it goes to an event before
 * it. A full chunk is handed on only when the next record is not a
 * stack, and its last records go on with the next chunk (chunk_carry),
 * so that a stack always finds the records before it.
 *
 * orphan (not NULL): the records before c are another stream's (c
 * starts a segment, trace/segments.c). A stack that finds no event in c,
 * where the rule could look further back, is then counted as a record but
 * left for those records (CHUNK_ORPHAN): it stays decoded in c->r[c->n],
 * and *orphan is how many records the rule has looked at.
 *
 * Returns CHUNK_FULL when c is full and the record, in c->r[CHUNK_RECS],
 * must go to the next chunk (chunk_carry).
 */
static inline int chunk_add_record(struct chunk *c,
				   const struct sa_decode *dec,
				   struct tep_handle *tep,
				   struct tep_record *rec, guint *orphan)
{
	struct sa_rec *slot = &c->r[c->n];
	guint64 bit = 1ULL << (rec->cpu & 63);
	bool gap;

	if (sa_decode_record(dec, tep, rec, slot)) {
		chunk_count(c, rec);
		if (G_UNLIKELY(rec->missed_events))
			c->gap_pending |= bit;
		return CHUNK_TAKEN;
	}
	gap = rec->missed_events || (c->gap_pending & bit);
	c->gap_pending &= ~bit;
	if (G_UNLIKELY(gap))
		slot->flags |= SA_REC_GAP;
	if (G_UNLIKELY(slot->ev == SA_EV_STACK)) {
		guint scanned = 0;

		chunk_count(c, rec);
		if (gap || !slot->stack) {
			/*
			 * not kept: the loss before it goes to the next
			 * record kept, so that no later stack reaches over it
			 */
			if (gap)
				c->gap_pending |= bit;
			c->stacks_lost++;
			return CHUNK_TAKEN;
		}
		switch (sa_stack_attach(c->r, c->n, slot, &scanned)) {
		case SA_STACK_ATTACHED:
			c->stacks++;
			break;
		case SA_STACK_BEFORE:
			if (orphan) {
				*orphan = scanned;
				return CHUNK_ORPHAN;
			}
			/* fall through */
		case SA_STACK_UNMATCHED:
			c->stacks_lost++;
			break;
		}
		return CHUNK_TAKEN;
	}
	chunk_count(c, rec);
	if (G_UNLIKELY(c->n == CHUNK_RECS))
		return CHUNK_FULL;
	c->n++;
	return CHUNK_TAKEN;
}

/*
 * Move the last records of the full chunk from, and the record that
 * found it full, into the empty chunk to, before from is handed on, so
 * that a stack still finds its event there: the SA_STACK_SCAN records
 * the rule looks at, when the stream is one CPU's (one_cpu: the fast
 * path's streams, and libtracecmd's with a reader per CPU). A stream of
 * several CPUs carries half the chunk: a stack then finds its event if
 * at most that many records of any CPU came in between.
 */
static inline void chunk_carry(struct chunk *to, struct chunk *from,
			       bool one_cpu)
{
	guint carry = one_cpu ? SA_STACK_SCAN : CHUNK_RECS / 2;
	guint keep = CHUNK_RECS - carry;

	memcpy(&to->r[to->n], &from->r[keep],
	       (carry + 1) * sizeof(from->r[0]));
	to->n += carry + 1;
	to->gap_pending = from->gap_pending;
	from->n = keep;
}

#endif /* SLABACCT_TRACE_CHUNK_H */
