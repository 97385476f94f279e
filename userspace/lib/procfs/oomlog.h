/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OOM kills in the kernel log. The capture keeps the log's OOM-killer
 * lines only ("invoked oom-killer", "oom-kill:", "Killed process",
 * "oom_reaper:"); the parser reads them in /dev/kmsg's format
 * ("pri,seq,usec,flags;text"), in dmesg's ("[  12.345678] text") or bare.
 */
#ifndef SLABACCT_OOMLOG_H
#define SLABACCT_OOMLOG_H

#include <stdbool.h>
#include <glib.h>

struct sa_oom_kill {
	double time;		/* seconds since boot, -1 if unknown */
	int pid;
	char *comm;
	bool memcg;		/* "Memory cgroup out of memory" */
	guint64 total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb;
	guint64 pgtables_kb;
	int uid, oom_score_adj;
	char *constraint;	/* "CONSTRAINT_NONE", ... or NULL */
	char *invoker;		/* the task that invoked the killer, or NULL */
	char *gfp_mask;		/* of the failed allocation, or NULL */
	int order;		/* of the failed allocation, -1 unknown */
	bool reaped;		/* the oom_reaper reported the victim */
};

/*
 * The OOM lines of root/dev/kmsg, read without blocking. NULL with *err if
 * it cannot be read (not root, dmesg_restrict, a container). An empty
 * string when there are none.
 */
char *sa_oomlog_capture(const char *root, GError **err);

/* Whether a log line is one the capture keeps. */
bool sa_oomlog_line_wanted(const char *line);

/* The kills in the text: an array of struct sa_oom_kill, oldest first. */
GArray *sa_oomlog_parse(const char *text);

#endif /* SLABACCT_OOMLOG_H */
