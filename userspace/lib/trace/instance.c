// SPDX-License-Identifier: GPL-2.0
/*
 * Private tracefs instances, held by a lock (trace/instance.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "trace/instance.h"
#include "util/outfile.h"

#define PREFIX		"slabacct-"
#define PROC_PID_INIT_INO 0xEFFFFFFCU	/* the initial PID namespace */
#define LOCK_WAIT_MS	10000		/* for the instances/ lock */
#define MAX_SUFFIX	10		/* instances of one PID at once */
#define NOTES_DIR	"/run/slabacct"	/* NAME: its output's lock file */

static char *instances_dir(void)
{
	const char *t = tracefs_tracing_dir();

	return t ? g_build_filename(t, "instances", NULL) : NULL;
}

/* Lock dir (blocking, but not for ever); the fd, or -1 with errno set */
static int lock_dir(const char *dir, int wait_ms)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int waited = 0;

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || waited >= wait_ms) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		g_usleep(10 * 1000);
		waited += 10;
	}
	return fd;
}

/* A process's start time, clock ticks after boot (0 if unknown) */
static guint64 start_time_of(const char *stat_path)
{
	char *text = NULL, *p;
	guint64 t = 0;
	int field;

	if (!g_file_get_contents(stat_path, &text, NULL, NULL))
		return 0;
	/* after "pid (comm)": field 3 (state) onwards; starttime is 22 */
	p = strrchr(text, ')');
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = g_ascii_strtoull(p + 1, NULL, 10);
	g_free(text);
	return t;
}

static guint64 start_time(void)
{
	return start_time_of("/proc/self/stat");
}

/* Whether process pid runs, started at start (in our PID namespace) */
static bool runs(long pid, guint64 start)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	return start && start_time_of(path) == start;
}

static bool in_initial_pid_ns(void)
{
	struct stat st;

	return !stat("/proc/self/ns/pid", &st) &&
	       st.st_ino == PROC_PID_INIT_INO;
}

/*
 * NAME is one of ours: "slabacct-PID" (legacy) or "slabacct-PID-START"
 * with an optional "-N". Sets *pid, *start (0 if legacy) and *legacy.
 */
static bool our_name(const char *name, long *pid, guint64 *start,
		     bool *legacy)
{
	const char *p = name + strlen(PREFIX);
	int parts = 0;

	if (strncmp(name, PREFIX, strlen(PREFIX)))
		return false;
	*pid = strtol(p, NULL, 10);
	*start = 0;
	for (;;) {
		size_t n = strspn(p, "0123456789");

		if (!n)
			return false;
		if (++parts == 2)
			*start = g_ascii_strtoull(p, NULL, 10);
		p += n;
		if (!*p)
			break;
		if (*p++ != '-')
			return false;
	}
	*legacy = parts == 1;
	return *pid > 0 && parts <= 3;
}

void sa_stale_instance_free(struct sa_stale_instance *s)
{
	if (!s)
		return;
	g_free(s->name);
	g_free(s->dir);
	g_free(s->lock);
	g_free(s);
}

/* The notes directory, made if make: NULL unless there and ours alone */
static const char *notes_dir(bool make)
{
	struct stat st;

	if (make && mkdir(NOTES_DIR, 0700) && errno != EEXIST)
		return NULL;
	if (lstat(NOTES_DIR, &st) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077))
		return NULL;
	return NOTES_DIR;
}

/* The lock file noted for the stale instance s: found, removed if remove */
static void stale_lock(struct sa_stale_instance *s, bool remove)
{
	char *note, *lock = NULL;
	gsize len;

	if (!notes_dir(false))
		return;
	note = g_build_filename(NOTES_DIR, s->name, NULL);
	if (g_file_get_contents(note, &lock, &len, NULL) && len &&
	    g_path_is_absolute(lock) && strlen(lock) == len &&
	    !access(lock, F_OK)) {
		s->lock = lock;
		lock = NULL;
		if (remove)
			s->lock_removed = sa_outfile_remove_stale_lock(s->lock)
					  == 1;
	}
	if (remove)
		unlink(note);
	g_free(lock);
	g_free(note);
}

void sa_instance_note_lock(struct sa_instance *i, const char *lock_path)
{
	char *note;

	if (!i || !lock_path || !notes_dir(true))
		return;
	note = g_build_filename(NOTES_DIR, i->name, NULL);
	if (g_file_set_contents(note, lock_path, -1, NULL)) {
		g_free(i->note);
		i->note = note;
	} else {
		g_free(note);
	}
}

/*
 * The instances nobody holds under dir (instances/, locked), removed if
 * remove; each added to found (if not NULL).
 */
