/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every slabacct BPF program shares: the process filter, the stats
 * array with its lost-events counter, and (if SA_RINGBUF is defined) the
 * events ring buffer. Include after vmlinux.h and the libbpf headers.
 */
#ifndef SLABACCT_COMMON_BPF_H
#define SLABACCT_COMMON_BPF_H

#include "bpf-common.h"

#define SA_NO_STACK	(-2147483647 - 1)

const volatile __u32 targ_tgid = 0;	/* 0: every process */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SA_STAT_NR);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");


#ifdef SA_STACKS
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} stack_traces SEC(".maps");
#endif

static __always_inline void sa_stat_add(__u32 which, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&stats, &which);

	if (p)
		__sync_fetch_and_add(p, v);
}

#ifdef SA_RINGBUF
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* Send one event; a full ring buffer counts it as lost. */
static __always_inline void sa_emit(void *data, __u64 size)
{
	if (bpf_ringbuf_output(&events, data, size, 0))
		sa_stat_add(SA_STAT_LOST, 1);
}
#endif

static __always_inline bool sa_traced(void)
{
	return !targ_tgid ||
	       (bpf_get_current_pid_tgid() >> 32) == targ_tgid;
}

/* Add v to a counts map entry, creating it; a full map counts as lost. */
static __always_inline void sa_count(void *map, const void *key, __u64 v)
{
	__u64 zero = 0, *p = bpf_map_lookup_elem(map, key);

	if (!p) {
		if (bpf_map_update_elem(map, key, &zero, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(map, key)) {
			sa_stat_add(SA_STAT_LOST, 1);
			return;
		}
		p = bpf_map_lookup_elem(map, key);
		if (!p)
			return;
	}
	__sync_fetch_and_add(p, v);
}

#endif /* SLABACCT_COMMON_BPF_H */
