// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: probes on the four kmem events slab_account.ko
 * attaches to (kmalloc, kfree, kmem_cache_alloc, kmem_cache_free),
 * registered as it registers its own, doing as little as a probe can.
 * bench/module-overhead.sh times a kmalloc+kfree pair with each beside
 * the module, in the same boot:
 *
 *   work=0  empty probes: the tracepoints' dispatch alone, the kernel's
 *           floor under any probe on these events (the default);
 *   work=1  "counts": kmalloc adds to its call site's three counters
 *           (allocations, bytes allocated and requested), found by the
 *           site's hash alone, on the CPU's own row;
 *   work=2  "floor": that, and kmalloc records the object (address, row,
 *           sizes) in the slot its address hashes to, and kfree clears
 *           the slot if it holds the address.
 *
 * work=2 keeps what slab_account.ko keeps of a plain pair, and none of
 * what makes it exact: no compare of the site with its row's key (sites
 * of one hash share a row), no claim of the object's slot (an object
 * overwrites another of its hash), plain adds that an interrupt's
 * probe may split on ARM, no test of a NULL pointer. So a pair costs
 * any exact accounting at least what it costs with work=2. The
 * kmem_cache events keep empty probes: the benchmark's pair is
 * kmalloc+kfree.
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

static int work;
module_param(work, int, 0444);
MODULE_PARM_DESC(work, "0: empty probes (default), 1: a site's counters, 2: counters and the object's slot");

#define SA_NULL_SITE_BITS	12
#define SA_NULL_OBJ_BITS	16

struct sa_null_count {
	unsigned long allocs;
	unsigned long bytes_alloc;
	unsigned long bytes_req;
};

/* as slab_account.ko's slot of its live-object map */
struct sa_null_obj {
	unsigned long key;
	u32 site;
	u32 bytes_alloc;
	u32 bytes_req;
};

static DEFINE_PER_CPU(struct sa_null_count *, sa_null_counts);
static struct sa_null_obj *sa_null_objs;

/*
 * One empty function for every event that has no work: a tracepoint
 * calls its probes with the event's arguments, which an empty body never
 * reads. notrace, as slab_account.ko's probes are.
 */
static notrace void sa_null_probe(void)
{
}

/* kmalloc's first four arguments, the same on every kernel since 6.1 */
static notrace void sa_null_count(void *data, unsigned long call_site,
				  const void *ptr, size_t req, size_t alloc)
{
	unsigned long site = hash_long(call_site, SA_NULL_SITE_BITS);
	struct sa_null_count *c = this_cpu_read(sa_null_counts) + site;

	c->allocs++;
	c->bytes_alloc += alloc;
	c->bytes_req += req;
}

static notrace void sa_null_floor(void *data, unsigned long call_site,
				  const void *ptr, size_t req, size_t alloc)
{
	unsigned long site = hash_long(call_site, SA_NULL_SITE_BITS);
	struct sa_null_count *c = this_cpu_read(sa_null_counts) + site;
	struct sa_null_obj *o;

	c->allocs++;
	c->bytes_alloc += alloc;
	c->bytes_req += req;
	o = &sa_null_objs[hash_ptr(ptr, SA_NULL_OBJ_BITS)];
	o->key = (unsigned long)ptr;
	o->site = site;
	o->bytes_alloc = alloc;
	o->bytes_req = req;
}

static notrace void sa_null_free(void *data, unsigned long call_site,
				 const void *ptr)
{
	struct sa_null_obj *o = &sa_null_objs[hash_ptr(ptr, SA_NULL_OBJ_BITS)];

	if (o->key == (unsigned long)ptr)
		o->key = 0;
}

static struct {
	struct tracepoint *tp;
	void *probe;
} sa_null_tps[] = {
	{ &__tracepoint_kfree, sa_null_probe },
	{ &__tracepoint_kmem_cache_free, sa_null_probe },
	{ &__tracepoint_kmalloc, sa_null_probe },
	{ &__tracepoint_kmem_cache_alloc, sa_null_probe },
};

static void sa_null_tables_free(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		kvfree(per_cpu(sa_null_counts, cpu));
	kvfree(sa_null_objs);
}

static int sa_null_tables(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(sa_null_counts, cpu) =
			kvcalloc(1UL << SA_NULL_SITE_BITS,
				 sizeof(struct sa_null_count), GFP_KERNEL);
		if (!per_cpu(sa_null_counts, cpu))
			goto nomem;
	}
	sa_null_objs = kvcalloc(1UL << SA_NULL_OBJ_BITS,
				sizeof(*sa_null_objs), GFP_KERNEL);
	if (sa_null_objs)
		return 0;
nomem:
	sa_null_tables_free();
	return -ENOMEM;
}

static void sa_null_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(sa_null_tps[n].tp,
					    sa_null_tps[n].probe, NULL);
	tracepoint_synchronize_unregister();
}

static int __init sa_null_init(void)
{
	unsigned int i;
	int ret;

	if (work < 0 || work > 2) {
		pr_err("sa_null: work=%d: expected 0 (empty), 1 (counts) or 2 (floor)\n",
		       work);
		return -EINVAL;
	}
	if (work) {
		ret = sa_null_tables();
		if (ret)
			return ret;
		sa_null_tps[2].probe = work == 1 ? (void *)sa_null_count
						 : (void *)sa_null_floor;
		if (work == 2)
			sa_null_tps[0].probe = sa_null_free;
	}
	for (i = 0; i < ARRAY_SIZE(sa_null_tps); i++) {
		ret = tracepoint_probe_register(sa_null_tps[i].tp,
						sa_null_tps[i].probe, NULL);
		if (ret) {
			sa_null_unregister(i);
			sa_null_tables_free();
			return ret;
		}
	}
	return 0;
}

static void __exit sa_null_exit(void)
{
	sa_null_unregister(ARRAY_SIZE(sa_null_tps));
	sa_null_tables_free();
}

module_init(sa_null_init);
module_exit(sa_null_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: the least probes on the kmem events can do (the tracepoints' dispatch, and a floor under exact accounting)");
