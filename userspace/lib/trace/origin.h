/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a trace came from: the machine, the kernel, the ring buffer's
 * losses, and system snapshots taken at the start and end of recording.
 *
 * Written by the recorder into trace.dat (as trace.dat options) and read
 * back by every report. Files written by `trace-cmd record` carry only some
 * of it (uname, per-CPU stats); the rest is then NULL or 0.
 */
#ifndef SLABACCT_TRACE_ORIGIN_H
#define SLABACCT_TRACE_ORIGIN_H

#include <stdbool.h>
#include <glib.h>

struct sa_trace_origin {
	char *uname;		/* "Linux host 6.1.0-56-amd64 #1 SMP ..." */
	char *kernel_release;	/* "6.1.0-56-amd64" */
	char *kernel_version;	/* uname -v: "#1 SMP PREEMPT_DYNAMIC Debian
				 * 6.1.192-2 (2026-11-16)", from uname */
	char *kernel_build_id;	/* the GNU build ID of the traced kernel
				 * (/sys/kernel/notes), hex; or NULL */
	char *cmdline;		/* /proc/cmdline of the traced machine */
	char *recorder;		/* "slabacct record", "slabacct boot collect",
				 * "trace-cmd" ... */
	char *command;		/* the workload command line, or NULL */
	char *left_out;		/* what the recorder left out ("recorder
				 * threads, pids 1 2 (...)"), or NULL */
	char *filter;		/* the recording's filters in words, or NULL */
	char *scope;		/* what was recorded: "system: every task",
				 * "process tree: ...", "cgroup PATH: ..."
				 * (trace/scope.h); NULL: not said */
	char *clock;		/* trace clock: "local", "global", ... */
	guint64 start_ns;	/* first and last event timestamps, 0 if */
	guint64 end_ns;		/* unknown */
	int nr_cpus;
	guint64 *lost;		/* [nr_cpus] events lost (ring-buffer
				 * overruns), per CPU */
	guint64 lost_total;
	bool lost_known;	/* false when the file has no per-CPU stats */
	char *meminfo_start;	/* raw /proc/meminfo text, or NULL */
	char *meminfo_end;
	char *snapshot_start;	/* serialized system snapshot (JSON text, see
				 * snapshot/snapshot.h), or NULL */
	char *snapshot_end;
	/*
	 * The recording stopped before its end (a full disk, a signal
	 * before the workload ended): why, in words, or NULL. It counts as
	 * a loss, as lost events do.
	 */
	char *truncated;
	guint64 truncated_ns;	/* when, from the start of tracing */
	bool truncated_at_known;	/* false: when is not known */
	/* Added by the recorder: */
	int file_version;	/* trace.dat version: 6, 7 */
	char *tracer_version;	/* trace-cmd's VERSION option, or NULL */
	GHashTable *extra;	/* every blob of slabacct's origin section
				 * (trace/tracedat-format.h), key -> text, the
				 * ones above included; NULL if none */
};

/*
 * Read the origin of the trace.dat file at path. Returns 0, or -1 with
 * *err set (G_FILE_ERROR for I/O, or a message naming the file and the
 * offset of the damage).
 */
int sa_trace_origin_read(const char *path, struct sa_trace_origin *o,
			 GError **err);

/*
 * What the recording's filters imply for the figures, as notes for the
 * report (strings; free with g_ptr_array_unref). Empty if unfiltered.
 */
GPtrArray *sa_trace_origin_notes(const struct sa_trace_origin *o);

/* Free what sa_trace_origin_read filled in, and zero the struct. */
void sa_trace_origin_clear(struct sa_trace_origin *o);

#endif /* SLABACCT_TRACE_ORIGIN_H */
