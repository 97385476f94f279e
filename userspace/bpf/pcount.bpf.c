// SPDX-License-Identifier: GPL-2.0
/*
 * A kprobe counted by process: swapin (swap_read_folio, or swap_readpage
 * on older kernels) and hfaults (hugetlb_fault). The front end attaches
 * it to whichever function the running kernel has.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct sa_name_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("kprobe")
int count_call(struct pt_regs *ctx)
{
	struct sa_name_key k = {};

	if (!sa_traced())
		return 0;
	k.tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	sa_count(&counts, &k, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
