/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constants of the trace.dat format (trace-cmd.dat.v6(5)) that slabacct
 * writes, and of the "origin" section slabacct appends after the CPU data.
 *
 * The origin section holds what trace.dat has no standard option for
 * (/proc/cmdline, /proc/meminfo at start and end, the workload command,
 * snapshots). trace-cmd warns about option ids it does not know, so these
 * blobs do not go into options: they follow the last CPU's data, where
 * trace-cmd (which reads the CPU data by the offsets in the flyrecord
 * table) never looks. Layout, all numbers little endian:
 *
 *	"SAORIGIN" u32 version(1) u32 count
 *	count times: key '\0' u64 length  bytes[length]
 *	u64 offset-of-"SAORIGIN"  "SAORIGIN"	(the last 16 bytes of the file)
 *
 * The section starts right after the last CPU's data. Every file slabacct
 * writes has it (with count 0 if there is nothing to say), and says so in
 * its header: its VERSION option (trace-cmd's "version of the application
 * that collected the trace") is "slabacct VERSION". A file with that
 * option and no whole origin section was cut short.
 */
#ifndef SLABACCT_TRACEDAT_FORMAT_H
#define SLABACCT_TRACEDAT_FORMAT_H

#define SA_TRACEDAT_MAGIC	"\027\010\104tracing"
#define SA_TRACEDAT_MAGIC_LEN	10

/* trace-cmd's option ids (trace-cmd-private.h), the ones slabacct uses */
enum sa_tracedat_option {
	SA_OPT_DONE = 0,
	SA_OPT_DATE = 1,
	SA_OPT_CPUSTAT = 2,
	SA_OPT_TRACECLOCK = 4,
	SA_OPT_UNAME = 5,
	SA_OPT_CPUCOUNT = 8,
	SA_OPT_VERSION = 9,
};

#define SA_ORIGIN_MAGIC		"SAORIGIN"
#define SA_ORIGIN_MAGIC_LEN	8
#define SA_ORIGIN_VERSION	1
/* The VERSION option of slabacct's files starts with this */
#define SA_TRACEDAT_WRITER	"slabacct "

/* Keys of the origin section that trace/origin.h knows by name */
#define SA_ORIGIN_KERNEL_RELEASE	"kernel_release"
#define SA_ORIGIN_KERNEL_BUILD_ID	"kernel_build_id"
#define SA_ORIGIN_CMDLINE		"cmdline"
#define SA_ORIGIN_RECORDER		"recorder"
#define SA_ORIGIN_COMMAND		"command"
#define SA_ORIGIN_MEMINFO_START		"meminfo_start"
#define SA_ORIGIN_MEMINFO_END		"meminfo_end"
#define SA_ORIGIN_SNAPSHOT_START	"snapshot_start"
#define SA_ORIGIN_SNAPSHOT_END		"snapshot_end"
/* what the recorder kept out of the trace (its own threads), in words */
#define SA_ORIGIN_LEFT_OUT		"left_out"
/*
 * The filters of the recording: "filter" sums them up in words; each one
 * also has its key, with the option's value (for the report's notes).
 */
/*
 * CPUs that had no ring buffer, by number ("1" or "1 3"). Online ones
 * (the kernel could not allocate it, as at a CPU's bringup with a
 * trace_buf_size too large for the memory): none of their events are in
 * the file. Offline ones (never brought up): they had none to record.
 */
#define SA_ORIGIN_NO_BUFFER		"cpus_no_buffer"
#define SA_ORIGIN_OFFLINE		"cpus_offline"
/*
 * Offline CPUs that did not come up at boot because the kernel could not
 * allocate their ring buffer ("failed to allocate ring buffer on CPU N"
 * in the kernel log): the boot ran without them.
 */
#define SA_ORIGIN_BUFFER_FAILED		"cpus_buffer_failed"
/* kernel stacks: "wrappers (N functions)" or "all" (record --stacks) */
#define SA_ORIGIN_STACKS		"stacks"
/*
 * The recording stopped before its end: "AT_NS WHY", AT_NS the
 * nanoseconds from the start of tracing to the stop ("-" if unknown, as
 * for a boot), WHY in words ("the disk filled while writing a CPU's
 * pages: No space left on device", "SIGTERM before the workload ended").
 * Absent from a complete recording.
 */
#define SA_ORIGIN_TRUNCATED		"truncated"
#define SA_ORIGIN_FILTER		"filter"
/*
 * What the recording covers, in words: "system: ...", "process tree:
 * ..." (record --follow) or "cgroup PATH: ..." (--cgroup); trace/scope.h
 */
#define SA_ORIGIN_SCOPE			"scope"
/*
 * The threads at the start and at the end of the recording, a line
 * each: "TID\tK\tCGROUP\tCOMM" (trace/scope.h), for the report's --by
 * comm, pid and cgroup
 */
#define SA_ORIGIN_TASKS_START		"tasks_start"
#define SA_ORIGIN_TASKS_END		"tasks_end"
#define SA_ORIGIN_FILTER_CALL_SITE	"filter_call_site"
#define SA_ORIGIN_FILTER_GFP		"filter_gfp"
#define SA_ORIGIN_FILTER_PID		"filter_pid"
#define SA_ORIGIN_FILTER_COMM		"filter_comm"

#endif /* SLABACCT_TRACEDAT_FORMAT_H */
