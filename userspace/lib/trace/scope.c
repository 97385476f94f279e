// SPDX-License-Identifier: GPL-2.0
/*
 * What a recording covers, and the task tables (trace/scope.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "trace/fail.h"
#include "trace/scope.h"
#include "trace/tracedat-format.h"

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h */
/* set_event_pid is written in pieces of at most this many bytes */
#define PID_WRITE_MAX	2048
/* passes over a cgroup's threads until no new one appears */
#define SEED_PASSES	64

/* Where the cgroup2 hierarchy is mounted, or NULL. */
static char *cgroup2_mount(void)
{
	char *text = NULL, *mnt = NULL;
	gchar **lines;
	int i;

	if (!g_file_get_contents("/proc/self/mountinfo", &text, NULL, NULL))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i] && !mnt; i++) {
		const char *sep = strstr(lines[i], " - ");
		gchar **f;

		if (!sep || !g_str_has_prefix(sep + 3, "cgroup2 "))
			continue;
		f = g_strsplit(lines[i], " ", 6);
		if (g_strv_length(f) >= 5)
			mnt = g_strcompress(f[4]);	/* \040 and the like */
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(text);
	return mnt;
}

/* The cgroup2 path of the thread whose /proc directory is dir, or NULL. */
static char *cgroup_of(const char *dir)
{
	char *path = g_build_filename(dir, "cgroup", NULL), *text = NULL;
	char *cg = NULL;
	gchar **lines;
	int i;

	if (g_file_get_contents(path, &text, NULL, NULL)) {
		lines = g_strsplit(text, "\n", -1);
		for (i = 0; lines[i] && !cg; i++)
			if (g_str_has_prefix(lines[i], "0::"))
				cg = g_strdup(lines[i] + 3);
		g_strfreev(lines);
	}
	g_free(text);
	g_free(path);
	return cg;
}

/* The flags field of dir/stat (after the name in parentheses). */
static unsigned long task_flags(const char *dir)
{
	char *path = g_build_filename(dir, "stat", NULL), *text = NULL;
	unsigned long flags = 0;
	const char *p;
	int i;

	if (g_file_get_contents(path, &text, NULL, NULL) &&
	    (p = strrchr(text, ')'))) {
		/* ") S ppid pgrp session tty_nr tpgid flags" */
		for (i = 0; i < 7 && p; i++)
			p = strchr(p + 1, ' ');
		if (p)
			flags = strtoul(p + 1, NULL, 10);
	}
	g_free(text);
	g_free(path);
	return flags;
}

static void add_task(GString *s, const char *dir, const char *tid)
{
	char *path = g_build_filename(dir, "comm", NULL), *comm = NULL;
	char *cg, *ecg, *ecomm;

	if (!g_file_get_contents(path, &comm, NULL, NULL)) {
		g_free(path);
		return;		/* gone */
	}
	g_strchomp(comm);
	cg = cgroup_of(dir);
	ecg = g_strescape(cg ? cg : "", NULL);
	ecomm = g_strescape(comm, NULL);
	g_string_append_printf(s, "%s\t%c\t%s\t%s\n", tid,
			       task_flags(dir) & PF_KTHREAD ? 'k' : '-', ecg,
			       ecomm);
	g_free(ecg);
	g_free(ecomm);
	g_free(cg);
	g_free(comm);
	g_free(path);
}

static bool numeric(const char *n)
{
	return *n && strspn(n, "0123456789") == strlen(n);
}

char *sa_scope_tasks(void)
{
	GString *s = g_string_new(NULL);
	GDir *procs = g_dir_open("/proc", 0, NULL);
	const char *p, *t;

	while (procs && (p = g_dir_read_name(procs))) {
		char *tasks;
		GDir *d;

		if (!numeric(p))
			continue;
		tasks = g_build_filename("/proc", p, "task", NULL);
		d = g_dir_open(tasks, 0, NULL);
		while (d && (t = g_dir_read_name(d))) {
			char *dir;

			if (!numeric(t))
				continue;
			dir = g_build_filename(tasks, t, NULL);
			add_task(s, dir, t);
			g_free(dir);
		}
		if (d)
			g_dir_close(d);
		g_free(tasks);
	}
	if (procs)
		g_dir_close(procs);
	return g_string_free(s, FALSE);
}

