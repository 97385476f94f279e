// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the out-of-line half of the per-CPU counters (counter.h)
 * of 32-bit kernels: a carry into a counter's high word, the read of a
 * CPU's counter whole, and the check of both at load. 64-bit kernels need
 * none of it: their counters are local64_t, all inline.
 *
 * This file uses nothing of the tables (table.c) that hold the counters:
 * counter.h is below table.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/printk.h>
#include <linux/slab.h>

#include "counter.h"

#if BITS_PER_LONG == 32
/* raised around a carry into a counter's high word */
DEFINE_PER_CPU(unsigned int, sa_ctr_seq);

/* With interrupts off (sa_ctr_begin), on the counter's own CPU */
notrace void sa_ctr_carry(struct sa_ctr *c, u32 lo, u32 carry)
{
	unsigned int *seq = this_cpu_ptr(&sa_ctr_seq);

	WRITE_ONCE(*seq, *seq + 1);
	/* the count raised before either word: pairs with sa_ctr_read */
	smp_wmb();
	WRITE_ONCE(c->hi, c->hi + carry);
	WRITE_ONCE(c->lo, lo);
	/* both words stored before the count is lowered */
	smp_wmb();
	WRITE_ONCE(*seq, *seq + 1);
}

u64 sa_ctr_read(unsigned int cpu, const struct sa_ctr *c)
{
	const unsigned int *seq = per_cpu_ptr(&sa_ctr_seq, cpu);
	unsigned int s;
	u32 lo, hi;

	for (;;) {
		s = READ_ONCE(*seq);
		/* pairs with the smp_wmb() calls of sa_ctr_carry */
		smp_rmb();
		hi = READ_ONCE(c->hi);
		lo = READ_ONCE(c->lo);
		/* the words read before the count is read again */
		smp_rmb();
		if (!(s & 1) && READ_ONCE(*seq) == s)
			return (s64)(s32)hi * SA_CTR_CARRY + lo;
		cpu_relax();
	}
}

/*
 * The carries and borrows of a counter, checked once at load on the
 * compiled code (no event brings a counter to 2^31 in a test): across
 * the carry up, back down, and below zero.
 */
int sa_ctr_check(void)
{
	static const struct {
		u32 lo;
		bool add;
		u32 v;
		s64 want;
	} cases[] = {
		{ SA_CTR_CARRY - 3, true, 5, (s64)SA_CTR_CARRY + 2 },
		{ SA_CTR_CARRY - 3, true, 3, SA_CTR_CARRY },
		{ 2, false, 7, -5 },
		{ 0, false, 1, -1 },
		{ 5, false, 5, 0 },
	};
	struct sa_ctr c;
	unsigned long flags;
	unsigned int i;
	s64 got;

	/* what one event adds to a counter */
	BUILD_BUG_ON(KMALLOC_MAX_SIZE >= SA_CTR_CARRY);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c.lo = cases[i].lo;
		c.hi = 0;
		flags = sa_ctr_begin();
		if (cases[i].add)
			sa_ctr_add(&c, cases[i].v);
		else
			sa_ctr_sub(&c, cases[i].v);
		got = (s64)sa_ctr_read(smp_processor_id(), &c);
		sa_ctr_end(flags);
		if (got != cases[i].want || c.lo >= SA_CTR_CARRY) {
			pr_err("counter check %u: %lld, not %lld\n", i,
			       got, cases[i].want);
			return -EINVAL;
		}
	}
	return 0;
}
#endif /* BITS_PER_LONG == 32 */
