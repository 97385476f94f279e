/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types shared by the BPF programs (common.bpf.h) and the front ends
 * (bpf-report.c): a count by process and stack, a count by process and
 * name, and the stats array's slots.
 */
#ifndef SLABACCT_BPF_COMMON_H
#define SLABACCT_BPF_COMMON_H

#define SA_COMM_LEN	16
#define SA_NAME_LEN	64

/* stats array: SA_STAT_LOST, then per-tool counters */
enum sa_stat {
	SA_STAT_LOST,		/* events dropped: ring buffer or map full */
	SA_STAT_TOOL,		/* the first per-tool slot */
	SA_STAT_NR = 16,
};

/* counts map key: by process and stack (SA_NO_STACK when not asked for) */
struct sa_stack_key {
	__u32 tgid;
	__s32 kstack;
	__s32 ustack;
	char comm[SA_COMM_LEN];
};

/* counts map key: by process and a name (a file; empty if none) */
struct sa_name_key {
	__u32 tgid;
	char comm[SA_COMM_LEN];
	char name[SA_NAME_LEN];
};

#endif /* SLABACCT_BPF_COMMON_H */
