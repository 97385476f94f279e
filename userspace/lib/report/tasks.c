// SPDX-License-Identifier: GPL-2.0
/*
 * Who an event was for (report/tasks.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/tasks.h"
#include "trace/scope.h"
#include "trace/tracedat-format.h"

#define COMM_LEN	16	/* TASK_COMM_LEN: 15 characters */

struct task {
	const char *comm;	/* interned */
	const char *cgroup;	/* interned, or NULL: not known */
	bool kthread;
};

struct sa_tasks {
	GHashTable *now;	/* tid -> struct task: as of the event */
	GHashTable *end;	/* tid -> struct task: the table at the end */
	struct tep_handle *tep;
	bool have_start, have_end;
	guint64 forks, unknown_cgroup, moved;
	GHashTable *unknown;	/* tids with no table entry and no fork */
};

static void table_parse(GHashTable *t, const char *text)
{
	gchar **lines = g_strsplit(text, "\n", -1);
	int i;

	for (i = 0; lines[i]; i++) {
		struct task *k;
		char *cg, *comm;
		bool kt;
		int tid;

		if (sa_scope_task_parse(lines[i], &tid, &kt, &cg, &comm))
			continue;
		k = g_new0(struct task, 1);
		k->comm = g_intern_string(comm);
		k->cgroup = *cg ? g_intern_string(cg) : NULL;
		k->kthread = kt;
		g_hash_table_replace(t, GINT_TO_POINTER(tid), k);
		g_free(cg);
		g_free(comm);
	}
	g_strfreev(lines);
}

struct sa_tasks *sa_tasks_new(const struct sa_trace_origin *o,
			      struct tep_handle *tep)
{
	struct sa_tasks *t = g_new0(struct sa_tasks, 1);
	const char *v;

	t->now = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	t->end = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	t->unknown = g_hash_table_new(NULL, NULL);
	t->tep = tep;
	if (o && o->extra) {
		if ((v = g_hash_table_lookup(o->extra,
					     SA_ORIGIN_TASKS_START))) {
			table_parse(t->now, v);
			t->have_start = true;
		}
		if ((v = g_hash_table_lookup(o->extra,
					     SA_ORIGIN_TASKS_END))) {
			table_parse(t->end, v);
			t->have_end = true;
		}
	}
	return t;
}

void sa_tasks_free(struct sa_tasks *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->now);
	g_hash_table_destroy(t->end);
	g_hash_table_destroy(t->unknown);
	g_free(t);
}

/* The task tid as of now; made up from what is known if need be. */
static struct task *task_of(struct sa_tasks *t, int tid)
{
	struct task *k = g_hash_table_lookup(t->now, GINT_TO_POINTER(tid));
	const struct task *e;
	const char *c;
	char buf[32];

	if (k)
		return k;
	k = g_new0(struct task, 1);
	e = g_hash_table_lookup(t->end, GINT_TO_POINTER(tid));
	if (tid == 0) {
		k->comm = g_intern_static_string("swapper");
		k->kthread = true;
	} else if (e) {
		*k = *e;
	} else {
		c = t->tep ? tep_data_comm_from_pid(t->tep, tid) : NULL;
		if (!c || !strcmp(c, "<...>")) {
			snprintf(buf, sizeof(buf), "pid-%d", tid);
			c = buf;
		}
		k->comm = g_intern_string(c);
		g_hash_table_add(t->unknown, GINT_TO_POINTER(tid));
	}
	g_hash_table_insert(t->now, GINT_TO_POINTER(tid), k);
	return k;
}

