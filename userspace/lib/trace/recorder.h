/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live recorder behind `slabacct record`: a private tracefs instance,
 * one reader thread per CPU splicing trace_pipe_raw into a temporary file
 * beside the output, and at the end a trace.dat assembled from them.
 */
#ifndef SLABACCT_RECORDER_H
#define SLABACCT_RECORDER_H

#include <stdbool.h>
#include <glib.h>

#include "util/outfile.h"
#include "trace/ringbuf-count.h"
#include "trace/scope.h"

/* Kernel stacks with the events (record --stacks). */
enum sa_stacks {
	SA_STACKS_NONE,
	/*
	 * A stacktrace trigger on each allocation event, filtered on
	 * call_site within stack_ranges (the wrappers' functions), and on
	 * mm_page_alloc (which has no call site)
	 */
	SA_STACKS_WRAPPERS,
	SA_STACKS_ALL,			/* the stacktrace option: every event */
};

struct sa_record_opts {
	unsigned int groups;	/* enum sa_group mask */
	const char *output;
	struct sa_outfile_opts out;	/* mode, symlinks (util/outfile.h) */
	int buffer_kb;		/* per CPU; 0: the kernel's default */
	enum sa_scope scope;	/* the system, a process tree, a cgroup */
	int follow_pid;		/* SA_SCOPE_FOLLOW's root (stopped until
				 * tracing is on) */
	const char *cgroup;	/* SA_SCOPE_CGROUP's path */
	int pid;		/* only this pid's events; 0: all */
	const char *comm;	/* only this command's events; NULL: all */
	guint64 gfp_mask;	/* events with gfp_flags must have one of
				 * these bits; 0: no filter */
	guint64 site_lo;	/* allocations (events with call_site and
				 * bytes_alloc) must have call_site in */
	guint64 site_hi;	/* [site_lo, site_hi); site_hi 0: no filter.
				 * Frees are kept: their call_site is the
				 * freeing function's */
	const char *site_name;	/* the --call-site argument, for the origin */
	enum sa_stacks stacks;
	GArray *stack_ranges;	/* struct sa_addr_range (trace/stack.h),
				 * sorted: SA_STACKS_WRAPPERS's call sites */
	const char *recorder;	/* "slabacct record" */
	const char *command;	/* the workload's command line, or NULL */
	bool no_snapshot;	/* no system snapshots at start and end */
	/* takes the system snapshots (trace/meta.h); NULL: none */
	char *(*snapshot)(void);
	bool trace_self;	/* keep the recorder's own threads' events */
	bool self_by_filter;	/* leave them out by an event filter even
				 * where set_event_notrace_pid exists */
};

struct sa_record_event_count {
	char *system;
	char *name;
	guint64 count;
};

struct sa_record_result {
	int nr_cpus;
	guint64 *lost;		/* [nr_cpus], from per_cpu/cpuN/stats */
	guint64 lost_total;
	guint64 events;
	GPtrArray *counts;	/* struct sa_record_event_count, table order */
	guint64 file_bytes;
	guint64 *cpu_bytes;	/* [nr_cpus] ring-buffer pages recorded */
	guint64 *cpu_events;	/* [nr_cpus] events in them */
	guint64 *lost_stopped;	/* [nr_cpus] of lost[], those lost after
				 * the CPU's reader stopped on an error (a
				 * full disk): not the buffer's fault */
	guint64 lost_stopped_total;
	guint64 buffer_kb;	/* per CPU, as the kernel had it (0: unknown) */
	double seconds;		/* from tracing on to off */
	bool disk_full;		/* the output was cut short; it is readable */
	char *no_buffer;	/* online CPUs with no ring buffer, none of
				 * whose events were recorded: "1" or "1 3";
				 * or NULL (the file's origin says so too) */
	char *offline;		/* offline CPUs (no ring buffer, nothing to
				 * record), the same way */
	char *truncated;	/* why the recording stopped early (a full
				 * disk, sa_recorder_stopped_early), as the
				 * file's origin says too; NULL: complete */
	guint64 truncated_ns;	/* when: from the start of tracing */
	bool truncated_at_known;	/* false: truncated_ns unknown (a boot) */
	bool no_origin;		/* disk_full, and the disk filled while the
				 * file was assembled: it ends with what
				 * fitted of the CPU data, with no origin
				 * section (trace-cmd reads it; slabacct's
				 * reader refuses it as cut short) */
	char *buffer_failed;	/* boot: CPUs that did not come up because
				 * their ring buffer could not be allocated
				 * (the kernel log says so), the same way */
};

