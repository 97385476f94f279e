// SPDX-License-Identifier: GPL-2.0
/*
 * pmc: perf event samples counted by process and event, or (with stacks)
 * by process and stack. The event's index is the attach cookie.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_STACKS
#include "common.bpf.h"
#include "pmc.h"

const volatile bool with_stacks = false;
const volatile bool by_ip = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct pmc_key);
	__type(value, __u64);
} samples SEC(".maps");

/* with stacks: one event only, keyed by stack */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct sa_stack_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct pmc_key k = {};

	if (!sa_traced())
		return 0;
	k.tgid = id >> 32;
	k.event = bpf_get_attach_cookie(ctx);
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	if (by_ip)
		k.ip = PT_REGS_IP(&ctx->regs);
	sa_count(&samples, &k, 1);
	if (with_stacks) {
		struct sa_stack_key s = {};

		s.tgid = k.tgid;
		__builtin_memcpy(s.comm, k.comm, sizeof(s.comm));
		s.kstack = bpf_get_stackid(ctx, &stack_traces, 0);
		s.ustack = bpf_get_stackid(ctx, &stack_traces,
					   BPF_F_USER_STACK);
		sa_count(&counts, &s, 1);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
