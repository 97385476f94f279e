// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: reclaim tracking through the vmscan tracepoints, shown
 * in /proc/slab_account_reclaim (proc.c).
 *
 * Direct reclaim and shrink_slab are timed from their begin/start to
 * their end event in the same task. The start times wait in a small
 * preallocated table keyed by task and kind (the task may sleep and
 * migrate in between); a start that finds the table full is counted as
 * pending_full, and an end with no start (after such a start, or a
 * reclaim that began before load or reset) as unmatched.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/vmscan.h>

#include "slab_account.h"

#define SA_PENDING	256
#define SA_PEND_DIRECT	1UL
#define SA_PEND_SHRINK	2UL

struct sa_pending {
	unsigned long key;
	u64 start;
};

static DEFINE_PER_CPU(struct sa_reclaim, sa_rc);
static atomic64_t sa_direct_max_ns;
static atomic64_t sa_shrink_max_ns;
static struct sa_pending sa_pend[SA_PENDING];

static unsigned long sa_pend_key(unsigned long kind)
{
	return (unsigned long)current | kind;
}

static void sa_pend_start(unsigned long kind)
{
	unsigned long key = sa_pend_key(kind);
	unsigned int i = hash_long(key, ilog2(SA_PENDING));
	unsigned int n, slots = sa_testing_pending_slots(SA_PENDING);

	for (n = 0; n < slots; n++, i = (i + 1) % SA_PENDING) {
		if (READ_ONCE(sa_pend[i].key))
			continue;
		if (cmpxchg(&sa_pend[i].key, 0UL, key) == 0) {
			sa_pend[i].start = ktime_get_ns();
			return;
		}
	}
	/* full: this one goes untimed, and its end will be unmatched */
	this_cpu_inc(sa_rc.pending_full);
}

/* The time since the matching start, or -1. */
static s64 sa_pend_end(unsigned long kind)
{
	unsigned long key = sa_pend_key(kind);
	unsigned int i = hash_long(key, ilog2(SA_PENDING));
	unsigned int n;

	for (n = 0; n < SA_PENDING; n++, i = (i + 1) % SA_PENDING) {
		u64 start;

		if (READ_ONCE(sa_pend[i].key) != key)
			continue;
		start = sa_pend[i].start;
		if (cmpxchg(&sa_pend[i].key, key, 0UL) == key)
			return ktime_get_ns() - start;
	}
	this_cpu_inc(sa_rc.unmatched);
	return -1;
}

static void sa_max(atomic64_t *max, s64 v)
{
	s64 cur = atomic64_read(max);

	while (v > cur) {
		s64 old = atomic64_cmpxchg(max, cur, v);

		if (old == cur)
			break;
		cur = old;
	}
}

static void sa_probe_direct_begin(void *data, int order, gfp_t gfp_flags)
{
	if (sa_is_paused())
		return;
	this_cpu_inc(sa_rc.direct_entries);
	sa_pend_start(SA_PEND_DIRECT);
}

static void sa_probe_direct_end(void *data, unsigned long nr_reclaimed)
{
	s64 ns;

	if (sa_is_paused())
		return;
	this_cpu_add(sa_rc.direct_pages, nr_reclaimed);
	ns = sa_pend_end(SA_PEND_DIRECT);
	if (ns < 0)
		return;
	this_cpu_add(sa_rc.direct_ns, ns);
	sa_max(&sa_direct_max_ns, ns);
}

static void sa_probe_kswapd_wake(void *data, int nid, int zid, int order)
{
	if (!sa_is_paused())
		this_cpu_inc(sa_rc.kswapd_wakeups);
}

static void sa_probe_wakeup_kswapd(void *data, int nid, int zid, int order,
				   gfp_t gfp_flags)
{
	if (!sa_is_paused())
		this_cpu_inc(sa_rc.kswapd_requests);
}

static void sa_probe_shrink_start(void *data, struct shrinker *shr,
				  struct shrink_control *sc,
				  long nr_objects_to_shrink,
				  unsigned long cache_items,
				  unsigned long long delta,
				  unsigned long total_scan, int priority)
{
	if (sa_is_paused())
		return;
	this_cpu_inc(sa_rc.shrink_calls);
	sa_pend_start(SA_PEND_SHRINK);
}