struct sa_recorder;

/*
 * Open the output (a new file beside it, util/outfile.h: nothing at the path
 * changes before the end), create the instance, enable the events and
 * start reading. The recorder's own threads are left out (unless
 * opts->trace_self) by set_event_notrace_pid where tracefs has it, else
 * by an event filter on common_pid, and the origin says so (left_out).
 * Events missing on this kernel are listed in *missing
 * ("system:name" strings, caller frees with g_ptr_array_unref), except
 * those whose kind another event covers (sa_event_desc.alt). On error
 * nothing is left behind (no instance, no new file, an earlier file at
 * the path as it was) and NULL is returned with *err set;
 * G_IO_ERROR_NOT_FOUND means no requested event exists,
 * G_IO_ERROR_INVALID_ARGUMENT a filter the kernel refused (or a bad
 * --cgroup), G_IO_ERROR_NOT_SUPPORTED a scope this kernel cannot
 * filter, G_IO_ERROR_BUSY another process writing the same output.
 * Whatever -e says, sched_process_fork and sched_process_exec are
 * recorded too, and the task table is kept at start and end
 * (trace/scope.h), for the report's --by comm, pid and cgroup.
 */
struct sa_recorder *sa_recorder_start(const struct sa_record_opts *opts,
				      GPtrArray **missing, GError **err);

/* The instance's name (under tracefs instances/), and its full path. */
const char *sa_recorder_instance(struct sa_recorder *r);
const char *sa_recorder_instance_dir(struct sa_recorder *r);

/* True once a reader had to stop (the disk is full, or an I/O error). */
bool sa_recorder_failed(struct sa_recorder *r);

/*
 * Stop, write the trace.dat, rename it into place and remove the
 * instance; frees r. Returns 0, or -1 with *err set (and nothing at the
 * output path changed). When the disk filled, the file cut short is
 * still readable and put in place, res->disk_full is set and -1 is
 * returned.
 */
int sa_recorder_stop(struct sa_recorder *r, struct sa_record_result *res,
		     GError **err);

/*
 * `slabacct boot collect`: stop the top-level buffer (which the kernel
 * command line filled from boot) before anything else, disable its
 * events, and save what it holds into output like sa_recorder_stop(),
 * but never a file cut short: G_IO_ERROR_NO_SPACE, with nothing read,
 * when the output's file system has not the room the buffer needs
 * (tracing then stays off, the buffer whole); a full disk while writing
 * all the same leaves no file. Another failure before anything is read
 * (a refused output) leaves tracing on if it was. The readers
 * splice pages into per-CPU files beside the output: the memory used
 * does not grow with the buffer. G_IO_ERROR_NOT_FOUND: no event is
 * enabled at the top level.
 */
int sa_recorder_collect_boot(const char *output,
			     const struct sa_outfile_opts *out,
			     const char *recorder, char *(*snapshot)(void),
			     struct sa_record_result *res, GError **err);

/*
 * The recording stops before its end (a signal before the workload or
 * the duration ended): sa_recorder_stop marks the file as truncated now,
 * for why (words: "SIGTERM before the workload ended"). A full disk is
 * marked without this.
 */
void sa_recorder_stopped_early(struct sa_recorder *r, const char *why);

/* Remove the instance and the new file (the output path is untouched). */
void sa_recorder_abort(struct sa_recorder *r);

void sa_record_result_clear(struct sa_record_result *res);

#endif /* SLABACCT_RECORDER_H */
