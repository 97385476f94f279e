/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who an event was for: the task (thread) that ran it, its name and its
 * cgroup at the time, for the report's --by comm, pid and cgroup.
 *
 * From what `slabacct record` saved: the task table at start and at end
 * (origin "tasks_start", "tasks_end", trace/tracedat-format.h), and the
 * sched_process_fork and sched_process_exec events, read in time order:
 * a task forked during the recording is in its parent's cgroup and has
 * its parent's name until it execs. A task the tables and events do not
 * know is named from the trace's saved cmdlines, with no cgroup.
 *
 * Work the kernel does in other contexts is a row of its own, never a
 * task's: an event in hard irq or NMI context ("[irq]"), in softirq
 * context ("[softirq]", from common_flags: ksoftirqd's too), and the
 * kernel's own threads (kworkers, writeback, kswapd; "[kthread] NAME").
 */
#ifndef SLABACCT_REPORT_TASKS_H
#define SLABACCT_REPORT_TASKS_H

#include <event-parse.h>

#include "report/report.h"
#include "trace/events.h"
#include "trace/origin.h"

enum sa_task_key {
	SA_TASK_COMM,		/* "git", "[kthread] kworker" */
	SA_TASK_PID,		/* "1234 git" */
	SA_TASK_CGROUP,		/* "/user.slice/...", "[kthreads]" */
};

struct sa_tasks;

/* The key of a --by that groups by task (sa_group_by_task()) */
enum sa_task_key sa_group_by_task_key(enum sa_group_by by);

/* From the origin's tables (either may be missing) and tep's cmdlines. */
struct sa_tasks *sa_tasks_new(const struct sa_trace_origin *o,
			      struct tep_handle *tep);
void sa_tasks_free(struct sa_tasks *t);

/* A sched_process_fork or sched_process_exec record, in time order. */
void sa_tasks_event(struct sa_tasks *t, const struct sa_rec *r);

/* The row of the event r (interned). */
const char *sa_tasks_row(struct sa_tasks *t, enum sa_task_key key,
			 const struct sa_rec *r);

/*
 * What the rows rest on, in words (for the report's notes), or NULL:
 * tables missing, tasks that changed cgroup, tasks not known.
 */
GPtrArray *sa_tasks_notes(const struct sa_tasks *t, enum sa_task_key key);

#endif /* SLABACCT_REPORT_TASKS_H */
