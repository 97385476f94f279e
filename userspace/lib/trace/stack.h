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
 * Which event a stack belongs to. The kernel writes a stack in the
 * context that recorded its event, right after it: the stacktrace option
 * as the event is committed, a stacktrace trigger (record --stacks) once
 * it is. An interrupt (a softirq's RCU batch of frees, say) may come in
 * between and record events of its own, as many as it likes, but the
 * task cannot be switched out. So the stack's event is the newest record
 * of its CPU made by the same task in the same context (task, softirq,
 * hard interrupt or NMI: the record's common_flags), and nothing else:
 * not a newer record of another context (an interrupt's), nor an older
 * one. The stack is not matched, and counted so, when that record has a
 * stack already, or when the buffer lost events of the CPU between it
 * and the stack (SA_REC_GAP on a record in between: the stack's own
 * event may be among them). The rule counts a CPU's own records only,
 * at most SA_STACK_SCAN of them, so that every reader applies it alike:
 * one stream per CPU or several CPUs merged, whatever the chunks and
 * segments the records came in.
 */
#define SA_STACK_SCAN	512

enum sa_stack_found {
	SA_STACK_ATTACHED,		/* to its event */
	SA_STACK_UNMATCHED,		/* no event may have it: count it */
	SA_STACK_BEFORE,		/* its event is before recs, if any */
};

/*
 * Attach the stack record s (ev SA_EV_STACK) to its event (above) among
 * the n records at recs (in the order read; several CPUs may be mixed).
 *
 * *scanned is how many records of s's CPU were looked at before recs (a
 * search that goes on into the records before an earlier run), and is
 * added to. SA_STACK_BEFORE: no record of s's CPU in recs was made in
 * its context, and fewer than SA_STACK_SCAN were looked at: the records
 * before recs, if any, are the ones to go on with (none: unmatched).
 */
enum sa_stack_found sa_stack_attach(struct sa_rec *recs, guint n,
				    const struct sa_rec *s, guint *scanned);

#endif /* SLABACCT_TRACE_STACK_H */
