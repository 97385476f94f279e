/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording covers (record --follow, --cgroup; the whole system
 * by default), set in the private instance and said in the origin
 * ("scope"), and the task tables the report groups by (origin
 * "tasks_start", "tasks_end").
 *
 * The kernel filters trace events by task with set_event_pid, and the
 * instance's event-fork option adds each child a listed task forks (both
 * since 4.7: on 6.1 and on 6.18 alike). No kernel filters trace events
 * by cgroup: no kmem event has a cgroup field, and tracefs has no cgroup
 * filter. So --cgroup lists the cgroup's threads (and its descendant
 * cgroups') in set_event_pid, re-read until no new one appears, and
 * follows their forks: a task moved into the cgroup after the start is
 * not recorded, and one that leaves it still is (the report's --by
 * cgroup shows every task's cgroup).
 */
#ifndef SLABACCT_SCOPE_H
#define SLABACCT_SCOPE_H

#include <stdbool.h>
#include <glib.h>
#include <tracefs.h>

#include "trace/tracedat-write.h"

enum sa_scope {
	SA_SCOPE_SYSTEM,
	SA_SCOPE_FOLLOW,	/* a process tree: pid and its descendants */
	SA_SCOPE_CGROUP,	/* a cgroup's tasks and their descendants */
};

/*
 * Set the scope in inst before tracing starts, and say it in td's
 * origin. pid: SA_SCOPE_FOLLOW's root; cgroup: SA_SCOPE_CGROUP's path
 * (in the cgroup2 hierarchy, or a path under its mount point). Returns
 * 0, or -1 with *err set (G_IO_ERROR_NOT_SUPPORTED: this kernel cannot;
 * G_IO_ERROR_INVALID_ARGUMENT: not a cgroup, or an empty one).
 */
int sa_scope_set(struct tracefs_instance *inst, struct sa_tracedat *td,
		 enum sa_scope scope, int pid, const char *cgroup,
		 GError **err);

/*
 * The task table now: one line per thread of /proc, "TID\tK\tCGROUP\tCOMM"
 * (K: 'k' for a kernel thread, else '-'; CGROUP, the cgroup2 path, and
 * COMM escaped as g_strescape() does). Free with g_free.
 */
char *sa_scope_tasks(void);

/* Parse one line of it; 0 and the fields (newly allocated), or -1. */
int sa_scope_task_parse(const char *line, int *tid, bool *kthread,
			char **cgroup, char **comm);

#endif /* SLABACCT_SCOPE_H */
