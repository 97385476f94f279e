// SPDX-License-Identifier: GPL-2.0
/* mmapsnoop: every mmap() with its arguments and result. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_RINGBUF
#include "common.bpf.h"
#include "snoop.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct mmap_event);
} start SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_mmap")
int mmap_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mmap_event e = {};
	__u32 tid = id;

	if (!sa_traced())
		return 0;
	e.pid = id >> 32;
	e.tid = tid;
	e.addr = ctx->args[0];
	e.len = ctx->args[1];
	e.prot = ctx->args[2];
	e.flags = ctx->args[3];
	e.fd = ctx->args[4];
	e.off = ctx->args[5];
	bpf_map_update_elem(&start, &tid, &e, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_mmap")
int mmap_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct mmap_event *e = bpf_map_lookup_elem(&start, &tid);

	if (!e)
		return 0;
	e->ts_ns = bpf_ktime_get_ns();
	e->ret = ctx->ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	sa_emit(e, sizeof(*e));
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