static void stale_locked(const char *dir, bool remove, GPtrArray *found)
{
	/* not tracefs_instances(): its regex is never freed (libtracefs) */
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	bool init_ns = in_initial_pid_ns();
	const char *n;
	guint i;

	while (d && (n = g_dir_read_name(d)))
		if (g_str_has_prefix(n, PREFIX))
			g_ptr_array_add(names, g_strdup(n));
	if (d)
		g_dir_close(d);
	for (i = 0; i < names->len; i++) {
		char *path = g_build_filename(dir, names->pdata[i], NULL);
		struct tracefs_instance *inst;
		struct sa_stale_instance *s;
		guint64 start;
		bool legacy;
		long pid;
		int fd;

		if (!our_name(names->pdata[i], &pid, &start, &legacy))
			goto next;
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			goto next;
		/* held: its process runs */
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			goto next;
		}
		/* an older build holds no lock: trust the PID, if we can */
		if (legacy && (!init_ns || kill(pid, 0) == 0 ||
			       errno != ESRCH)) {
			close(fd);
			goto next;
		}
		/* and its creator, still running, is never stale */
		if (!legacy && init_ns && runs(pid, start)) {
			close(fd);
			goto next;
		}
		s = g_new0(struct sa_stale_instance, 1);
		s->name = g_strdup(names->pdata[i]);
		s->dir = g_strdup(path);
		s->pid = pid;
		if (remove) {
			inst = tracefs_instance_alloc(NULL, names->pdata[i]);
			if (inst) {
				tracefs_instance_destroy(inst);
				tracefs_instance_free(inst);
			}
			s->removed = access(path, F_OK) != 0;
		}
		stale_lock(s, remove);
		close(fd);
		if (found)
			g_ptr_array_add(found, s);
		else
			sa_stale_instance_free(s);
next:
		g_free(path);
	}
	g_ptr_array_unref(names);
}

GPtrArray *sa_instance_stale(bool remove)
{
	GPtrArray *found = g_ptr_array_new_with_free_func(
				(GDestroyNotify)sa_stale_instance_free);
	char *dir = instances_dir();
	int fd = dir ? lock_dir(dir, LOCK_WAIT_MS) : -1;

	if (fd >= 0) {
		stale_locked(dir, remove, found);
		close(fd);
	}
	g_free(dir);
	return found;
}

static void fail(GError **err, int e, const char *what)
{
	g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e), "%s: %s",
		    what, g_strerror(e));
}

struct sa_instance *sa_instance_create(GError **err)
{
	struct sa_instance *i = g_new0(struct sa_instance, 1);
	char *dir = instances_dir(), *name = NULL;
	guint64 start = start_time();
	int dir_fd, n;

	i->lock_fd = -1;
	dir_fd = dir ? lock_dir(dir, LOCK_WAIT_MS) : -1;
	if (dir_fd < 0) {
		fail(err, dir ? errno : ENOENT,
		     "cannot lock the tracefs instances directory");
		goto fail;
	}
	stale_locked(dir, true, NULL);
	/* a name held by a live process (in another PID namespace): next */
	for (n = 0; n < MAX_SUFFIX && !i->inst; n++) {
		g_free(name);
		name = n ? g_strdup_printf(PREFIX "%d-%" G_GUINT64_FORMAT "-%d",
					   (int)getpid(), start, n)
			 : g_strdup_printf(PREFIX "%d-%" G_GUINT64_FORMAT,
					   (int)getpid(), start);
		i->inst = tracefs_instance_create(name);
		if (!i->inst) {
			fail(err, errno, "cannot create a tracefs instance");
			goto fail;
		}
		if (!tracefs_instance_is_new(i->inst)) {
			tracefs_instance_free(i->inst);
			i->inst = NULL;
		}
	}
	if (!i->inst) {
		fail(err, EEXIST, "cannot create a tracefs instance");
		goto fail;
	}
	/* a new instance traces at once: off until its owner starts it */
	tracefs_trace_off(i->inst);
	i->name = tracefs_instance_get_name(i->inst);
	i->dir = g_build_filename(dir, name, NULL);
	i->lock_fd = open(i->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* blocking: only a passing look (a test's flock -n) can hold it */
	if (i->lock_fd < 0 || flock(i->lock_fd, LOCK_EX)) {
		fail(err, errno, "cannot lock the new tracefs instance");
		goto fail;
	}
	close(dir_fd);
	g_free(dir);
	g_free(name);
	return i;
fail:
	if (dir_fd >= 0)
		close(dir_fd);
	g_free(dir);
	g_free(name);
	sa_instance_destroy(i);
	return NULL;
}

void sa_instance_destroy(struct sa_instance *i)
{
	if (!i)
		return;
	if (i->inst) {
		tracefs_trace_off(i->inst);
		tracefs_instance_destroy(i->inst);
		tracefs_instance_free(i->inst);
	}
	if (i->note)
		unlink(i->note);
	/* after the removal: a sweep must never see it unheld */
	if (i->lock_fd >= 0)
		close(i->lock_fd);
	g_free(i->note);
	g_free(i->dir);
	g_free(i);
}
