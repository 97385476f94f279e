/* SPDX-License-Identifier: GPL-2.0 */
/* memleak: the types memleak.bpf.c and memleak.c share. */
#ifndef SLABACCT_MEMLEAK_H
#define SLABACCT_MEMLEAK_H

/* An outstanding allocation: the allocs map's key and value. */
struct ml_key {
	__u32 tgid;		/* 0 for kernel allocations */
	__u32 pad;
	__u64 addr;
};

struct ml_alloc {
	__u64 size;
	__u64 ts_ns;		/* CLOCK_MONOTONIC at allocation */
	__s32 stack_id;		/* user or kernel stack, or -errno */
	__u32 pid;		/* the allocating process */
};

/*
 * A thread inside an allocator (the sizes map, by thread id): the outer
 * call's size and whether it is sampled. Calls it makes to a probed
 * function (glibc's malloc calls mmap for a block of 128 KiB or more;
 * realloc(NULL, n) calls malloc) only count depth: the allocation is
 * the outer call's, and its stack is taken when that call returns, in
 * its caller, not inside the allocator.
 */
struct ml_pending {
	__u64 size;
	__u32 depth;		/* probed calls nested in this one */
	__u32 sampled;		/* record it when the outer call returns */
};

/* Counters in the stats array. */
enum ml_stat {
	ML_STAT_ALLOCS,		/* allocations recorded */
	ML_STAT_FREES,		/* frees that matched a recorded one */
	ML_STAT_DROPPED,	/* allocations lost: the allocs map was full */
	ML_STAT_NOSTACK,	/* allocations kept without their stack: the
				 * stack map was full, or another stack held
				 * its bucket */
	ML_STAT_NR,
};

#endif /* SLABACCT_MEMLEAK_H */
