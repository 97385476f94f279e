// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: vmalloc and percpu allocations from known
 * functions, with known counts, sizes and alignments, for the report's
 * vmalloc and percpu sections.
 *
 * Commands written to /proc/sa_area:
 *   alloc   each function below makes its count of allocations
 *           (sa_area_vmalloc: vmalloc, sa_area_vzalloc: vzalloc,
 *           sa_area_alloc_percpu: alloc_percpu of a struct,
 *           sa_area_pcpu_aligned: __alloc_percpu with an alignment)
 *   free N  free the first N objects of each function
 *   free    free every object still held
 * Reading it prints "page_size P", "possible_cpus C" and
 * "pointer_size S", then for each function
 * "NAME KIND COUNT SIZE ALIGN HELD": the allocations it makes, the size
 * and alignment asked for (vmalloc's: page_size) and how many it holds.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sa_proc.h"
#include <linux/vmalloc.h>

#define SA_AREA_MAX		32
/* not multiples of a page: the area is the request rounded up */
#define SA_AREA_VMALLOC		10000
#define SA_AREA_VZALLOC		30000
/* __alloc_percpu: a size and an alignment of our own */
#define SA_AREA_PCPU		100
#define SA_AREA_PCPU_ALIGN	32

/* alloc_percpu's type: its size and alignment are the compiler's */
struct sa_area_pcpu {
	u64 count;
	u32 v[7];
};

enum sa_area_kind {
	SA_AREA_VM,
	SA_AREA_PERCPU,
};

enum {
	SA_A_VMALLOC,
	SA_A_VZALLOC,
	SA_A_ALLOC_PERCPU,
	SA_A_PCPU_ALIGNED,
	SA_A_NR,
};

struct sa_area_fn {
	const char *name;
	enum sa_area_kind kind;
	unsigned int count;	/* allocations per "alloc" */
	size_t size;
	size_t align;
	unsigned int held;
	union {
		void *vobjs[SA_AREA_MAX];
		void __percpu *pobjs[SA_AREA_MAX];
	};
};

/* Different counts, so that rows mixed up would not add up. */
static struct sa_area_fn sa_area_fns[SA_A_NR] = {
	[SA_A_VMALLOC] = { "sa_area_vmalloc", SA_AREA_VM, 7,
			   SA_AREA_VMALLOC, PAGE_SIZE },
	[SA_A_VZALLOC] = { "sa_area_vzalloc", SA_AREA_VM, 5,
			   SA_AREA_VZALLOC, PAGE_SIZE },
	[SA_A_ALLOC_PERCPU] = { "sa_area_alloc_percpu", SA_AREA_PERCPU, 9,
				sizeof(struct sa_area_pcpu),
				__alignof__(struct sa_area_pcpu) },
	[SA_A_PCPU_ALIGNED] = { "sa_area_pcpu_aligned", SA_AREA_PERCPU, 11,
				SA_AREA_PCPU, SA_AREA_PCPU_ALIGN },
};

static DEFINE_MUTEX(sa_area_lock);

/*
 * Each function below is the caller of its allocations: noinline, and
 * no tail call (the barrier comes after the call), which would leave
 * the return address in sa_area_alloc in its place.
 */
static noinline void *sa_area_vmalloc(void)
{
	void *p = vmalloc(SA_AREA_VMALLOC);

	barrier_data(p);
	return p;
}

static noinline void *sa_area_vzalloc(void)
{
	void *p = vzalloc(SA_AREA_VZALLOC);

	barrier_data(p);
	return p;
}

static noinline void __percpu *sa_area_alloc_percpu(void)
{
	struct sa_area_pcpu __percpu *p = alloc_percpu(struct sa_area_pcpu);

	barrier_data(p);
	return p;
}

static noinline void __percpu *sa_area_pcpu_aligned(void)
{
	void __percpu *p = __alloc_percpu(SA_AREA_PCPU, SA_AREA_PCPU_ALIGN);

	barrier_data(p);
	return p;
}

/* One allocation of function a into its next slot; -ENOMEM if none. */
static int sa_area_alloc_one(unsigned int a)
{
	struct sa_area_fn *f = &sa_area_fns[a];

	switch (a) {
	case SA_A_VMALLOC:
		f->vobjs[f->held] = sa_area_vmalloc();
		break;
	case SA_A_VZALLOC:
		f->vobjs[f->held] = sa_area_vzalloc();
		break;
	case SA_A_ALLOC_PERCPU:
		f->pobjs[f->held] = sa_area_alloc_percpu();
		break;
	case SA_A_PCPU_ALIGNED:
		f->pobjs[f->held] = sa_area_pcpu_aligned();
		break;
	default:
		return -EINVAL;
	}
	if (f->kind == SA_AREA_VM ? !f->vobjs[f->held] : !f->pobjs[f->held])
		return -ENOMEM;
	f->held++;
	return 0;
}

/* Free the first n objects still held by each function. */
static void sa_area_free(unsigned int n)
{
	unsigned int a, i, k;

	for (a = 0; a < SA_A_NR; a++) {
		struct sa_area_fn *f = &sa_area_fns[a];

		k = min(n, f->held);
		for (i = 0; i < k; i++) {
			if (f->kind == SA_AREA_VM)
				vfree(f->vobjs[i]);
			else
				free_percpu(f->pobjs[i]);
		}
		/* both members of the union are arrays of pointers */
		memmove(f->vobjs, f->vobjs + k, (f->held - k) * sizeof(void *));
		f->held -= k;
	}
}

/*
 * Each function makes its count. On a failure (-ENOMEM), what was made
 * is held, and freed by "free" or at unload.
 */
static int sa_area_alloc(void)
{
	unsigned int a, i;
	int ret;

	for (a = 0; a < SA_A_NR; a++)
		if (sa_area_fns[a].held + sa_area_fns[a].count > SA_AREA_MAX)
			return -ENOSPC;
	for (a = 0; a < SA_A_NR; a++) {
		for (i = 0; i < sa_area_fns[a].count; i++) {
			ret = sa_area_alloc_one(a);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int sa_area_show(struct seq_file *m, void *v)
{
	unsigned int a;

	mutex_lock(&sa_area_lock);
	seq_printf(m, "page_size %lu\n", PAGE_SIZE);
	seq_printf(m, "possible_cpus %u\n", num_possible_cpus());
	seq_printf(m, "pointer_size %zu\n", sizeof(void *));
	for (a = 0; a < SA_A_NR; a++) {
		const struct sa_area_fn *f = &sa_area_fns[a];

		seq_printf(m, "%s %s %u %zu %zu %u\n", f->name,
			   f->kind == SA_AREA_VM ? "vmalloc" : "percpu",
			   f->count, f->size, f->align, f->held);
	}
	mutex_unlock(&sa_area_lock);
	return 0;
}

/* A command written to /proc/sa_area, under sa_area_lock */
static int sa_area_cmd(char *arg)
{
	unsigned int n;

	if (!strcmp(arg, "alloc"))
		return sa_area_alloc();
	if (!strcmp(arg, "free"))
		sa_area_free(SA_AREA_MAX);
	else if (!strncmp(arg, "free ", 5) && !kstrtouint(arg + 5, 10, &n))
		sa_area_free(n);
	else
		return -EINVAL;
	return 0;
}

SA_PROC_FILE(sa_area, sa_area_lock);

static int __init sa_area_init(void)
{
	if (!proc_create("sa_area", 0600, NULL, &sa_area_ops))
		return -ENOMEM;
	return 0;
}

static void __exit sa_area_exit(void)
{
	remove_proc_entry("sa_area", NULL);
	sa_area_free(SA_AREA_MAX);
}

module_init(sa_area_init);
module_exit(sa_area_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: vmalloc and percpu allocations from known functions");
