// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: a known allocation load for slab_account.ko.
 *
 * Commands written to /proc/sa_test:
 *   kmalloc N S M  N kmalloc(S) from one call site (sa_test_kmalloc_loop),
 *                  then kfree the first M
 *   cache N S M    the same through its own kmem_cache of object size S
 *                  (sa_test_cache, from sa_test_cache_loop)
 *   large N M      N kmalloc of 3 pages, more than the largest kmalloc
 *                  cache (KMALLOC_MAX_CACHE_SIZE), from one call site
 *                  (sa_test_large_loop), then kfree the first M
 *   free           free every object still held, destroy the cache;
 *                  the kfree of the kmalloc objects is timed (free_ns)
 *   bench N S      N kmalloc(S)+kfree pairs, timed
 *   reuse N S      N kmalloc(S) (sa_test_reuse_first), every other
 *                  one kfree'd (reuse_freed of them), the rest with
 *                  kfree_bulk(), which traces no free; then N kzalloc(S)
 *                  (sa_test_reuse_again), kfree'd; reuse_count says how
 *                  many of those got an address kfree_bulk() freed
 *   storm 1|0      start or stop a kthread and a timer (softirq) that
 *                  allocate and free without pause
 * Reading it prints what was done: sizes as the allocator saw them
 * (ksize), objects held, and the last bench and free times.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "sa_proc.h"

#define SA_TEST_MAX	1000000
/* large kmallocs: 3 pages each, at most 48 MB */
#define SA_TEST_LARGE		(3 * PAGE_SIZE)
#define SA_TEST_LARGE_MAX	1000
/* reuse: the addresses of both rounds are compared pairwise */
#define SA_TEST_REUSE_MAX	2000

static DEFINE_MUTEX(sa_test_lock);
static void **sa_kobjs, **sa_cobjs, **sa_lobjs;
static unsigned int sa_nk, sa_nc, sa_kheld, sa_cheld, sa_nl, sa_lheld;
static size_t sa_ksize, sa_lksize;
static unsigned int sa_csize;
static struct kmem_cache *sa_cache;
static u64 sa_bench_n, sa_bench_ns, sa_free_n, sa_free_ns;
static unsigned int sa_reuse_n, sa_reuse_freed, sa_reuse_count;
static struct task_struct *sa_storm_task;
static struct timer_list sa_storm_timer;
static bool sa_storm_timer_on;

/* A constructor keeps the cache from being merged with another. */
static void sa_test_ctor(void *obj)
{
}

static noinline int sa_test_kmalloc_loop(void **objs, unsigned int n,
					 size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		objs[i] = kmalloc(size, GFP_KERNEL);
		if (!objs[i])
			return -ENOMEM;
		/* long loops under a slow (KASAN, emulated) kernel */
		cond_resched();
	}
	return 0;
}

/*
 * The size is hidden from the compiler: a constant this large goes from
 * kmalloc() straight to the large-kmalloc path, traced once with this
 * caller. A size known only at run time goes through __kmalloc*(), which
 * 6.10+ kernels trace twice: the allocator's own address first, then
 * this caller, with the same pointer and sizes.
 */
static noinline int sa_test_large_loop(void **objs, unsigned int n)
{
	size_t size = SA_TEST_LARGE;
	unsigned int i;

	OPTIMIZER_HIDE_VAR(size);
	for (i = 0; i < n; i++) {
		objs[i] = kmalloc(size, GFP_KERNEL);
		if (!objs[i])
			return -ENOMEM;
	}
	return 0;
}

static noinline int sa_test_cache_loop(void **objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(sa_cache, GFP_KERNEL);
		if (!objs[i])
			return -ENOMEM;
	}
	return 0;
}

