/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot phases, a part of the timeline section: the initcall levels as the
 * kernel marks them, and init after them.
 *
 * A phase starts at an initcall:initcall_level event (its name is the
 * event's level: "console", "early", "pure", "core", "postcore", "arch",
 * "subsys", "fs", "device", "late") and lasts until the next phase. The
 * levels that ran before the boot's tracing started are simply absent:
 * the first phase is the first level seen. A level that repeats or
 * comes out of the kernel's order is kept where the trace has it, and
 * counted.
 *
 * The initcalls of a boot run in the thread that marks the levels, which
 * then execs the init process. "init" starts, by the shape of the events:
 *   - at the last initcall:initcall_finish of that thread before it execs
 *     (or before the end of the trace), when the trace has one after the
 *     last level;
 *   - else at that thread's sched:sched_process_exec;
 *   - else there is no init phase (the last level lasts to the end).
 * Initcalls of modules loaded by other processes are not the boot's.
 *
 * Per phase: allocations (a large kmalloc traced twice is one, a failed one
 * none), their bytes_alloc, and frees of objects allocated in the trace
 * with those objects' bytes_alloc, as the timeline's bins count them.
 * Events before the first level are counted apart ("before").
 */
#ifndef SLABACCT_AGG_PHASES_H
#define SLABACCT_AGG_PHASES_H

#include <stdbool.h>
#include <glib.h>

#include "trace/events.h"

/* A level name is cut at this many bytes; phases past the last are not
 * kept (their events go to the last one kept) but counted. */
#define SA_PHASE_NAME_MAX	32
#define SA_PHASES_MAX		64

struct sa_phase_counts {
	guint64 allocs, alloc_bytes;
	guint64 frees, freed_bytes;
};

struct sa_phase {
	char name[SA_PHASE_NAME_MAX + 1];	/* as traced, cut; "init" */
	guint64 start_ns;		/* trace time of its first event */
	struct sa_phase_counts c;
};

enum sa_init_from {
	SA_INIT_NONE,
	SA_INIT_FINISH,			/* the last initcall's finish */
	SA_INIT_EXEC,			/* the levels' thread's exec */
};

struct sa_phases {
	GArray *phases;			/* struct sa_phase */
	struct sa_phase_counts before;	/* before the first level */
	guint64 levels;			/* initcall_level events */
	guint64 dropped;		/* levels past SA_PHASES_MAX */
	guint64 repeated;		/* levels seen before */
	guint64 out_of_order;		/* levels before one seen earlier
					 * in the kernel's order */
	enum sa_init_from init_from;
};

/* The state while the trace is read. */
struct sa_phases_state {
	struct sa_phases res;
	gint32 pid;			/* of the last level event */
	int cur;			/* index of the current phase, or -1 */
	int last_rank;			/* kernel order of last level */
	guint32 ranks_seen;		/* bit per known level seen */
	bool init_done;			/* the init phase has started */
	bool have_cand;			/* an initcall finished since the
					 * last level */
	guint64 cand_ts;		/* its time */
	struct sa_phase_counts tail;	/* events since then */
};

void sa_phases_init(struct sa_phases_state *st);
/* Every initcall/exec/kmem record, in timestamp order. */
void sa_phases_event(struct sa_phases_state *st, const struct sa_rec *r);
/* The result (st is left empty); free it with sa_phases_clear. */
void sa_phases_finish(struct sa_phases_state *st, struct sa_phases *out);
void sa_phases_clear(struct sa_phases *ph);

/* "initcall_finish", "sched_process_exec" or NULL. */
const char *sa_init_from_name(enum sa_init_from f);

#endif /* SLABACCT_AGG_PHASES_H */
