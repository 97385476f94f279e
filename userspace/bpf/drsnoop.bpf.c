// SPDX-License-Identifier: GPL-2.0
/* drsnoop: each direct reclaim, with its latency and pages reclaimed. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_RINGBUF
#include "common.bpf.h"
#include "snoop.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_begin")
int dr_begin(void *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 ts = bpf_ktime_get_ns();

	if (sa_traced())
		bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_end")
int dr_end(struct trace_event_raw_mm_vmscan_direct_reclaim_end_template *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), *ts;
	struct dr_event e = {};
	__u32 tid = id;

	ts = bpf_map_lookup_elem(&start, &tid);
	if (!ts)
		return 0;
	e.ts_ns = bpf_ktime_get_ns();
	e.lat_ns = e.ts_ns - *ts;
	e.nr_reclaimed = BPF_CORE_READ(ctx, nr_reclaimed);
	e.pid = id >> 32;
	e.tid = tid;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	sa_emit(&e, sizeof(e));
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
