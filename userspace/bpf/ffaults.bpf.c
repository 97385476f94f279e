// SPDX-License-Identifier: GPL-2.0
/* ffaults: page faults served from the page cache, by process and file. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct sa_name_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("kprobe/filemap_fault")
int BPF_KPROBE(filemap_fault, struct vm_fault *vmf)
{
	struct sa_name_key k = {};
	const unsigned char *name;
	struct file *file;

	if (!sa_traced())
		return 0;
	k.tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	file = BPF_CORE_READ(vmf, vma, vm_file);
	name = BPF_CORE_READ(file, f_path.dentry, d_name.name);
	if (name)
		bpf_probe_read_kernel_str(k.name, sizeof(k.name), name);
	sa_count(&counts, &k, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
