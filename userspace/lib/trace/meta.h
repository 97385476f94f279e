/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a trace.dat needs besides the ring-buffer pages, taken from the
 * running machine: header files, event formats, kallsyms, printk formats,
 * saved cmdlines, per-CPU statistics, trace clock, uname, and the origin
 * blobs (/proc/cmdline, /proc/meminfo). Shared by `slabacct record` and
 * `slabacct boot collect`.
 */
#ifndef SLABACCT_TRACE_META_H
#define SLABACCT_TRACE_META_H

#include <stdbool.h>
#include <glib.h>
#include <tracefs.h>

#include "trace/tracedat-write.h"

/* An enabled event: "system" and "name". */
struct sa_event_ref {
	char *system;
	char *name;
};

/*
 * Takes a snapshot of the running system and returns it as JSON text
 * (g_free), or NULL. The command layer passes the snapshot layer's
 * sa_snapshot_capture_json, which the trace layer does not link.
 */
typedef char *(*sa_snapshot_fn)(void);

/*
 * At the start: header files, every ftrace format, the formats of events
 * (a GPtrArray of struct sa_event_ref), kallsyms, printk formats, and the
 * origin blobs kernel_release, cmdline, meminfo_start, recorder, command,
 * and with snapshot, what it returns (the system's snapshot) as
 * snapshot_start. Returns 0 or -1 with *err set.
 */
int sa_trace_meta_begin(struct sa_tracedat *td, GPtrArray *events,
			const char *recorder, const char *command,
			sa_snapshot_fn snapshot, GError **err);

/*
 * At the end, with the buffer of instance (NULL: the top level) stopped:
 * saved cmdlines, UNAME, TRACECLOCK, one CPUSTAT per CPU, meminfo_end and
 * with snapshot, snapshot_end. Fills lost[nr_cpus] (overrun + commit
 * overrun + dropped events per CPU) when lost is not NULL. Returns 0 or -1
 * with *err set.
 */
int sa_trace_meta_end(struct sa_tracedat *td,
		      struct tracefs_instance *instance, int nr_cpus,
		      guint64 *lost, sa_snapshot_fn snapshot, GError **err);

/* The lost-event count in one per_cpu/cpuN/stats text. */
guint64 sa_cpu_stats_lost(const char *stats);
/* The value of "key:" at the start of a line of that text, or 0. */
guint64 sa_cpu_stats_value(const char *stats, const char *key);

/* A tep handle that can parse the events' records (for counting). */
struct tep_handle *sa_trace_meta_tep(GPtrArray *events);

/* Possible CPUs, as the ring buffer counts them. */
int sa_trace_nr_cpus(void);

void sa_event_ref_free(gpointer p);

#endif /* SLABACCT_TRACE_META_H */
