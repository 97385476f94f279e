// SPDX-License-Identifier: GPL-2.0
/* brkstack: brk() calls counted by process and user stack. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_STACKS
#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct sa_stack_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_brk")
int brk_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct sa_stack_key k = { .kstack = SA_NO_STACK };

	if (!sa_traced())
		return 0;
	k.tgid = bpf_get_current_pid_tgid() >> 32;
	k.ustack = bpf_get_stackid(ctx, &stack_traces, BPF_F_USER_STACK);
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	sa_count(&counts, &k, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