static void sa_test_free_all(void)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	for (i = sa_nk - sa_kheld; i < sa_nk; i++)
		kfree(sa_kobjs[i]);
	sa_free_ns = ktime_get_ns() - start;
	sa_free_n = sa_kheld;
	for (i = sa_nc - sa_cheld; i < sa_nc; i++)
		kmem_cache_free(sa_cache, sa_cobjs[i]);
	for (i = sa_nl - sa_lheld; i < sa_nl; i++)
		kfree(sa_lobjs[i]);
	kvfree(sa_kobjs);
	kvfree(sa_cobjs);
	kvfree(sa_lobjs);
	sa_kobjs = NULL;
	sa_cobjs = NULL;
	sa_lobjs = NULL;
	sa_nk = 0;
	sa_nc = 0;
	sa_nl = 0;
	sa_kheld = 0;
	sa_cheld = 0;
	sa_lheld = 0;
	kmem_cache_destroy(sa_cache);
	sa_cache = NULL;
}

static int sa_test_kmalloc(unsigned int n, unsigned int size, unsigned int m)
{
	unsigned int i;

	if (sa_kobjs || !n || n > SA_TEST_MAX || m > n || !size)
		return -EINVAL;
	sa_kobjs = kvcalloc(n, sizeof(void *), GFP_KERNEL);
	if (!sa_kobjs)
		return -ENOMEM;
	sa_nk = n;
	if (sa_test_kmalloc_loop(sa_kobjs, n, size)) {
		for (i = 0; i < n; i++)
			kfree(sa_kobjs[i]);
		kvfree(sa_kobjs);
		sa_kobjs = NULL;
		sa_nk = 0;
		return -ENOMEM;
	}
	sa_ksize = ksize(sa_kobjs[0]);
	for (i = 0; i < m; i++)
		kfree(sa_kobjs[i]);
	sa_kheld = n - m;
	return 0;
}

static int sa_test_large(unsigned int n, unsigned int m)
{
	unsigned int i;

	BUILD_BUG_ON(SA_TEST_LARGE <= KMALLOC_MAX_CACHE_SIZE);
	if (sa_lobjs || !n || n > SA_TEST_LARGE_MAX || m > n)
		return -EINVAL;
	sa_lobjs = kvcalloc(n, sizeof(void *), GFP_KERNEL);
	if (!sa_lobjs)
		return -ENOMEM;
	sa_nl = n;
	if (sa_test_large_loop(sa_lobjs, n)) {
		for (i = 0; i < n; i++)
			kfree(sa_lobjs[i]);
		kvfree(sa_lobjs);
		sa_lobjs = NULL;
		sa_nl = 0;
		return -ENOMEM;
	}
	sa_lksize = ksize(sa_lobjs[0]);
	for (i = 0; i < m; i++)
		kfree(sa_lobjs[i]);
	sa_lheld = n - m;
	return 0;
}

static int sa_test_cache(unsigned int n, unsigned int size, unsigned int m)
{
	unsigned int i;

	if (sa_cobjs || !n || n > SA_TEST_MAX || m > n || !size)
		return -EINVAL;
	if (!sa_cache)
		sa_cache = kmem_cache_create("sa_test_cache", size, 0, 0,
					     sa_test_ctor);
	if (!sa_cache)
		return -ENOMEM;
	sa_csize = size;
	sa_cobjs = kvcalloc(n, sizeof(void *), GFP_KERNEL);
	if (!sa_cobjs)
		return -ENOMEM;
	sa_nc = n;
	if (sa_test_cache_loop(sa_cobjs, n)) {
		for (i = 0; i < n; i++)
			if (sa_cobjs[i])
				kmem_cache_free(sa_cache, sa_cobjs[i]);
		kvfree(sa_cobjs);
		sa_cobjs = NULL;
		sa_nc = 0;
		return -ENOMEM;
	}
	for (i = 0; i < m; i++)
		kmem_cache_free(sa_cache, sa_cobjs[i]);
	sa_cheld = n - m;
	return 0;
}

/*
 * Two call sites for reuse, each with flags of its own: a function with
 * the same code as another is folded into it by the compiler (this one
 * into sa_test_kmalloc_loop under PREEMPT_RT, where cond_resched() is
 * empty), and their allocations then share a call site.
 */