int sa_scope_task_parse(const char *line, int *tid, bool *kthread,
			char **cgroup, char **comm)
{
	gchar **f = g_strsplit(line, "\t", 5);
	char *end;
	long v;
	int ret = -1;

	if (g_strv_length(f) != 4 || strlen(f[1]) != 1)
		goto out;
	errno = 0;
	v = strtol(f[0], &end, 10);
	if (errno || *end || end == f[0] || v < 0 || v > G_MAXINT32)
		goto out;
	*tid = v;
	*kthread = f[1][0] == 'k';
	*cgroup = g_strcompress(f[2]);
	*comm = g_strcompress(f[3]);
	ret = 0;
out:
	g_strfreev(f);
	return ret;
}

/* Every thread id in cgroup dir and its descendants, into tids. */
static void cgroup_threads(const char *dir, GHashTable *tids, int depth)
{
	char *path = g_build_filename(dir, "cgroup.threads", NULL);
	char *text = NULL;
	const char *n;
	GDir *d;

	if (g_file_get_contents(path, &text, NULL, NULL)) {
		gchar **lines = g_strsplit(text, "\n", -1);
		int i;

		for (i = 0; lines[i]; i++)
			if (numeric(lines[i]))
				g_hash_table_add(tids, GINT_TO_POINTER(
						 atoi(lines[i])));
		g_strfreev(lines);
	}
	g_free(text);
	g_free(path);
	if (depth > 64 || !(d = g_dir_open(dir, 0, NULL)))
		return;
	while ((n = g_dir_read_name(d))) {
		char *sub = g_build_filename(dir, n, NULL);

		if (g_file_test(sub, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(sub, G_FILE_TEST_IS_SYMLINK))
			cgroup_threads(sub, tids, depth + 1);
		g_free(sub);
	}
	g_dir_close(d);
}

/* Append the ids to set_event_pid, in pieces. */
static int write_pids(struct tracefs_instance *inst, GArray *ids,
		      GError **err)
{
	GString *s = g_string_new(NULL);
	guint i;
	int ret = 0;

	for (i = 0; i <= ids->len && !ret; i++) {
		if (s->len && (i == ids->len || s->len > PID_WRITE_MAX)) {
			if (tracefs_instance_file_append(inst, "set_event_pid",
							 s->str) < 0)
				ret = sa_trace_fail(err, G_IO_ERROR_FAILED,
					   "cannot write set_event_pid: %s",
					   g_strerror(errno));
			g_string_truncate(s, 0);
		}
		if (i < ids->len)
			g_string_append_printf(s, "%d ",
					       g_array_index(ids, int, i));
	}
	g_string_free(s, TRUE);
	return ret;
}

/*
 * The cgroup's threads into set_event_pid, again until a pass finds
 * none new: with event-fork on, a listed thread's children are added by
 * the kernel, so only a fork between a read and the write could escape,
 * and the next pass catches its child. Returns the threads listed.
 */
static int seed_cgroup(struct tracefs_instance *inst, const char *dir,
		       guint *listed, GError **err)
{
	GHashTable *done = g_hash_table_new(NULL, NULL);
	int pass, ret = 0;

	for (pass = 0; pass < SEED_PASSES && !ret; pass++) {
		GHashTable *now = g_hash_table_new(NULL, NULL);
		GArray *fresh = g_array_new(FALSE, FALSE, sizeof(int));
		GHashTableIter it;
		gpointer k;

		cgroup_threads(dir, now, 0);
		g_hash_table_iter_init(&it, now);
		while (g_hash_table_iter_next(&it, &k, NULL)) {
			int tid = GPOINTER_TO_INT(k);

			if (g_hash_table_add(done, k))
				g_array_append_val(fresh, tid);
		}
		if (fresh->len)
			ret = write_pids(inst, fresh, err);
		g_hash_table_unref(now);
		if (!fresh->len) {
			g_array_unref(fresh);
			break;
		}
		g_array_unref(fresh);
	}
	*listed = g_hash_table_size(done);
	g_hash_table_unref(done);
	return ret;
}

/* The cgroup's directory: a path under the mount, or one inside it. */
static char *cgroup_dir(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!strncmp(path, mnt, n) && (path[n] == '/' || !path[n]))
		return g_strdup(path);
	return g_build_filename(mnt, path, NULL);
}

