// SPDX-License-Identifier: GPL-2.0
/* shmsnoop: shmget, shmat, shmdt and shmctl with arguments and results. */
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
	__type(value, struct shm_event);
} start SEC(".maps");

/*
 * The program may not read past the tracepoint's record: shmdt has one
 * argument, so its record holds args[0] only.
 */
static __always_inline int enter(struct trace_event_raw_sys_enter *ctx,
				 __u32 kind, int nargs)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct shm_event e = { .kind = kind };
	__u32 tid = id;

	if (!sa_traced())
		return 0;
	e.pid = id >> 32;
	e.tid = tid;
	e.args[0] = ctx->args[0];
	if (nargs > 1) {
		e.args[1] = ctx->args[1];
		e.args[2] = ctx->args[2];
	}
	bpf_map_update_elem(&start, &tid, &e, BPF_ANY);
	return 0;
}

static int leave(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct shm_event *e = bpf_map_lookup_elem(&start, &tid);

	if (!e)
		return 0;
	e->ts_ns = bpf_ktime_get_ns();
	e->ret = ctx->ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	sa_emit(e, sizeof(*e));
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_shmget")
int shmget_enter(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, SHM_GET, 3);
}

SEC("tracepoint/syscalls/sys_exit_shmget")
int shmget_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

SEC("tracepoint/syscalls/sys_enter_shmat")
int shmat_enter(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, SHM_AT, 3);
}

SEC("tracepoint/syscalls/sys_exit_shmat")
int shmat_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

SEC("tracepoint/syscalls/sys_enter_shmdt")
int shmdt_enter(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, SHM_DT, 1);
}

SEC("tracepoint/syscalls/sys_exit_shmdt")
int shmdt_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

SEC("tracepoint/syscalls/sys_enter_shmctl")
int shmctl_enter(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, SHM_CTL, 3);
}

SEC("tracepoint/syscalls/sys_exit_shmctl")
int shmctl_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

char LICENSE[] SEC("license") = "GPL";
