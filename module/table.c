// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the call-site table and its counters; the live-object map
 * is in map.c.
 *
 * Both are allocated once at load and never grow. The probes update them
 * without locks, from any context (IRQ and NMI included): a call site or
 * an object claims an empty slot with cmpxchg, counters are per CPU
 * (counter.h: plain adds). Nothing here allocates, sleeps or
 * spins, so the module's own allocations recurse harmlessly. The probes'
 * path is in account.h, inlined into the probes; what it leaves out of line
 * (a call site's first event, large kmallocs) is in account.c, above the
 * table, the map and the wrappers' attribution (wrap.c).
 *
 * Call-site table: open addressing keyed by call site, at most
 * SA_SITE_PROBES slots probed; slots are never freed until a reset. The
 * kind is the probe's (which tracepoint fired), recorded by where the row
 * is: kmalloc rows in even slots, kmem_cache rows in odd ones, so that a
 * key is the call site as it is, with no bit of the address borrowed
 * (32-bit kernels with a 2G/2G or 1G/3G split have module text below
 * 0x80000000, and some 64-bit ones have all their text low). Two more
 * rows past the end, one per kind, take the allocations that find no
 * slot (counted as dropped). Each CPU has its own array of counters by
 * row (vmalloc'ed on its node; a row is the sum over the CPUs). The
 * header totals are sums over all the rows, so the common path touches
 * only its call site's counters. Past the overflow rows, the pair rows
 * of allocations attributed through a wrapper (wrap.c): a table of their
 * own, keyed by the caller's address and the wrapper's row.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "table.h"

#define SA_SITE_PROBES	32

DEFINE_STATIC_KEY_FALSE(sa_paused);

struct sa_hot sa_hot __read_mostly = { .golden = SA_GOLDEN };
u8 *sa_site_class;
u16 *sa_site_off;
/* pair rows: the caller, and the wrapper's row + 1 (0: being claimed) */
static unsigned long *sa_pair_keys;
static u32 *sa_pair_via;
static unsigned int sa_pair_bits;
DEFINE_PER_CPU(struct sa_count *, sa_counts);
static unsigned int sa_site_bits;
DEFINE_PER_CPU(struct sa_rare, sa_pcpu);

/* The kind of the rows in slot idx of the table: its parity. */
static enum sa_kind sa_slot_kind(unsigned int idx)
{
	BUILD_BUG_ON(SA_KMALLOC != 0 || SA_CACHE != 1 || SA_NR_KINDS != 2);
	return idx & 1;
}

/*
 * Call site key's row among its kind's slots, from its home slot on:
 * SA_NO_ROW if it has none, *to then the first empty slot past home
 * (SA_NO_ROW if the probes ran out first). A lookup goes on past an
 * empty home slot: a wrapper's call site never takes it (sa_site_claim).
 */
static u32 sa_site_probe(unsigned long key, enum sa_kind kind,
			 unsigned int *to)
{
	unsigned int mask = (1U << sa_site_bits) - 1;
	unsigned int i = sa_site_home(key, kind), home = i, n;
	unsigned long cur;

	for (n = 0; n < SA_SITE_PROBES; n++, i = (i + 2) & mask) {
		cur = READ_ONCE(sa_hot.site_keys[i]);
		if (cur == key)
			return i;
		if (!cur && i != home)
			break;
	}
	*to = n < SA_SITE_PROBES ? i : SA_NO_ROW;
	return SA_NO_ROW;
}

/* The row of call site key, or SA_NO_ROW if it has not claimed one */
u32 sa_site_find(unsigned long key, enum sa_kind kind)
{
	unsigned int to;

	return sa_site_probe(key, kind, &to);
}

/*
 * The row of call site key, claimed if it has none: its home slot or the
 * next ones of its kind's parity, the first empty one; or the kind's
 * overflow row. class and off are the call site's (sa_classify, by the
 * caller, in wrap.c). A wrapper's call site never takes its home slot,
 * so that the probes' fast path (account.h), which looks there only,
 * misses it at no cost to the others.
 */
u32 sa_site_claim(unsigned long key, enum sa_kind kind, u8 class, u16 off)
{
	unsigned int home = sa_site_home(key, kind), to;
	unsigned long cur;
	u32 row;

again:
	row = sa_site_probe(key, kind, &to);
	if (row != SA_NO_ROW)
		return row;
	if (class == SA_SITE_PLAIN && !READ_ONCE(sa_hot.site_keys[home]))
		to = home;
	else if (to == SA_NO_ROW)
		return (1U << sa_site_bits) + kind;
	cur = cmpxchg(&sa_hot.site_keys[to], 0UL, key);
	if (cur == key)
		return to;
	/* taken meanwhile by another call site: one slot fewer to try */
	if (cur)
		goto again;
	WRITE_ONCE(sa_site_off[to], off);
	WRITE_ONCE(sa_site_class[to], class);
	return to;
}

/* The first row of the pairs */
static unsigned int sa_pair_base(void)
{
	return sa_table_sites() + SA_NR_KINDS;
}

/*
 * The pair row of (via, caller), via the row of a wrapper's call site; or
 * via itself if no slot is found.
 */
u32 sa_pair_claim(u32 via, unsigned long caller)
{
	unsigned int mask = (1U << sa_pair_bits) - 1;
	unsigned long h = (caller ^ via) * SA_GOLDEN;
	unsigned int i = (h >> (BITS_PER_LONG - sa_pair_bits)) & mask;
	unsigned int n;

	for (n = 0; n < SA_SITE_PROBES; n++, i = (i + 1) & mask) {
		unsigned long cur = READ_ONCE(sa_pair_keys[i]);

		if (!cur) {
			cur = cmpxchg(&sa_pair_keys[i], 0UL, caller);
			if (!cur) {
				/* the caller claimed, then its wrapper shown */
				smp_store_release(&sa_pair_via[i], via + 1);
				return sa_pair_base() + i;
			}
		}
		if (cur != caller)
			continue;
		/* pairs with the smp_store_release() above */
		if (smp_load_acquire(&sa_pair_via[i]) == via + 1)
			return sa_pair_base() + i;
	}
	this_cpu_inc(sa_pcpu.unattributed);
	return via;
}

void sa_account_page(unsigned int order, bool alloc)
{
	if (sa_is_paused())
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

/* The sum over the CPUs of one counter of a row */
#define sa_count_sum(idx, field)					\
({									\
	unsigned int __cpu;						\
	u64 __sum = 0;							\
									\
	for_each_possible_cpu(__cpu)					\
		__sum += sa_ctr_read(__cpu, &per_cpu(sa_counts, __cpu)[idx].field); \
	__sum;								\
})

static void sa_site_copy(unsigned int idx, const struct sa_live *live,
			 struct sa_row *r)
{
	u64 lost, gone;

	r->allocs = sa_count_sum(idx, allocs);
	lost = sa_count_sum(idx, lost);
	/*
	 * req before alloc, the reverse of the probes' order,
	 * so that a row read while it grows shows req <= alloc. A reset
	 * clearing the row between the two reads can still leave req above
	 * alloc: readers print such a slack as 0 (sa_slack).
	 */
	r->bytes_req = sa_count_sum(idx, bytes_req);
	sa_testing_between_reads();
	/* req before alloc: pairs with the smp_wmb() in sa_site_add */
	smp_rmb();
	r->bytes_alloc = sa_count_sum(idx, bytes_alloc);
	r->live_objs = live[idx].objs;
	r->live_bytes = live[idx].bytes;
	r->live_req = live[idx].req;
	/*
	 * Freed: neither live nor lost. The map was counted first, so an
	 * object seen there was counted here; one allocated meanwhile and
	 * not seen there counts as freed until the next read.
	 */
	gone = lost + live[idx].objs;
	r->frees = r->allocs > gone ? r->allocs - gone : 0;
}

/* Not inlined: a test counts the walks of the table with ftrace. */
noinline bool sa_site_read(unsigned int idx, const struct sa_live *live,
			   struct sa_row *r)
{
	unsigned int sites = sa_table_sites();
	unsigned long key;
	u32 via;

	if (idx < sites) {
		key = READ_ONCE(sa_hot.site_keys[idx]);
		if (!key)
			return false;
		r->kind = sa_slot_kind(idx);
		r->via = 0;
	} else if (idx >= sa_pair_base()) {
		key = READ_ONCE(sa_pair_keys[idx - sa_pair_base()]);
		/* pairs with the smp_store_release() of sa_pair_claim */
		via = smp_load_acquire(&sa_pair_via[idx - sa_pair_base()]);
		if (!key || !via || via > sites)
			return false;
		r->kind = sa_slot_kind(via - 1);
		r->via = READ_ONCE(sa_hot.site_keys[via - 1]);
	} else {
		return false;	/* an overflow row */
	}
	r->call_site = key;
	sa_site_copy(idx, live, r);
	/* a row whose allocations all moved away (sa_repeat) is not shown */
	return r->allocs != 0;
}

/* Does the row hold allocations? (sa_site_read without the copy) */
bool sa_site_used(unsigned int idx)
{
	if (idx >= sa_pair_base())
		return READ_ONCE(sa_pair_keys[idx - sa_pair_base()]) &&
		       sa_count_sum(idx, allocs);
	return idx < sa_table_sites() && READ_ONCE(sa_hot.site_keys[idx]) &&
	       sa_count_sum(idx, allocs);
}

static void sa_counters_row(struct sa_counters *sum, const struct sa_row *r)
{
	sum->allocs[r->kind] += r->allocs;
	sum->bytes_alloc[r->kind] += r->bytes_alloc;
	sum->bytes_req[r->kind] += r->bytes_req;
	sum->frees += r->frees;
	sum->live_objs += r->live_objs;
	sum->live_bytes += r->live_bytes;
	sum->live_req += r->live_req;
}

/*
 * Totals are summed while the rows are read, so that they add up to the
 * rows shown and the table is walked once: sa_counters_start(), then
 * sa_counters_add() for each row read, then sa_counters_finish() adds the
 * overflow rows and the rare events.
 */
void sa_counters_start(struct sa_counters *sum)
{
	memset(sum, 0, sizeof(*sum));
}

void sa_counters_add(struct sa_counters *sum, const struct sa_row *r)
{
	sa_counters_row(sum, r);
	sum->callers++;
}

void sa_counters_finish(struct sa_counters *sum, const struct sa_live *live)
{
	unsigned int cpu, i, n = sa_table_sites();
	struct sa_row r;

	for (i = 0; i < SA_NR_KINDS; i++) {
		r.kind = i;
		sa_site_copy(n + i, live, &r);
		sa_counters_row(sum, &r);
		sum->dropped += r.allocs;
	}
	for_each_possible_cpu(cpu) {
		const struct sa_rare *c = per_cpu_ptr(&sa_pcpu, cpu);

		sum->untracked_frees += READ_ONCE(c->untracked_frees);
		sum->map_full += READ_ONCE(c->map_full);
		sum->lost_frees += READ_ONCE(c->lost_frees);
		sum->kmalloc_repeats += READ_ONCE(c->kmalloc_repeats);
		sum->unattributed += READ_ONCE(c->unattributed);
		sum->slow_sites += READ_ONCE(c->slow_sites);
		sum->slow_objects += READ_ONCE(c->slow_objects);
		sum->slow_frees += READ_ONCE(c->slow_frees);
		for (i = 0; i < SA_NR_ORDERS; i++) {
			sum->pages_alloc[i] += READ_ONCE(c->pages_alloc[i]);
			sum->pages_free[i] += READ_ONCE(c->pages_free[i]);
		}
	}
}

/* The row after row i in a walk of the rows, past the overflow rows */
unsigned int sa_row_next(unsigned int i)
{
	return ++i == sa_table_sites() ? i + SA_NR_KINDS : i;
}

/*
 * The rows: a slot per call site, then an overflow row per kind, then the
 * pairs
 */
unsigned int sa_table_rows(void)
{
	return sa_pair_base() + (1U << sa_pair_bits);
}

/* Only while the probes are paused and quiescent (sa_account_clear) */
void sa_table_clear(void)
{
	unsigned int cpu;

	memset(sa_hot.site_keys, 0, sizeof(*sa_hot.site_keys) * sa_table_sites());
	memset(sa_site_class, 0, sa_table_sites());
	memset(sa_site_off, 0, sizeof(*sa_site_off) * sa_table_sites());
	memset(sa_pair_keys, 0, sizeof(*sa_pair_keys) << sa_pair_bits);
	memset(sa_pair_via, 0, sizeof(*sa_pair_via) << sa_pair_bits);
	for_each_possible_cpu(cpu) {
		memset(per_cpu(sa_counts, cpu), 0,
		       sizeof(struct sa_count) * sa_table_rows());
		memset(per_cpu_ptr(&sa_pcpu, cpu), 0, sizeof(sa_pcpu));
	}
}

int sa_table_init(unsigned int sites)
{
	unsigned int cpu;

	BUILD_BUG_ON(sizeof(struct sa_count) != 32);
	if (sa_ctr_check())
		return -EINVAL;
	sa_site_bits = ilog2(roundup_pow_of_two(max(sites, 16U)));
	sa_hot.site_shift = BITS_PER_LONG - sa_site_bits;
	sa_hot.site_mask = ((1UL << sa_site_bits) - 1) & ~1UL;
	/* a pair row for every fourth call site */
	sa_pair_bits = max(sa_site_bits, 6U) - 2;
	sa_hot.site_keys = vzalloc(array_size(sizeof(*sa_hot.site_keys),
					  sa_table_sites()));
	sa_site_class = vzalloc(sa_table_sites());
	sa_site_off = vzalloc(array_size(sizeof(*sa_site_off),
					 sa_table_sites()));
	sa_pair_keys = vzalloc(array_size(sizeof(*sa_pair_keys),
					  1U << sa_pair_bits));
	sa_pair_via = vzalloc(array_size(sizeof(*sa_pair_via),
					 1U << sa_pair_bits));
	if (!sa_hot.site_keys || !sa_site_class || !sa_site_off ||
	    !sa_pair_keys || !sa_pair_via)
		goto err;
	for_each_possible_cpu(cpu) {
		per_cpu(sa_counts, cpu) =
			vzalloc_node(array_size(sizeof(struct sa_count),
						sa_table_rows()),
				     cpu_to_node(cpu));
		if (!per_cpu(sa_counts, cpu))
			goto err;
	}
	return 0;

err:
	sa_table_exit();
	return -ENOMEM;
}

void sa_table_exit(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		vfree(per_cpu(sa_counts, cpu));
		per_cpu(sa_counts, cpu) = NULL;
	}
	vfree(sa_pair_via);
	sa_pair_via = NULL;
	vfree(sa_pair_keys);
	sa_pair_keys = NULL;
	vfree(sa_site_off);
	sa_site_off = NULL;
	vfree(sa_site_class);
	sa_site_class = NULL;
	vfree(sa_hot.site_keys);
	sa_hot.site_keys = NULL;
}