static int pid_filter_ready(struct tracefs_instance *inst, GError **err)
{
	if (!tracefs_file_exists(inst, "set_event_pid") ||
	    !tracefs_option_is_supported(inst, TRACEFS_OPTION_EVENT_FORK))
		return sa_trace_fail(err, G_IO_ERROR_NOT_SUPPORTED,
			    "this kernel's tracefs has no set_event_pid or no "
			    "event-fork option: it cannot follow a task's "
			    "children (4.7 and later can)");
	if (tracefs_option_enable(inst, TRACEFS_OPTION_EVENT_FORK))
		return sa_trace_fail(err, G_IO_ERROR_FAILED,
			    "cannot set the instance's event-fork option");
	return 0;
}

int sa_scope_set(struct tracefs_instance *inst, struct sa_tracedat *td,
		 enum sa_scope scope, int pid, const char *cgroup,
		 GError **err)
{
	char *mnt, *dir, *text, buf[32];
	const char *rel;
	guint listed = 0;
	int ret;

	if (scope == SA_SCOPE_SYSTEM) {
		sa_tracedat_set_origin(td, SA_ORIGIN_SCOPE,
				       "system: every task");
		return 0;
	}
	if (scope == SA_SCOPE_FOLLOW) {
		if (pid_filter_ready(inst, err))
			return -1;
		snprintf(buf, sizeof(buf), "%d", pid);
		if (tracefs_instance_file_write(inst, "set_event_pid",
						buf) < 0)
			return sa_trace_fail(err, G_IO_ERROR_FAILED,
				    "cannot write set_event_pid: %s",
				    g_strerror(errno));
		text = g_strdup_printf("process tree: the command (pid %d) "
				       "and its descendants (set_event_pid, "
				       "event-fork)", pid);
		sa_tracedat_set_origin(td, SA_ORIGIN_SCOPE, text);
		g_free(text);
		return 0;
	}
	mnt = cgroup2_mount();
	if (!mnt)
		return sa_trace_fail(err, G_IO_ERROR_NOT_SUPPORTED,
			    "--cgroup needs the cgroup2 hierarchy, and none "
			    "is mounted");
	dir = cgroup_dir(mnt, cgroup);
	text = g_build_filename(dir, "cgroup.threads", NULL);
	if (!g_file_test(text, G_FILE_TEST_EXISTS)) {
		ret = sa_trace_fail(err, G_IO_ERROR_INVALID_ARGUMENT,
			   "'%s' is not a cgroup2 directory (%s has no "
			   "cgroup.threads)", cgroup, dir);
		goto out;
	}
	ret = pid_filter_ready(inst, err);
	if (!ret) {
		/* an empty cgroup is refused below, before tracing on */
		ret = seed_cgroup(inst, dir, &listed, err);
	}
	if (!ret && !listed)
		ret = sa_trace_fail(err, G_IO_ERROR_INVALID_ARGUMENT,
			   "cgroup '%s' has no task: the kernel filters by "
			   "task, not by cgroup, so an empty cgroup cannot be "
			   "recorded (start the workload with --follow)",
			   cgroup);
	rel = dir + strlen(mnt);
	if (!ret) {
		char *words = g_strdup_printf(
			"cgroup %s: its %u threads at the start and their "
			"descendants (set_event_pid, event-fork; tasks moved "
			"into it later are not recorded)",
			rel[0] ? rel : "/", listed);

		sa_tracedat_set_origin(td, SA_ORIGIN_SCOPE, words);
		g_free(words);
	}
out:
	g_free(text);
	g_free(dir);
	g_free(mnt);
	return ret;
}
