// SPDX-License-Identifier: GPL-2.0
/*
 * faults: page faults counted by process and stack, from the x86
 * exceptions tracepoints (faults in user mode and in kernel mode).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_STACKS
#include "common.bpf.h"

const volatile bool user_stacks = true;
const volatile bool kernel_stacks = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct sa_stack_key);
	__type(value, __u64);
} counts SEC(".maps");

static int fault(void *ctx)
{
	struct sa_stack_key k = { .kstack = SA_NO_STACK,
				  .ustack = SA_NO_STACK };

	if (!sa_traced())
		return 0;
	k.tgid = bpf_get_current_pid_tgid() >> 32;
	if (kernel_stacks)
		k.kstack = bpf_get_stackid(ctx, &stack_traces, 0);
	if (user_stacks)
		k.ustack = bpf_get_stackid(ctx, &stack_traces,
					   BPF_F_USER_STACK);
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	sa_count(&counts, &k, 1);
	return 0;
}

SEC("tracepoint/exceptions/page_fault_user")
int fault_user(void *ctx)
{
	return fault(ctx);
}

SEC("tracepoint/exceptions/page_fault_kernel")
int fault_kernel(void *ctx)
{
	return fault(ctx);
}

char LICENSE[] SEC("license") = "GPL";
