// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: allocations through wrappers, from known
 * functions, with known counts and sizes, for the attribution of the
 * module (slab_account.ko) and of the report (record --stacks).
 *
 * Commands written to /proc/sa_wrap:
 *   alloc   each of the functions below makes its count of allocations
 *           through its wrapper (sa_wrap_kvmalloc: kvmalloc, ...)
 *   free N  free the first N objects of each function
 *   free    free every object still held
 *   bench N N kvmalloc+kvfree pairs (through kvmalloc_node: a wrapper's
 *           call site), then N kmalloc+kfree pairs of the same size (a
 *           plain call site), each loop timed
 * Reading it prints, for each function, "NAME COUNT REQ KSIZE HELD":
 * the allocations it makes, the size asked for and the size the
 * allocator gave (ksize), and how many are held; then, after a bench,
 * "bench N KVMALLOC_NS KMALLOC_NS".
 */
#include <linux/kernel.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "sa_proc.h"

#define SA_WRAP_MAX	32
#define SA_WRAP_BENCH_MAX	10000000

/* a string of 40 characters, duplicated with kstrdup (41 bytes) */
static const char sa_wrap_str[] = "slabacct-wrapper-test-string-of-40-chars";
#define SA_WRAP_DUP	72	/* kmemdup */
/*
 * kvmalloc: more than a page, so that kvmalloc_node's kmalloc is not a
 * tail call (its call site is then the caller's), and less than
 * KMALLOC_MAX_CACHE_SIZE, so that it comes from a kmalloc cache
 */
#define SA_WRAP_KV	5000
#define SA_WRAP_RE	90	/* krealloc(NULL, ...) */
#define SA_WRAP_POOL	120	/* mempool_kmalloc's element */

enum {
	SA_W_KVMALLOC,
	SA_W_KSTRDUP,
	SA_W_KMEMDUP,
	SA_W_KASPRINTF,
	SA_W_KREALLOC,
	SA_W_MEMPOOL,
	SA_W_NR,
};

struct sa_wrap_fn {
	const char *name;
	unsigned int count;	/* allocations per "alloc" */
	size_t req;
	size_t ksize;
	unsigned int held;
	void *objs[SA_WRAP_MAX];
};

/* Different counts, so that rows mixed up would not add up. */
static struct sa_wrap_fn sa_wrap_fns[SA_W_NR] = {
	[SA_W_KVMALLOC] = { "sa_wrap_kvmalloc", 11, SA_WRAP_KV },
	[SA_W_KSTRDUP] = { "sa_wrap_kstrdup", 12, sizeof(sa_wrap_str) },
	[SA_W_KMEMDUP] = { "sa_wrap_kmemdup", 13, SA_WRAP_DUP },
	/* "%s-%u": the string and "-0" to "-9" */
	[SA_W_KASPRINTF] = { "sa_wrap_kasprintf", 14, sizeof(sa_wrap_str) + 2 },
	[SA_W_KREALLOC] = { "sa_wrap_krealloc", 15, SA_WRAP_RE },
	[SA_W_MEMPOOL] = { "sa_wrap_mempool", 16, SA_WRAP_POOL },
};

static DEFINE_MUTEX(sa_wrap_lock);
static mempool_t *sa_wrap_pool;
static u8 sa_wrap_buf[SA_WRAP_DUP];
static u64 sa_wrap_bench_n, sa_wrap_bench_kv, sa_wrap_bench_k;

/*
 * Each function below is a frame of its allocations' stacks: noinline,
 * and no tail call (the barrier comes after the call), which would leave
 * the caller's return address, in sa_wrap_alloc or sa_wrap_bench, in
 * its place.
 */
