/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: a per-CPU 64-bit counter that the probes add to with
 * plain instructions, on 64-bit and 32-bit kernels alike, and that any
 * CPU can read whole.
 *
 * 64-bit kernels: a local64_t, whose add no interrupt on the CPU can
 * split (one instruction on x86-64).
 *
 * 32-bit kernels have no 64-bit local operations: local64_t is an
 * atomic64_t there, an exclusive load/store loop per add (ldrexd/strexd
 * on ARMv7). Here a counter is two words instead, lo + hi * 2^31, lo
 * kept below 2^31 (one event adds less than that: sizes fit 31 bits), so
 * that an add never wraps lo and bit 31 of a sum says it must carry. The
 * probes run inside the tracepoint with preemption off (the tracepoint's
 * preempt_disable_notrace(), on PREEMPT_RT too), so only an interrupt
 * can run another probe on the CPU meanwhile: a group of adds runs with
 * interrupts off (sa_ctr_begin/end), each a plain add to lo. An add that
 * carries into hi (or a subtraction that borrows from it) goes out of
 * line, and raises the CPU's sequence count, sa_ctr_seq, before and
 * after it stores both words, so that a reader on another CPU, which
 * reads hi, then lo, between two reads of that count, never takes the
 * halves of two values: one 32-bit store changes a counter, except
 * within a raised count. hi is signed, as a local64_t is: a CPU's count
 * can go below zero (a repeat taken back on another CPU than its first
 * event's), and the sum over the CPUs is still right. The out-of-line
 * half is in counter.c, which knows nothing of the tables using it.
 */
#ifndef SLAB_ACCOUNT_COUNTER_H
#define SLAB_ACCOUNT_COUNTER_H

#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <asm/local64.h>

#if BITS_PER_LONG == 64

struct sa_ctr {
	local64_t v;
};

static __always_inline unsigned long sa_ctr_begin(void)
{
	return 0;
}

static __always_inline void sa_ctr_end(unsigned long flags)
{
}

static __always_inline void sa_ctr_add(struct sa_ctr *c, unsigned long v)
{
	local64_add(v, &c->v);
}

static __always_inline void sa_ctr_sub(struct sa_ctr *c, unsigned long v)
{
	local64_sub(v, &c->v);
}

/* Read CPU cpu's counter c */
static inline u64 sa_ctr_read(unsigned int cpu, const struct sa_ctr *c)
{
	return local64_read((local64_t *)&c->v);
}

/* nothing out of line to check */
static inline int sa_ctr_check(void)
{
	return 0;
}

#else /* BITS_PER_LONG == 32 */

struct sa_ctr {
	u32 lo;		/* below SA_CTR_CARRY */
	u32 hi;		/* signed, in units of SA_CTR_CARRY */
};

#define SA_CTR_CARRY	BIT(31)

DECLARE_PER_CPU(unsigned int, sa_ctr_seq);

/* counter.c: a carry (or borrow) into c's hi, lo the new lo */
void sa_ctr_carry(struct sa_ctr *c, u32 lo, u32 carry);

/*
 * Interrupts off around a group of adds. raw_: the probes are notrace,
 * and this is no critical section lockdep needs to know of.
 */
static __always_inline unsigned long sa_ctr_begin(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	return flags;
}

static __always_inline void sa_ctr_end(unsigned long flags)
{
	raw_local_irq_restore(flags);
}

/* v below SA_CTR_CARRY */
static __always_inline void sa_ctr_add(struct sa_ctr *c, u32 v)
{
	u32 lo = c->lo + v;

	if (likely(lo < SA_CTR_CARRY))
		WRITE_ONCE(c->lo, lo);
	else
		sa_ctr_carry(c, lo - SA_CTR_CARRY, 1);
}

static __always_inline void sa_ctr_sub(struct sa_ctr *c, u32 v)
{
	u32 lo = c->lo - v;

	if (likely(lo < SA_CTR_CARRY))
		WRITE_ONCE(c->lo, lo);
	else
		sa_ctr_carry(c, lo + SA_CTR_CARRY, -1U);
}

/* Read CPU cpu's counter c (counter.c) */
u64 sa_ctr_read(unsigned int cpu, const struct sa_ctr *c);

/* counter.c: the carries and borrows checked once at load, 0 if right */
int sa_ctr_check(void);

#endif /* BITS_PER_LONG */

#endif /* SLAB_ACCOUNT_COUNTER_H */
