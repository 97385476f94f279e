/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports the counting tools share: counts by process and stack (brkstack,
 * faults, pmc) and counts by process and name (ffaults, swapin, hfaults),
 * as text, JSON or folded stacks, with the lost-events count.
 */
#ifndef SLABACCT_BPF_REPORT_H
#define SLABACCT_BPF_REPORT_H

#include <linux/types.h>
#include <stdbool.h>

#include "bpf-common.h"

struct sa_count_report {
	const char *tool;
	const char *what;	/* what is counted: "page faults" */
	int counts_fd;		/* key sa_stack_key or sa_name_key, value u64 */
	int stack_fd;		/* the stack map (stack reports) */
	int stats_fd;		/* the stats array (its SA_STAT_LOST) */
	const char *name_title;	/* the name column's title: "FILE" */
	int top;		/* at most this many rows (0: all) */
	bool json, folded;
	bool clear;		/* empty the counts after reading them */
	bool final;
};

int sa_report_stacks(const struct sa_count_report *r);
int sa_report_names(const struct sa_count_report *r);

/* "HH:MM:SS" of now, into buf (at least 9 bytes). */
const char *sa_time_str(char *buf, size_t len);

/* One slot of a stats array (0 if it cannot be read). */
__u64 sa_stat_get(int stats_fd, __u32 which);

#endif /* SLABACCT_BPF_REPORT_H */
