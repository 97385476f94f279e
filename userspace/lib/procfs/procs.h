/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-process memory: RSS, PSS and swap from /proc/PID/smaps_rollup, or
 * RSS and swap from /proc/PID/status where smaps_rollup is missing or
 * unreadable (PSS is then unknown). Kernel threads are left out.
 *
 * The capture is a table, one process a line:
 *   pid rss_kb pss_kb pss_anon_kb swap_kb source name
 * with "-" for an unknown figure, source "smaps" or "status", and the
 * name (which may hold blanks) last.
 */
#ifndef SLABACCT_PROCS_H
#define SLABACCT_PROCS_H

#include <stdbool.h>
#include <glib.h>

#define SA_PROC_UNKNOWN G_MAXUINT64

struct sa_proc_mem {
	int pid;
	char *name;
	guint64 rss_kb, pss_kb, pss_anon_kb, swap_kb;	/* or SA_PROC_UNKNOWN */
	bool from_smaps;
};

/* The table for root/proc; NULL with *err if no process was readable. */
char *sa_procs_capture(const char *root, GError **err);

/* Parse one process's smaps_rollup or status text (for the tests). */
bool sa_proc_from_smaps(const char *text, struct sa_proc_mem *p);
bool sa_proc_from_status(const char *text, struct sa_proc_mem *p);

/* Parse the table: an array of struct sa_proc_mem. */
GArray *sa_procs_parse(const char *text, GError **err);

enum sa_proc_sort { SA_PROC_BY_RSS, SA_PROC_BY_PSS, SA_PROC_BY_SWAP };
/* Pointers into procs, sorted largest first (unknown last). */
GPtrArray *sa_procs_sorted(GArray *procs, enum sa_proc_sort key);

#endif /* SLABACCT_PROCS_H */