static noinline int sa_test_reuse_first(void **objs, unsigned int n,
					size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		objs[i] = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);
		if (!objs[i])
			return -ENOMEM;
	}
	return 0;
}

static noinline int sa_test_reuse_again(void **objs, unsigned int n,
					size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		objs[i] = kzalloc(size, GFP_KERNEL);
		if (!objs[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * KASAN's quarantine holds freed objects back from the allocator, so that
 * none of their addresses would come back; shrinking their cache (that of
 * kmalloc(size)) releases the quarantined ones into it.
 */
static void sa_test_unquarantine(size_t size)
{
#ifdef CONFIG_KASAN_GENERIC
	kmem_cache_shrink(kmalloc_caches[KMALLOC_NORMAL][kmalloc_index(size)]);
#endif
}

/*
 * Objects freed with no free event (kfree_bulk()), then allocations that
 * get some of their addresses again: slab_account.ko must find those
 * still tracked, count them lost at the first call site, and track them
 * under the second (its lost_frees). The other half are freed first, one
 * by one: in a crowded map some of them held the home slot of an object
 * that kfree_bulk() freed, which comes back to find it free.
 */
static int sa_test_reuse(unsigned int n, unsigned int size)
{
	void **first, **again;
	unsigned int i, j, reused = 0, freed = 0;
	int ret = -ENOMEM;

	if (!n || n > SA_TEST_REUSE_MAX || !size ||
	    size > KMALLOC_MAX_CACHE_SIZE)
		return -EINVAL;
	first = kvcalloc(n, sizeof(void *), GFP_KERNEL);
	again = kvcalloc(n, sizeof(void *), GFP_KERNEL);
	if (!first || !again)
		goto out;
	if (sa_test_reuse_first(first, n, size)) {
		for (i = 0; i < n; i++)
			kfree(first[i]);
		goto out;
	}
	/* the odd ones, then the even ones in bulk, packed to the front */
	for (i = 0; i < n; i++) {
		if (i % 2) {
			kfree(first[i]);
			freed++;
		} else {
			first[i / 2] = first[i];
		}
	}
	kfree_bulk(n - freed, first);
	sa_test_unquarantine(size);
	if (!sa_test_reuse_again(again, n, size)) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n - freed; j++)
				if (again[i] == first[j]) {
					reused++;
					break;
				}
		sa_reuse_n = n;
		sa_reuse_freed = freed;
		sa_reuse_count = reused;
		ret = 0;
	}
	for (i = 0; i < n; i++)
		kfree(again[i]);
out:
	kvfree(again);
	kvfree(first);
	return ret;
}

static noinline void sa_test_bench(unsigned int n, unsigned int size)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *p = kmalloc(size, GFP_KERNEL);

		/* keep the pair from being optimised away */
		OPTIMIZER_HIDE_VAR(p);
		kfree(p);
	}
	sa_bench_ns = ktime_get_ns() - start;
	sa_bench_n = n;
}

/* Sizes that cover several kmalloc classes; small enough for atomic. */
static const unsigned int sa_storm_sizes[] = { 8, 24, 100, 192, 500, 1500 };

static void sa_storm_round(gfp_t gfp, unsigned int k)
{
	void *p[ARRAY_SIZE(sa_storm_sizes)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p); i++)
		p[i] = kmalloc(sa_storm_sizes[(i + k) % ARRAY_SIZE(p)], gfp);
	for (i = 0; i < ARRAY_SIZE(p); i++)
		kfree(p[i]);
}

static void sa_storm_tick(struct timer_list *t)
{
	sa_storm_round(GFP_ATOMIC, jiffies);
	if (READ_ONCE(sa_storm_timer_on))
		mod_timer(&sa_storm_timer, jiffies + 1);
}

static int sa_storm_fn(void *unused)
{
	unsigned int k = 0;

	while (!kthread_should_stop()) {
		sa_storm_round(GFP_KERNEL, k++);
		/* bursts, so that a slow (emulated) guest stays usable */
		if (!(k % 64))
			usleep_range(100, 200);
	}
	return 0;
}