static noinline void *sa_wrap_kvmalloc(unsigned int i)
{
	void *p = kvmalloc(SA_WRAP_KV, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void *sa_wrap_kstrdup(unsigned int i)
{
	void *p = kstrdup(sa_wrap_str, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void *sa_wrap_kmemdup(unsigned int i)
{
	void *p = kmemdup(sa_wrap_buf, SA_WRAP_DUP, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void *sa_wrap_kasprintf(unsigned int i)
{
	void *p = kasprintf(GFP_KERNEL, "%s-%u", sa_wrap_str, i % 10);

	barrier_data(p);
	return p;
}

static noinline void *sa_wrap_krealloc(unsigned int i)
{
	void *p = krealloc(NULL, SA_WRAP_RE, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static noinline void *sa_wrap_mempool(unsigned int i)
{
	void *p = mempool_alloc(sa_wrap_pool, GFP_KERNEL);

	barrier_data(p);
	return p;
}

static void *(*const sa_wrap_alloc_fn[SA_W_NR])(unsigned int) = {
	[SA_W_KVMALLOC] = sa_wrap_kvmalloc,
	[SA_W_KSTRDUP] = sa_wrap_kstrdup,
	[SA_W_KMEMDUP] = sa_wrap_kmemdup,
	[SA_W_KASPRINTF] = sa_wrap_kasprintf,
	[SA_W_KREALLOC] = sa_wrap_krealloc,
	[SA_W_MEMPOOL] = sa_wrap_mempool,
};

static void sa_wrap_free_one(unsigned int w, void *p)
{
	if (w == SA_W_KVMALLOC)
		kvfree(p);
	else if (w == SA_W_MEMPOOL)
		mempool_free(p, sa_wrap_pool);	/* the pool is full: kfree */
	else
		kfree(p);
}

/* Free the first n objects still held by each function. */
static void sa_wrap_free(unsigned int n)
{
	unsigned int w, i, k;

	for (w = 0; w < SA_W_NR; w++) {
		struct sa_wrap_fn *f = &sa_wrap_fns[w];

		k = min(n, f->held);
		for (i = 0; i < k; i++)
			sa_wrap_free_one(w, f->objs[i]);
		memmove(f->objs, f->objs + k, (f->held - k) * sizeof(void *));
		f->held -= k;
	}
}

static int sa_wrap_alloc(void)
{
	unsigned int w, i;

	for (w = 0; w < SA_W_NR; w++) {
		struct sa_wrap_fn *f = &sa_wrap_fns[w];

		if (f->held + f->count > SA_WRAP_MAX)
			return -ENOSPC;
	}
	for (w = 0; w < SA_W_NR; w++) {
		struct sa_wrap_fn *f = &sa_wrap_fns[w];

		for (i = 0; i < f->count; i++) {
			void *p = sa_wrap_alloc_fn[w](i);

			if (!p)
				return -ENOMEM;
			f->objs[f->held++] = p;
			f->ksize = ksize(p);
		}
	}
	return 0;
}

static noinline void sa_wrap_bench_kvmalloc(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kvfree(sa_wrap_kvmalloc(i));
}

static noinline void sa_wrap_bench_kmalloc(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *p = kmalloc(SA_WRAP_KV, GFP_KERNEL);

		barrier_data(p);
		kfree(p);
	}
}

static void sa_wrap_bench(unsigned int n)
{
	u64 t0 = ktime_get_ns(), t1, t2;

	sa_wrap_bench_kvmalloc(n);
	t1 = ktime_get_ns();
	sa_wrap_bench_kmalloc(n);
	t2 = ktime_get_ns();
	sa_wrap_bench_n = n;
	sa_wrap_bench_kv = t1 - t0;
	sa_wrap_bench_k = t2 - t1;
}

static int sa_wrap_show(struct seq_file *m, void *v)
{
	unsigned int w;

	mutex_lock(&sa_wrap_lock);
	for (w = 0; w < SA_W_NR; w++) {
		const struct sa_wrap_fn *f = &sa_wrap_fns[w];

		seq_printf(m, "%s %u %zu %zu %u\n", f->name, f->count, f->req,
			   f->ksize, f->held);
	}
	if (sa_wrap_bench_n)
		seq_printf(m, "bench %llu %llu %llu\n", sa_wrap_bench_n,
			   sa_wrap_bench_kv, sa_wrap_bench_k);
	mutex_unlock(&sa_wrap_lock);
	return 0;
}

/* A command written to /proc/sa_wrap, under sa_wrap_lock */
static int sa_wrap_cmd(char *arg)
{
	unsigned int n;

	if (!strcmp(arg, "alloc"))
		return sa_wrap_alloc();
	if (!strcmp(arg, "free"))
		sa_wrap_free(SA_WRAP_MAX);
	else if (!strncmp(arg, "free ", 5) && !kstrtouint(arg + 5, 10, &n))
		sa_wrap_free(n);
	else if (!strncmp(arg, "bench ", 6) && !kstrtouint(arg + 6, 10, &n) &&
		 n && n <= SA_WRAP_BENCH_MAX)
		sa_wrap_bench(n);
	else
		return -EINVAL;
	return 0;
}

SA_PROC_FILE(sa_wrap, sa_wrap_lock);

static int __init sa_wrap_init(void)
{
	memset(sa_wrap_buf, 0x5a, sizeof(sa_wrap_buf));
	/* one element in reserve: mempool_free of the others is a kfree */
	sa_wrap_pool = mempool_create_kmalloc_pool(1, SA_WRAP_POOL);
	if (!sa_wrap_pool)
		return -ENOMEM;
	if (!proc_create("sa_wrap", 0600, NULL, &sa_wrap_ops)) {
		mempool_destroy(sa_wrap_pool);
		return -ENOMEM;
	}
	return 0;
}

static void __exit sa_wrap_exit(void)
{
	remove_proc_entry("sa_wrap", NULL);
	sa_wrap_free(SA_WRAP_MAX);
	mempool_destroy(sa_wrap_pool);
}

module_init(sa_wrap_init);
module_exit(sa_wrap_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: allocations through wrappers from known functions");
