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
 */
#ifndef SLABACCT_TRACE_INSTANCE_H
#define SLABACCT_TRACE_INSTANCE_H

#include <glib.h>
#include <tracefs.h>

struct sa_instance {
	struct tracefs_instance *inst;
	const char *name;	/* instances/NAME */
	char *dir;		/* its full tracefs path */
	int lock_fd;		/* the instance directory, flock'ed */
};

/*
 * Remove the instances nobody holds, then create and hold a new one,
 * tracing off. Returns NULL with *err set on failure.
 */
struct sa_instance *sa_instance_create(GError **err);

/* Stop tracing, remove the instance, release it, free i (NULL: nothing). */
void sa_instance_destroy(struct sa_instance *i);

/* Remove the instances that no process holds (see above). */
void sa_instance_remove_stale(void);

#endif /* SLABACCT_TRACE_INSTANCE_H */
