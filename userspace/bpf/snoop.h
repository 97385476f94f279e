/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events the snooping tools send through their ring buffers:
 * mmapsnoop, shmsnoop, oomkill and drsnoop.
 */
#ifndef SLABACCT_SNOOP_H
#define SLABACCT_SNOOP_H

#include "bpf-common.h"

struct mmap_event {
	__u64 ts_ns;
	__u32 pid, tid;
	char comm[SA_COMM_LEN];
	__u64 addr, len, prot, flags, fd, off;
	__s64 ret;
};

enum shm_kind { SHM_GET, SHM_AT, SHM_DT, SHM_CTL, SHM_NR };

struct shm_event {
	__u64 ts_ns;
	__u32 pid, tid;
	char comm[SA_COMM_LEN];
	__u32 kind;
	__u32 pad;
	__u64 args[3];
	__s64 ret;
};

struct oom_event {
	__u64 ts_ns;
	__u32 trigger_pid, victim_pid;
	char trigger_comm[SA_COMM_LEN];
	char victim_comm[SA_COMM_LEN];
	__u64 totalpages;	/* the pages the OOM killer weighed */
	__s64 points;		/* the victim's badness */
	__u32 from_tracepoint;	/* 1: oom:mark_victim (victim pid only) */
	__u32 pad;
};

struct dr_event {
	__u64 ts_ns;
	__u64 lat_ns;
	__u64 nr_reclaimed;
	__u32 pid, tid;
	char comm[SA_COMM_LEN];
};

/* vmscan's stats slots, after SA_STAT_LOST */
enum vmscan_stat {
	VS_SHRINK_SLAB = SA_STAT_TOOL,	/* shrinker calls */
	VS_SHRINK_SLAB_NS,
	VS_SHRINK_SLAB_FREED,		/* objects the shrinkers freed */
	VS_DIRECT,			/* direct reclaims */
	VS_DIRECT_NS,
	VS_DIRECT_PAGES,
	VS_MEMCG,			/* memcg reclaims */
	VS_MEMCG_NS,
	VS_MEMCG_PAGES,
	VS_KSWAPD_WAKE,			/* kswapd woke up */
	VS_WAKEUP_KSWAPD,		/* someone asked kswapd to wake */
	VS_WRITEPAGE,			/* pages written by reclaim */
	VS_NR,
};

#endif /* SLABACCT_SNOOP_H */
