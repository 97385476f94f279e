// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the call-site table and the live-object map.
 *
 * Both are allocated once at load and never grow. The probes update them
 * without locks, from any context (IRQ and NMI included): a call site or
 * an object claims an empty slot with cmpxchg, counters are atomic64 (per
 * call site) or per-CPU (totals). Nothing here allocates, sleeps or
 * spins, so the module's own allocations recurse harmlessly.
 *
 * Call-site table: open addressing keyed by call site and kind, at most
 * SA_SITE_PROBES slots probed; a full table counts the allocation as
 * dropped. Slots are never freed until a reset.
 *
 * Live-object map: buckets of SA_BUCKET slots keyed by object address (one
 * cache line of keys per bucket), with the call site, sizes and CPU beside
 * them. An allocation's probe runs before the caller sees the pointer and
 * a free's probe runs before the memory is released, so the events of one
 * address never race with each other.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "slab_account.h"

#define SA_SITE_PROBES	32
#define SA_BUCKET	8

/*
 * Kernel text addresses have the top bit set; a kmem_cache call site is
 * stored with it cleared, so one key holds both the address and the kind.
 */
#define SA_KIND_BIT	(1UL << (BITS_PER_LONG - 1))

struct sa_site {
	unsigned long key;		/* 0: empty */
	atomic64_t bytes_alloc;
	atomic64_t bytes_req;
	atomic64_t allocs;
	atomic64_t frees;
	atomic64_t live_objs;
	atomic64_t live_bytes;
	atomic64_t live_req;
};

struct sa_obj {
	u32 site;
	u32 bytes_alloc;
	u32 bytes_req;
	u32 cpu;
};

bool sa_paused;

static struct sa_site *sa_sites;
static unsigned int sa_site_bits;
static unsigned long *sa_obj_keys;
static struct sa_obj *sa_objs;
static unsigned int sa_bucket_bits;
static DEFINE_PER_CPU(struct sa_counters, sa_pcpu);

static unsigned long sa_site_key(unsigned long call_site, enum sa_kind kind)
{
	return kind == SA_CACHE ? call_site & ~SA_KIND_BIT
				: call_site | SA_KIND_BIT;
}

/* The row of a call site, claimed if new, or SA_NO_SITE if full. */
static u32 sa_site_get(unsigned long key)
{
	unsigned int mask = (1U << sa_site_bits) - 1;
	unsigned int i = hash_long(key, sa_site_bits);
	unsigned int n;

	for (n = 0; n < SA_SITE_PROBES; n++, i = (i + 1) & mask) {
		unsigned long cur = READ_ONCE(sa_sites[i].key);

		if (cur == key)
			return i;
		if (cur)
			continue;
		cur = cmpxchg(&sa_sites[i].key, 0UL, key);
		if (!cur || cur == key)
			return i;
	}
	return SA_NO_SITE;
}

static void sa_live_add(u32 site, s64 objs, s64 bytes, s64 req)
{
	this_cpu_add(sa_pcpu.live_objs, objs);
	this_cpu_add(sa_pcpu.live_bytes, bytes);
	this_cpu_add(sa_pcpu.live_req, req);
	if (site == SA_NO_SITE)
		return;
	atomic64_add(objs, &sa_sites[site].live_objs);
	atomic64_add(bytes, &sa_sites[site].live_bytes);
	atomic64_add(req, &sa_sites[site].live_req);
}

static void sa_obj_fill(struct sa_obj *o, u32 site, size_t alloc, size_t req)
{
	o->site = site;
	o->bytes_alloc = min_t(size_t, alloc, U32_MAX);
	o->bytes_req = min_t(size_t, req, U32_MAX);
	o->cpu = raw_smp_processor_id();
}

/* Track ptr; false if its bucket is full. */
static bool sa_obj_insert(const void *ptr, u32 site, size_t alloc,
			  size_t req)
{
	unsigned long key = (unsigned long)ptr;
	unsigned int b = hash_long(key, sa_bucket_bits) * SA_BUCKET;
	unsigned long *keys = &sa_obj_keys[b];
	unsigned int i;

	/* Still tracked: it was freed by a path with no free event. */
	for (i = 0; i < SA_BUCKET; i++) {
		if (READ_ONCE(keys[i]) == key) {
			struct sa_obj *o = &sa_objs[b + i];

			sa_live_add(o->site, -1, -(s64)o->bytes_alloc,
				    -(s64)o->bytes_req);
			this_cpu_inc(sa_pcpu.lost_frees);
			sa_obj_fill(o, site, alloc, req);
			return true;
		}
	}
	for (i = 0; i < SA_BUCKET; i++) {
		if (READ_ONCE(keys[i]))
			continue;
		if (cmpxchg(&keys[i], 0UL, key) == 0) {
			sa_obj_fill(&sa_objs[b + i], site, alloc, req);
			return true;
		}
	}
	return false;
}

/* Stop tracking ptr; false if it was not tracked. */
static bool sa_obj_remove(const void *ptr, struct sa_obj *out)
{
	unsigned long key = (unsigned long)ptr;
	unsigned int b = hash_long(key, sa_bucket_bits) * SA_BUCKET;
	unsigned long *keys = &sa_obj_keys[b];
	unsigned int i;

	for (i = 0; i < SA_BUCKET; i++) {
		if (READ_ONCE(keys[i]) != key)
			continue;
		*out = sa_objs[b + i];
		/* a full barrier: the copy is taken before the slot is free */
		if (cmpxchg(&keys[i], key, 0UL) == key)
			return true;
	}
	return false;
}