void sa_tasks_event(struct sa_tasks *t, const struct sa_rec *r)
{
	struct task *k, *parent;
	char name[COMM_LEN];
	const char *s;

	if (r->ev == SA_EV_FORK && (r->have & (1u << SA_FK_CHILD))) {
		int child = (int)r->v[SA_FK_CHILD];

		parent = task_of(t, (int)r->v[SA_FK_PARENT]);
		k = g_new0(struct task, 1);
		*k = *parent;
		/* kthreadd's children are kernel threads */
		if (r->v[SA_FK_PARENT] == 2)
			k->kthread = true;
		if ((r->have & (1u << SA_FK_COMM)) && r->v[SA_FK_COMM])
			k->comm = (const char *)(uintptr_t)r->v[SA_FK_COMM];
		g_hash_table_replace(t->now, GINT_TO_POINTER(child), k);
		t->forks++;
	} else if (r->ev == SA_EV_EXEC &&
		   (r->have & (1u << SA_EX_FILENAME)) &&
		   (s = (const char *)(uintptr_t)r->v[SA_EX_FILENAME])) {
		k = task_of(t, r->pid);
		/* the kernel names the task after the file's base name */
		if (strrchr(s, '/'))
			s = strrchr(s, '/') + 1;
		g_strlcpy(name, s, sizeof(name));
		k->comm = g_intern_string(name);
		k->kthread = false;	/* a kernel thread that execs (a
					 * usermode helper) is a process */
	}
}

/* "kworker/u8:2-events" -> "kworker" */
static const char *kthread_base(const char *comm)
{
	const char *slash = strchr(comm, '/');
	char buf[COMM_LEN + 12];

	snprintf(buf, sizeof(buf), "[kthread] %.*s",
		 (int)(slash ? slash - comm : (int)strlen(comm)), comm);
	return g_intern_string(buf);
}

const char *sa_tasks_row(struct sa_tasks *t, enum sa_task_key key,
			 const struct sa_rec *r)
{
	struct task *k;
	char buf[64];

	/* a hard interrupt (or NMI) in a softirq is the interrupt's */
	if (r->flags & (SA_REC_NMI | SA_REC_HARDIRQ))
		return g_intern_static_string("[irq]");
	if (r->flags & SA_REC_SOFTIRQ)
		return g_intern_static_string("[softirq]");
	k = task_of(t, r->pid);
	switch (key) {
	case SA_TASK_COMM:
		return k->kthread ? kthread_base(k->comm) : k->comm;
	case SA_TASK_PID:
		snprintf(buf, sizeof(buf), "%s%d %s",
			 k->kthread ? "[kthread] " : "", r->pid, k->comm);
		return g_intern_string(buf);
	case SA_TASK_CGROUP:
	default:
		if (k->kthread)
			return g_intern_static_string("[kthreads]");
		return k->cgroup ? k->cgroup :
		       g_intern_static_string("[cgroup unknown]");
	}
}

GPtrArray *sa_tasks_notes(const struct sa_tasks *t, enum sa_task_key key)
{
	GPtrArray *n = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer tid, val;
	guint moved = 0;

	if (!t->have_start)
		g_ptr_array_add(n, g_strdup(
			"the trace has no task table (not recorded by this "
			"slabacct record): tasks are named from its saved "
			"cmdlines, and have no cgroup"));
	g_ptr_array_add(n, g_strdup(
		"events in irq or softirq context are rows of their own "
		"([irq], [softirq]), and the kernel's threads (kworkers, "
		"writeback, kswapd) are [kthread] rows: work the kernel does "
		"in those contexts is not charged to the task it ran beside"));
	if (key == SA_TASK_CGROUP) {
		g_hash_table_iter_init(&it, t->now);
		while (g_hash_table_iter_next(&it, &tid, &val)) {
			const struct task *a = val, *b;

			b = g_hash_table_lookup(t->end, tid);
			if (b && a->cgroup && b->cgroup &&
			    a->cgroup != b->cgroup)
				moved++;
		}
		if (moved)
			g_ptr_array_add(n, g_strdup_printf(
				"%u tasks changed cgroup during the recording: "
				"their events are counted in the cgroup they "
				"had at the start (or, forked later, their "
				"parent's)", moved));
	}
	if (g_hash_table_size(t->unknown) && t->have_start)
		g_ptr_array_add(n, g_strdup_printf(
			"%u tasks were in neither task table nor forked in the "
			"trace (a fork event lost, or a thread gone before "
			"the end): named from the saved cmdlines%s",
			g_hash_table_size(t->unknown),
			key == SA_TASK_CGROUP ? ", with no cgroup" : ""));
	return n;
}
