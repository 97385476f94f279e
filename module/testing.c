// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: knobs for the tests, built only into the test build
 * (SA_TEST=1, see module/Kbuild). The module users load has none of them,
 * and the calls to them compile to nothing (slab_account.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#include "slab_account.h"

static int fail_at;
module_param(fail_at, int, 0444);
MODULE_PARM_DESC(fail_at, "testing only: fail init at step N (1..7) to exercise the unwinding");

int sa_testing_fail(int step)
{
	if (fail_at != step)
		return 0;
	pr_info("failing init at step %d on request\n", step);
	return -EAGAIN;
}

/*
 * A planted bug for the debug kernel's tests. When set, the next kmalloc
 * probe calls might_sleep() in atomic context (probes run with preemption
 * off), which DEBUG_ATOMIC_SLEEP must report. It fires once and clears
 * itself.
 */
static bool test_sleep_in_probe;
module_param(test_sleep_in_probe, bool, 0600);
MODULE_PARM_DESC(test_sleep_in_probe, "testing only: the next kmalloc probe calls might_sleep() in atomic context, a bug DEBUG_ATOMIC_SLEEP must catch");

void sa_testing_probe(void)
{
	if (unlikely(READ_ONCE(test_sleep_in_probe))) {
		WRITE_ONCE(test_sleep_in_probe, false);
		might_sleep();
	}
}

/*
 * Between the reads of one row's counters: widen the window, so that a
 * test sees rows read while the probes update them, as a busy machine
 * does now and then (a sleep, so that the allocating task runs meanwhile
 * even on the reader's CPU: rows are read only in process context, the
 * /proc files and the OOM notifier); or reset the tables there once, as
 * a reset racing a read can.
 */
static unsigned int test_read_gap_us;
module_param(test_read_gap_us, uint, 0600);
MODULE_PARM_DESC(test_read_gap_us, "testing only: sleep this many microseconds (at most 10000) between the reads of a row's counters");

static bool test_reset_in_read;
module_param(test_reset_in_read, bool, 0600);
MODULE_PARM_DESC(test_reset_in_read, "testing only: the next read of a row resets the tables between its counters (once)");

void sa_testing_between_reads(void)
{
	unsigned int us = min(READ_ONCE(test_read_gap_us), 10000U);

	if (us)
		usleep_range(us, 2 * us);
	if (unlikely(READ_ONCE(test_reset_in_read)) &&
	    xchg(&test_reset_in_read, false))
		sa_reset();
}

/*
 * How many of the reclaim probes' pending slots a begin may try: fewer
 * than all fills the table on purpose (0: every begin finds it full).
 */
static unsigned int test_pending_slots = UINT_MAX;
module_param(test_pending_slots, uint, 0600);
MODULE_PARM_DESC(test_pending_slots, "testing only: reclaim begins try at most this many pending slots (0: the table is always full)");

unsigned int sa_testing_pending_slots(unsigned int slots)
{
	return min(READ_ONCE(test_pending_slots), slots);
}