void sa_account_alloc(enum sa_kind kind, unsigned long call_site,
		      const void *ptr, size_t req, size_t alloc)
{
	u32 site;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	this_cpu_inc(sa_pcpu.allocs[kind]);
	this_cpu_add(sa_pcpu.bytes_alloc[kind], alloc);
	this_cpu_add(sa_pcpu.bytes_req[kind], req);
	site = sa_site_get(sa_site_key(call_site, kind));
	if (site == SA_NO_SITE) {
		this_cpu_inc(sa_pcpu.dropped);
	} else {
		atomic64_inc(&sa_sites[site].allocs);
		atomic64_add(alloc, &sa_sites[site].bytes_alloc);
		atomic64_add(req, &sa_sites[site].bytes_req);
	}
	if (!sa_obj_insert(ptr, site, alloc, req)) {
		this_cpu_inc(sa_pcpu.map_full);
		return;
	}
	sa_live_add(site, 1, alloc, req);
}

void sa_account_free(const void *ptr)
{
	struct sa_obj o;

	if (unlikely(ZERO_OR_NULL_PTR(ptr)) || unlikely(READ_ONCE(sa_paused)))
		return;
	if (!sa_obj_remove(ptr, &o)) {
		this_cpu_inc(sa_pcpu.untracked_frees);
		return;
	}
	this_cpu_inc(sa_pcpu.frees);
	if (o.site != SA_NO_SITE)
		atomic64_inc(&sa_sites[o.site].frees);
	sa_live_add(o.site, -1, -(s64)o.bytes_alloc, -(s64)o.bytes_req);
}

void sa_account_page(unsigned int order, bool alloc)
{
	if (unlikely(READ_ONCE(sa_paused)))
		return;
	order = min_t(unsigned int, order, SA_NR_ORDERS - 1);
	if (alloc)
		this_cpu_inc(sa_pcpu.pages_alloc[order]);
	else
		this_cpu_inc(sa_pcpu.pages_free[order]);
}

unsigned int sa_table_sites(void)
{
	return 1U << sa_site_bits;
}

unsigned int sa_table_objects(void)
{
	return SA_BUCKET << sa_bucket_bits;
}

bool sa_site_read(unsigned int idx, struct sa_row *r)
{
	const struct sa_site *s = &sa_sites[idx];
	unsigned long key = READ_ONCE(s->key);

	if (!key)
		return false;
	r->kind = key & SA_KIND_BIT ? SA_KMALLOC : SA_CACHE;
	r->call_site = key | SA_KIND_BIT;
	r->bytes_alloc = atomic64_read(&s->bytes_alloc);
	r->bytes_req = atomic64_read(&s->bytes_req);
	r->allocs = atomic64_read(&s->allocs);
	r->frees = atomic64_read(&s->frees);
	r->live_objs = atomic64_read(&s->live_objs);
	r->live_bytes = atomic64_read(&s->live_bytes);
	r->live_req = atomic64_read(&s->live_req);
	return true;
}

void sa_counters_sum(struct sa_counters *sum)
{
	unsigned int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct sa_counters *c = per_cpu_ptr(&sa_pcpu, cpu);

		for (i = 0; i < SA_NR_KINDS; i++) {
			sum->allocs[i] += READ_ONCE(c->allocs[i]);
			sum->bytes_alloc[i] += READ_ONCE(c->bytes_alloc[i]);
			sum->bytes_req[i] += READ_ONCE(c->bytes_req[i]);
		}
		sum->frees += READ_ONCE(c->frees);
		sum->untracked_frees += READ_ONCE(c->untracked_frees);
		sum->dropped += READ_ONCE(c->dropped);
		sum->map_full += READ_ONCE(c->map_full);
		sum->lost_frees += READ_ONCE(c->lost_frees);
		sum->live_objs += READ_ONCE(c->live_objs);
		sum->live_bytes += READ_ONCE(c->live_bytes);
		sum->live_req += READ_ONCE(c->live_req);
		for (i = 0; i < SA_NR_ORDERS; i++) {
			sum->pages_alloc[i] += READ_ONCE(c->pages_alloc[i]);
			sum->pages_free[i] += READ_ONCE(c->pages_free[i]);
		}
	}
}

/* Only while the probes are paused and quiescent (sa_reset). */
void sa_table_clear(void)
{
	unsigned int cpu;

	memset(sa_sites, 0, sizeof(*sa_sites) << sa_site_bits);
	memset(sa_obj_keys, 0, sizeof(*sa_obj_keys) * sa_table_objects());
	memset(sa_objs, 0, sizeof(*sa_objs) * sa_table_objects());
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sa_pcpu, cpu), 0, sizeof(sa_pcpu));
}

int sa_table_init(unsigned int sites, unsigned int objects)
{
	unsigned int nobj;

	BUILD_BUG_ON(sizeof(struct sa_site) != 64);
	BUILD_BUG_ON(BITS_PER_LONG != 64);
	sa_site_bits = ilog2(roundup_pow_of_two(max(sites, 16U)));
	sa_bucket_bits = ilog2(roundup_pow_of_two(max(objects, 64U) /
						  SA_BUCKET));
	nobj = sa_table_objects();
	sa_sites = vzalloc(array_size(sizeof(*sa_sites), sa_table_sites()));
	sa_obj_keys = vzalloc(array_size(sizeof(*sa_obj_keys), nobj));
	sa_objs = vzalloc(array_size(sizeof(*sa_objs), nobj));
	if (!sa_sites || !sa_obj_keys || !sa_objs) {
		sa_table_exit();
		return -ENOMEM;
	}
	return 0;
}

void sa_table_exit(void)
{
	vfree(sa_objs);
	vfree(sa_obj_keys);
	vfree(sa_sites);
	sa_objs = NULL;
	sa_obj_keys = NULL;
	sa_sites = NULL;
}
