/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The private tracefs instances of slabacct processes (record, top):
 * instances/slabacct-PID-STARTTIME, where STARTTIME is the process's start
 * time (/proc/self/stat, clock ticks since boot).
 *
 * A process holds its instance by a lock (flock on the instance's
 * directory) from its creation to its removal; the kernel drops the lock
 * when the process dies, however it dies. An instance nobody holds was
 * left by a process killed with SIGKILL (it still traces system-wide):
 * the next slabacct process that creates an instance removes it, whatever
 * now runs under that PID. Creation and that sweep are serialised by a
 * lock on the instances/ directory, so a sweep never takes an instance
 * between its creation and its lock. Instances named slabacct-PID, by
 * older builds that hold no lock, are removed only when no process has
 * that PID, and only by a process in the initial PID namespace (in
 * another, the PID means something else).
 *
 * A recording's instance notes its output's lock file in
 * /run/slabacct/NAME, for as long as the instance lives: a process killed
 * leaves that lock file too, and whoever finds its instance finds it.
 */
#ifndef SLABACCT_TRACE_INSTANCE_H
#define SLABACCT_TRACE_INSTANCE_H

#include <stdbool.h>

#include <glib.h>
#include <tracefs.h>

struct sa_instance {
	struct tracefs_instance *inst;
	const char *name;	/* instances/NAME */
	char *dir;		/* its full tracefs path */
	int lock_fd;		/* the instance directory, flock'ed */
	char *note;		/* /run/slabacct/NAME, or NULL */
};

/*
 * Remove the instances nobody holds, then create and hold a new one,
 * tracing off. Returns NULL with *err set on failure.
 */
struct sa_instance *sa_instance_create(GError **err);

/*
 * Note the lock file of the output written from i (util/outfile.h), for
 * whoever finds i left behind. Best effort: nothing is said on failure.
 */
void sa_instance_note_lock(struct sa_instance *i, const char *lock_path);

/* Stop tracing, remove the instance, release it, free i (NULL: nothing). */
void sa_instance_destroy(struct sa_instance *i);

/*
 * An instance no process holds: its creator (pid) died without removing
 * it, killed by SIGKILL. It keeps its ring buffers, and traces on if it
 * was recording.
 */
struct sa_stale_instance {
	char *name;		/* instances/NAME */
	char *dir;		/* its full tracefs path */
	long pid;		/* the process that created it */
	bool removed;
	char *lock;		/* its output's lock file, left too, or NULL */
	bool lock_removed;
};

/*
 * The instances that no process holds (see above), removed too if
 * remove, with their output's lock file if no process holds it: an array of struct sa_stale_instance (g_ptr_array_unref), empty
 * when there are none or tracefs cannot be read. An instance whose
 * creator (PID and start time) still runs is never taken for stale.
 */
GPtrArray *sa_instance_stale(bool remove);
void sa_stale_instance_free(struct sa_stale_instance *s);

#endif /* SLABACCT_TRACE_INSTANCE_H */