static int sa_test_storm(bool on)
{
	if (on && !sa_storm_task) {
		sa_storm_task = kthread_run(sa_storm_fn, NULL, "sa_storm");
		if (IS_ERR(sa_storm_task)) {
			int ret = PTR_ERR(sa_storm_task);

			sa_storm_task = NULL;
			return ret;
		}
		WRITE_ONCE(sa_storm_timer_on, true);
		mod_timer(&sa_storm_timer, jiffies + 1);
	} else if (!on && sa_storm_task) {
		kthread_stop(sa_storm_task);
		sa_storm_task = NULL;
		WRITE_ONCE(sa_storm_timer_on, false);
		del_timer_sync(&sa_storm_timer);
	}
	return 0;
}

/* A command written to /proc/sa_test, under sa_test_lock */
static int sa_test_cmd(char *buf)
{
	unsigned int a = 0, b = 0, c = 0;
	char cmd[16];
	int n = sscanf(buf, "%15s %u %u %u", cmd, &a, &b, &c);

	if (n < 1)
		return -EINVAL;
	if (!strcmp(cmd, "kmalloc") && n == 4)
		return sa_test_kmalloc(a, b, c);
	if (!strcmp(cmd, "cache") && n == 4)
		return sa_test_cache(a, b, c);
	if (!strcmp(cmd, "large") && n == 3)
		return sa_test_large(a, b);
	if (!strcmp(cmd, "free") && n == 1)
		sa_test_free_all();
	else if (!strcmp(cmd, "bench") && n == 3 && a && b)
		sa_test_bench(a, b);
	else if (!strcmp(cmd, "storm") && n == 2)
		return sa_test_storm(a);
	else if (!strcmp(cmd, "reuse") && n == 3)
		return sa_test_reuse(a, b);
	else
		return -EINVAL;
	return 0;
}

static int sa_test_show(struct seq_file *m, void *v)
{
	mutex_lock(&sa_test_lock);
	seq_printf(m, "kmalloc_objects: %u\nkmalloc_held: %u\n", sa_nk,
		   sa_kheld);
	seq_printf(m, "kmalloc_ksize: %zu\n", sa_ksize);
	seq_printf(m, "cache_objects: %u\ncache_held: %u\n", sa_nc, sa_cheld);
	seq_printf(m, "cache_object_size: %u\n", sa_csize);
	seq_printf(m, "large_objects: %u\nlarge_held: %u\n", sa_nl, sa_lheld);
	seq_printf(m, "large_size: %lu\nlarge_ksize: %zu\n", SA_TEST_LARGE,
		   sa_lksize);
	seq_printf(m, "bench_pairs: %llu\nbench_ns: %llu\n", sa_bench_n,
		   sa_bench_ns);
	seq_printf(m, "free_objects: %llu\nfree_ns: %llu\n", sa_free_n,
		   sa_free_ns);
	seq_printf(m, "storm: %d\n", sa_storm_task ? 1 : 0);
	seq_printf(m, "reuse_objects: %u\nreuse_freed: %u\n", sa_reuse_n,
		   sa_reuse_freed);
	seq_printf(m, "reuse_count: %u\n", sa_reuse_count);
	seq_printf(m, "reuse_quarantine: %d\n",
		   IS_ENABLED(CONFIG_KASAN_GENERIC));
	mutex_unlock(&sa_test_lock);
	return 0;
}

SA_PROC_FILE(sa_test, sa_test_lock);

static int __init sa_test_init(void)
{
	timer_setup(&sa_storm_timer, sa_storm_tick, 0);
	if (!proc_create("sa_test", 0600, NULL, &sa_test_ops))
		return -ENOMEM;
	return 0;
}

static void __exit sa_test_exit(void)
{
	remove_proc_entry("sa_test", NULL);
	sa_test_storm(false);
	sa_test_free_all();
}

module_init(sa_test_init);
module_exit(sa_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: a known kmalloc/kmem_cache load");
