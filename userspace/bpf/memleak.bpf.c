// SPDX-License-Identifier: GPL-2.0
/*
 * memleak: outstanding allocations by stack. Uprobes on a user-space
 * allocator (malloc and friends, mmap/munmap), or the kmem tracepoints
 * with --kernel.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "memleak.h"

#define MAX_STACK_DEPTH	127

const volatile __u32 targ_tgid = 0;	/* 0: every process */
const volatile __u64 sample_rate = 1;	/* record one allocation in N */
const volatile bool kernel_mode = false;

/* a thread inside an allocator, between its entry and its return */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct ml_pending);
} sizes SEC(".maps");

/* posix_memalign's memptr, between entry and return */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} memptrs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 131072);	/* --max-allocs */
	__type(key, struct ml_key);
	__type(value, struct ml_alloc);
} allocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK_DEPTH * sizeof(__u64));
} stack_traces SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ML_STAT_NR);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static void stat_inc(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &which);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static bool traced(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return !targ_tgid || tgid == targ_tgid;
}

static bool sampled(void)
{
	return sample_rate <= 1 || bpf_ktime_get_ns() % sample_rate == 0;
}

static void record(void *ctx, __u64 addr, __u64 size)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ml_key key = { .addr = addr };
	struct ml_alloc a = { .size = size };

	a.ts_ns = bpf_ktime_get_ns();
	a.pid = pid_tgid >> 32;
	if (!kernel_mode)
		key.tgid = a.pid;
	a.stack_id = bpf_get_stackid(ctx, &stack_traces,
				     kernel_mode ? 0 : BPF_F_USER_STACK);
	/* -EFAULT: no stack there; else the map had no room for it */
	if (a.stack_id < 0 && a.stack_id != -14)
		stat_inc(ML_STAT_NOSTACK);
	if (bpf_map_update_elem(&allocs, &key, &a, BPF_ANY))
		stat_inc(ML_STAT_DROPPED);
	else
		stat_inc(ML_STAT_ALLOCS);
}

static void forget(__u64 addr)
{
	struct ml_key key = { .addr = addr };

	if (!kernel_mode)
		key.tgid = bpf_get_current_pid_tgid() >> 32;
	if (!bpf_map_delete_elem(&allocs, &key))
		stat_inc(ML_STAT_FREES);
}

/*
 * An allocator's entry. A call nested in another (mmap inside malloc)
 * only counts depth, sampled or not, so that the outer call is the one
 * recorded: with its size, and with its caller's stack.
 */
static int alloc_enter(__u64 size)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct ml_pending *p, n = { .size = size };

	if (!traced())
		return 0;
	p = bpf_map_lookup_elem(&sizes, &tid);
	if (p) {
		p->depth++;
		return 0;
	}
	n.sampled = sampled();
	bpf_map_update_elem(&sizes, &tid, &n, BPF_ANY);
	return 0;
}

static int alloc_exit(void *ctx, __u64 addr)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct ml_pending *p = bpf_map_lookup_elem(&sizes, &tid);
	__u64 size;
	bool rec;

	if (!p)
		return 0;	/* not traced */
	if (p->depth) {
		p->depth--;	/* a nested call returns */
		return 0;
	}
	size = p->size;
	rec = p->sampled;
	bpf_map_delete_elem(&sizes, &tid);
	/* NULL from malloc, MAP_FAILED from mmap */
	if (rec && addr && addr != (__u64)-1)
		record(ctx, addr, size);
	return 0;
}

static int free_enter(const void *addr)
{
	if (traced() && addr)
		forget((__u64)addr);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(malloc_enter, size_t size)
{
	return alloc_enter(size);
}

SEC("uretprobe")
int BPF_KRETPROBE(alloc_return)
{
	return alloc_exit(ctx, PT_REGS_RC(ctx));
}

SEC("uprobe")
int BPF_KPROBE(calloc_enter, size_t nmemb, size_t size)
{
	return alloc_enter(nmemb * size);
}

SEC("uprobe")
int BPF_KPROBE(realloc_enter, void *ptr, size_t size)
{
	free_enter(ptr);
	return alloc_enter(size);
}

/* aligned_alloc(alignment, size) and memalign(alignment, size) */
SEC("uprobe")
int BPF_KPROBE(aligned_enter, size_t alignment, size_t size)
{
	return alloc_enter(size);
}

SEC("uprobe")
int BPF_KPROBE(mmap_enter, void *addr, size_t size)
{
	return alloc_enter(size);
}

SEC("uprobe")
int BPF_KPROBE(posix_memalign_enter, void **memptr, size_t alignment,
	       size_t size)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 p = (__u64)memptr;

	if (!traced())
		return 0;
	bpf_map_update_elem(&memptrs, &tid, &p, BPF_ANY);
	return alloc_enter(size);
}