static void sa_probe_shrink_end(void *data, struct shrinker *shr, int nid,
				int shrinker_retval, long unused_scan_cnt,
				long new_scan_cnt, long total_scan)
{
	s64 ns;

	if (sa_is_paused())
		return;
	if (shrinker_retval > 0)
		this_cpu_add(sa_rc.shrink_freed, shrinker_retval);
	ns = sa_pend_end(SA_PEND_SHRINK);
	if (ns < 0)
		return;
	this_cpu_add(sa_rc.shrink_ns, ns);
	sa_max(&sa_shrink_max_ns, ns);
}

static void sa_probe_lru_inactive(void *data, int nid,
				  unsigned long nr_scanned,
				  unsigned long nr_reclaimed,
				  struct reclaim_stat *stat, int priority,
				  int file)
{
	if (sa_is_paused())
		return;
	this_cpu_add(sa_rc.lru_scanned, nr_scanned);
	this_cpu_add(sa_rc.lru_reclaimed, nr_reclaimed);
}

/* Ends before begins, so that no begin waits for an end never seen. */
static struct sa_tp sa_vmscan_tps[] = {
	{ .name = "mm_vmscan_direct_reclaim_end",
	  .probe = sa_probe_direct_end, .optional = true },
	{ .name = "mm_vmscan_direct_reclaim_begin",
	  .probe = sa_probe_direct_begin, .optional = true },
	{ .name = "mm_vmscan_kswapd_wake",
	  .probe = sa_probe_kswapd_wake, .optional = true },
	{ .name = "mm_vmscan_wakeup_kswapd",
	  .probe = sa_probe_wakeup_kswapd, .optional = true },
	{ .name = "mm_shrink_slab_end",
	  .probe = sa_probe_shrink_end, .optional = true },
	{ .name = "mm_shrink_slab_start",
	  .probe = sa_probe_shrink_start, .optional = true },
	{ .name = "mm_vmscan_lru_shrink_inactive",
	  .probe = sa_probe_lru_inactive, .optional = true },
};

/* Only while the probes are paused and quiescent (sa_reset). */
void sa_reclaim_clear(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sa_rc, cpu), 0, sizeof(sa_rc));
	atomic64_set(&sa_direct_max_ns, 0);
	atomic64_set(&sa_shrink_max_ns, 0);
	memset(sa_pend, 0, sizeof(sa_pend));
}

/* The counters summed over the CPUs, and the longest times */
void sa_reclaim_sum(struct sa_reclaim *sum)
{
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct sa_reclaim *c = per_cpu_ptr(&sa_rc, cpu);

		sum->direct_entries += READ_ONCE(c->direct_entries);
		sum->direct_ns += READ_ONCE(c->direct_ns);
		sum->direct_pages += READ_ONCE(c->direct_pages);
		sum->kswapd_wakeups += READ_ONCE(c->kswapd_wakeups);
		sum->kswapd_requests += READ_ONCE(c->kswapd_requests);
		sum->shrink_calls += READ_ONCE(c->shrink_calls);
		sum->shrink_ns += READ_ONCE(c->shrink_ns);
		sum->shrink_freed += READ_ONCE(c->shrink_freed);
		sum->lru_reclaimed += READ_ONCE(c->lru_reclaimed);
		sum->lru_scanned += READ_ONCE(c->lru_scanned);
		sum->unmatched += READ_ONCE(c->unmatched);
		sum->pending_full += READ_ONCE(c->pending_full);
	}
	sum->direct_max_ns = atomic64_read(&sa_direct_max_ns);
	sum->shrink_max_ns = atomic64_read(&sa_shrink_max_ns);
}

int sa_reclaim_init(void)
{
	check_trace_callback_type_mm_vmscan_direct_reclaim_begin(sa_probe_direct_begin);
	check_trace_callback_type_mm_vmscan_direct_reclaim_end(sa_probe_direct_end);
	check_trace_callback_type_mm_vmscan_kswapd_wake(sa_probe_kswapd_wake);
	check_trace_callback_type_mm_vmscan_wakeup_kswapd(sa_probe_wakeup_kswapd);
	check_trace_callback_type_mm_shrink_slab_start(sa_probe_shrink_start);
	check_trace_callback_type_mm_shrink_slab_end(sa_probe_shrink_end);
	check_trace_callback_type_mm_vmscan_lru_shrink_inactive(sa_probe_lru_inactive);

	return sa_tp_register(sa_vmscan_tps, ARRAY_SIZE(sa_vmscan_tps));
}

void sa_reclaim_exit(void)
{
	sa_tp_unregister(sa_vmscan_tps, ARRAY_SIZE(sa_vmscan_tps));
}
