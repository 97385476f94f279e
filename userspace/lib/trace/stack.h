/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel stacks in a trace: the ftrace kernel_stack entries that a
 * stacktrace trigger (slabacct record --stacks) or the stacktrace option
 * (trace-cmd record -T) writes into a CPU's buffer right after the event
 * they belong to. The reader decodes each one, interns its frames (the
 * same frames are the same pointer for the whole process, as
 * g_intern_string does for strings) and attaches it to its event
 * (sa_rec.stack), so a sink gets the stack with the record and never
 * sees the entry itself.
 */
#ifndef SLABACCT_TRACE_STACK_H
#define SLABACCT_TRACE_STACK_H

#include <stdbool.h>
#include <glib.h>

#include "trace/events.h"

/* An address range [lo, hi): a function's text, from kallsyms. */
struct sa_addr_range {
	guint64 lo, hi;
};

/* Frames kept of one stack: the kernel's own limit is of this order. */
#define SA_STACK_MAX	128

struct sa_stack {
	guint32 n;			/* frames */
	guint32 hash;
	guint64 ip[];			/* return addresses, innermost first */
};

/*
 * The interned stack of the n frames at ip (n at most SA_STACK_MAX, more
 * are dropped). Thread-safe; never freed.
 */
const struct sa_stack *sa_stack_intern(const guint64 *ip, guint32 n);

/*
 * A per-thread cache in front of sa_stack_intern, so that a stack seen
 * before is found without the lock: the same stacks come again and again.
 */
#define SA_STACK_CACHE	256		/* a power of 2 */
struct sa_stack_cache {
	const struct sa_stack *slot[SA_STACK_CACHE];
};
const struct sa_stack *sa_stack_intern_cached(struct sa_stack_cache *c,
					      const guint64 *ip, guint32 n);

/* Whether addr is one of the frames of st. */
bool sa_stack_has(const struct sa_stack *st, guint64 addr);

/*
 * How far back a stack looks for its event: an interrupt, or a softirq's
 * RCU batch of frees, may put its own events (each with its stack, when
 * every event takes one) between an event and its stack. The events of
 * the stack's CPU that have no stack yet are candidates, at most
 * SA_STACK_WINDOW of them, within the last SA_STACK_SCAN records of that
 * CPU. The rule counts a CPU's own records only, so that every reader
 * applies it alike: one stream per CPU or several CPUs merged, whatever
 * the chunks and segments the records came in.
 */
#define SA_STACK_WINDOW	8
#define SA_STACK_SCAN	512

/*
 * Attach the stack record s (ev SA_EV_STACK) to its event among the n
 * records at recs (in the order read; several CPUs may be mixed): the
 * newest candidate (see above) whose call site is one of the frames
 * (events with a call_site, trace/events.h), else the newest candidate
 * (events without a call site: vmalloc, pages). Returns false when there
 * is none (the stack is then dropped and counted).
 *
 * *scanned is how many records of s's CPU were looked at before recs (a
 * search that goes on into the records before an earlier run), and is
 * added to. When the search fails with *scanned < SA_STACK_SCAN, no
 * record of s's CPU in recs had no stack: the records before recs, if
 * any, are the ones to go on with.
 */
bool sa_stack_attach(struct sa_rec *recs, guint n, const struct sa_rec *s,
		     guint *scanned);

#endif /* SLABACCT_TRACE_STACK_H */