SEC("uretprobe")
int BPF_KRETPROBE(posix_memalign_return)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *memptr = bpf_map_lookup_elem(&memptrs, &tid);
	__u64 addr = 0;
	void *p;

	if (!memptr)
		return 0;
	p = (void *)*memptr;
	bpf_map_delete_elem(&memptrs, &tid);
	/* it returns 0 on success, with the block in *memptr */
	if (PT_REGS_RC(ctx) == 0 &&
	    bpf_probe_read_user(&addr, sizeof(addr), p) != 0)
		addr = 0;
	return alloc_exit(ctx, addr);
}

/* free(ptr) and munmap(addr, len) */
SEC("uprobe")
int BPF_KPROBE(free_enter_prog, void *addr)
{
	return free_enter(addr);
}

/* --- --kernel: the kmem tracepoints -------------------------------- */

/* Kernels before 6.1 had these names and layouts. */
struct trace_event_raw_kmem_alloc___old {
	unsigned long call_site;
	const void *ptr;
	size_t bytes_alloc;
} __attribute__((preserve_access_index));

struct trace_event_raw_kmem_alloc_node___old {
	unsigned long call_site;
	const void *ptr;
	size_t bytes_alloc;
} __attribute__((preserve_access_index));

static int kalloc(void *ctx, const void *ptr, __u64 size)
{
	if (!traced() || !sampled() || !ptr)
		return 0;
	record(ctx, (__u64)ptr, size);
	return 0;
}

SEC("tracepoint/kmem/kmalloc")
int tp_kmalloc(void *ctx)
{
	if (bpf_core_type_exists(struct trace_event_raw_kmalloc)) {
		struct trace_event_raw_kmalloc *e = ctx;

		return kalloc(ctx, BPF_CORE_READ(e, ptr),
			      BPF_CORE_READ(e, bytes_alloc));
	} else {
		struct trace_event_raw_kmem_alloc___old *e = ctx;

		return kalloc(ctx, BPF_CORE_READ(e, ptr),
			      BPF_CORE_READ(e, bytes_alloc));
	}
}

SEC("tracepoint/kmem/kmem_cache_alloc")
int tp_kmem_cache_alloc(void *ctx)
{
	if (bpf_core_type_exists(struct trace_event_raw_kmem_cache_alloc)) {
		struct trace_event_raw_kmem_cache_alloc *e = ctx;

		return kalloc(ctx, BPF_CORE_READ(e, ptr),
			      BPF_CORE_READ(e, bytes_alloc));
	} else {
		struct trace_event_raw_kmem_alloc___old *e = ctx;

		return kalloc(ctx, BPF_CORE_READ(e, ptr),
			      BPF_CORE_READ(e, bytes_alloc));
	}
}

/* kmalloc_node and kmem_cache_alloc_node: kernels before 6.1 only */
static __always_inline int kalloc_node(void *ctx)
{
	struct trace_event_raw_kmem_alloc_node___old *e = ctx;

	return kalloc(ctx, BPF_CORE_READ(e, ptr), BPF_CORE_READ(e, bytes_alloc));
}

SEC("tracepoint/kmem/kmalloc_node")
int tp_kmalloc_node(void *ctx)
{
	return kalloc_node(ctx);
}

SEC("tracepoint/kmem/kmem_cache_alloc_node")
int tp_kmem_cache_alloc_node(void *ctx)
{
	return kalloc_node(ctx);
}

static int kfree_common(const void *ptr)
{
	if (ptr)
		forget((__u64)ptr);
	return 0;
}

SEC("tracepoint/kmem/kfree")
int tp_kfree(struct trace_event_raw_kfree *e)
{
	return kfree_common(BPF_CORE_READ(e, ptr));
}

SEC("tracepoint/kmem/kmem_cache_free")
int tp_kmem_cache_free(void *ctx)
{
	if (bpf_core_type_exists(struct trace_event_raw_kmem_cache_free)) {
		struct trace_event_raw_kmem_cache_free *e = ctx;

		return kfree_common(BPF_CORE_READ(e, ptr));
	} else {
		struct trace_event_raw_kfree *e = ctx;

		return kfree_common(BPF_CORE_READ(e, ptr));
	}
}

char LICENSE[] SEC("license") = "GPL";
