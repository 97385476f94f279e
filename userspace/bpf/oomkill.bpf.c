// SPDX-License-Identifier: GPL-2.0
/*
 * oomkill: each OOM kill, with the task that triggered it, the victim,
 * and the pages weighed. kprobe on oom_kill_process(); where that is not
 * probeable, the oom:mark_victim tracepoint (the victim's pid only).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define SA_RINGBUF
#include "common.bpf.h"
#include "snoop.h"

/* The event with the trigger (the current task) filled in. */
static __always_inline void trigger(struct oom_event *e)
{
	e->ts_ns = bpf_ktime_get_ns();
	e->trigger_pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->trigger_comm, sizeof(e->trigger_comm));
}

SEC("kprobe/oom_kill_process")
int BPF_KPROBE(oom_kill_process, struct oom_control *oc, const char *message)
{
	struct task_struct *victim = BPF_CORE_READ(oc, chosen);
	struct oom_event e = {};

	trigger(&e);
	e.victim_pid = BPF_CORE_READ(victim, tgid);
	BPF_CORE_READ_STR_INTO(&e.victim_comm, victim, comm);
	e.totalpages = BPF_CORE_READ(oc, totalpages);
	e.points = BPF_CORE_READ(oc, chosen_points);
	sa_emit(&e, sizeof(e));
	return 0;
}

SEC("tracepoint/oom/mark_victim")
int mark_victim(struct trace_event_raw_mark_victim *ctx)
{
	struct oom_event e = { .from_tracepoint = 1 };

	trigger(&e);
	e.victim_pid = BPF_CORE_READ(ctx, pid);
	sa_emit(&e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
