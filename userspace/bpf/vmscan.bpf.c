// SPDX-License-Identifier: GPL-2.0
/*
 * vmscan: time in shrink_slab, direct reclaim and memcg reclaim, kswapd
 * wakeups and pages written by reclaim, summed into the stats array.
 * Programs whose tracepoint the kernel lacks are not loaded (the write
 * event is mm_vmscan_writepage before 6.3, mm_vmscan_write_folio after).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"
#include "snoop.h"

enum { K_SLAB, K_DIRECT, K_MEMCG };

/*
 * Direct and memcg reclaim end share this record (a macro: CO-RE finds
 * struct names in the kernel's BTF, a typedef of ours would not be).
 */
#define reclaim_end_t \
	struct trace_event_raw_mm_vmscan_direct_reclaim_end_template

/* start time by (tid, kind) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, __u64);
} start SEC(".maps");

static int begin(__u32 kind)
{
	__u64 key = ((__u64)(__u32)bpf_get_current_pid_tgid() << 2) | kind;
	__u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &key, &ts, BPF_ANY);
	return 0;
}

static int end(__u32 kind, __u32 count_slot, __u64 amount)
{
	__u64 key = ((__u64)(__u32)bpf_get_current_pid_tgid() << 2) | kind;
	__u64 *ts = bpf_map_lookup_elem(&start, &key);

	if (!ts)
		return 0;
	sa_stat_add(count_slot, 1);
	sa_stat_add(count_slot + 1, bpf_ktime_get_ns() - *ts);
	sa_stat_add(count_slot + 2, amount);
	bpf_map_delete_elem(&start, &key);
	return 0;
}

SEC("tracepoint/vmscan/mm_shrink_slab_start")
int shrink_slab_start(void *ctx)
{
	return begin(K_SLAB);
}

SEC("tracepoint/vmscan/mm_shrink_slab_end")
int shrink_slab_end(struct trace_event_raw_mm_shrink_slab_end *ctx)
{
	int freed = BPF_CORE_READ(ctx, retval);

	return end(K_SLAB, VS_SHRINK_SLAB, freed > 0 ? freed : 0);
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_begin")
int direct_begin(void *ctx)
{
	return begin(K_DIRECT);
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_end")
int direct_end(reclaim_end_t *ctx)
{
	return end(K_DIRECT, VS_DIRECT, BPF_CORE_READ(ctx, nr_reclaimed));
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_begin")
int memcg_begin(void *ctx)
{
	return begin(K_MEMCG);
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_end")
int memcg_end(reclaim_end_t *ctx)
{
	return end(K_MEMCG, VS_MEMCG, BPF_CORE_READ(ctx, nr_reclaimed));
}

SEC("tracepoint/vmscan/mm_vmscan_kswapd_wake")
int kswapd_wake(void *ctx)
{
	sa_stat_add(VS_KSWAPD_WAKE, 1);
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_wakeup_kswapd")
int wakeup_kswapd(void *ctx)
{
	sa_stat_add(VS_WAKEUP_KSWAPD, 1);
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_write_folio")
int write_folio(void *ctx)
{
	sa_stat_add(VS_WRITEPAGE, 1);
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_writepage")
int writepage(void *ctx)
{
	sa_stat_add(VS_WRITEPAGE, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
