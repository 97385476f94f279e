// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer advice of a lossy recording, computed by hand: a CPU's need
 * is its buffer plus its lost events at its own bytes per event, the
 * advice the worst CPU's need, 20% more, rounded up to 4 KB (1 MB from
 * 1 MB); nothing lost, no advice; a CPU that kept nothing uses the
 * average; the -b limit caps it.
 */
#include <check.h>

#include "trace/record-advice.h"

Suite *suite(void);

START_TEST(nothing_lost)
{
	guint64 bytes[2] = { 8192, 4096 }, events[2] = { 100, 50 };
	guint64 lost[2] = { 0, 0 };
	struct sa_buffer_advice a;

	sa_buffer_advise(2, bytes, events, lost, 8, 1.0, &a);
	ck_assert_uint_eq(a.need_kb, 0);
	ck_assert_int_eq(a.cpu, -1);
}
END_TEST

START_TEST(worst_cpu_decides)
{
	/*
	 * cpu0: 40960 bytes / 640 events = 64 B; lost 1000: 8192 + 64000
	 *   = 72192 B; * 1.2 / 1024 = 84.6 KB -> 88 KB
	 * cpu1: 20480 / 512 = 40 B; lost 3000: 8192 + 120000 = 128192 B;
	 *   * 1.2 / 1024 = 150.2 KB -> 152 KB
	 */
	guint64 bytes[2] = { 40960, 20480 }, events[2] = { 640, 512 };
	guint64 lost[2] = { 1000, 3000 };
	struct sa_buffer_advice a;

	sa_buffer_advise(2, bytes, events, lost, 8, 2.0, &a);
	ck_assert_int_eq(a.cpu, 1);
	ck_assert_uint_eq(a.need_kb, 152);
	ck_assert_uint_eq(a.lost, 3000);
	ck_assert_uint_eq(a.lost_bytes, 120000);
	ck_assert(a.read_kbps > 9.99 && a.read_kbps < 10.01);	/* 20 KB/2 s */
	ck_assert(!a.over_max);
}
END_TEST

START_TEST(megabytes)
{
	/* 1 MB buffer, 100000 lost at 50 B: (1048576 + 5000000) * 1.2 /
	 * 1024 = 7088.4 KB -> 7168 KB (7 MB) */
	guint64 bytes[1] = { 500000 }, events[1] = { 10000 }, lost[1] = { 100000 };
	struct sa_buffer_advice a;

	sa_buffer_advise(1, bytes, events, lost, 1024, 0, &a);
	ck_assert_uint_eq(a.need_kb, 7168);
	ck_assert(a.read_kbps == 0);
}
END_TEST

START_TEST(cpu_that_kept_nothing)
{
	/* cpu1 kept nothing: the average, 30000 / 600 = 50 B; lost 2000:
	 * 4096 + 100000 = 104096 B * 1.2 / 1024 = 121.99 -> 124 KB */
	guint64 bytes[2] = { 30000, 0 }, events[2] = { 600, 0 };
	guint64 lost[2] = { 0, 2000 };
	struct sa_buffer_advice a;

	sa_buffer_advise(2, bytes, events, lost, 4, 1.0, &a);
	ck_assert_int_eq(a.cpu, 1);
	ck_assert_uint_eq(a.need_kb, 124);
	/* and when no CPU kept anything: 64 B an event */
	events[0] = bytes[0] = 0;
	sa_buffer_advise(2, bytes, events, lost, 4, 1.0, &a);
	/* 4096 + 128000 = 132096 * 1.2 / 1024 = 154.8 -> 156 */
	ck_assert_uint_eq(a.need_kb, 156);
}
END_TEST

START_TEST(capped)
{
	guint64 bytes[1] = { 4096 }, events[1] = { 1 }, lost[1] = { 10000000 };
	struct sa_buffer_advice a;

	sa_buffer_advise(1, bytes, events, lost, 8, 1.0, &a);
	ck_assert(a.over_max);
	ck_assert_uint_eq(a.need_kb, SA_BUFFER_KB_MAX);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("record-advice");
	TCase *tc = tcase_create("advice");

	tcase_add_test(tc, nothing_lost);
	tcase_add_test(tc, worst_cpu_decides);
	tcase_add_test(tc, megabytes);
	tcase_add_test(tc, cpu_that_kept_nothing);
	tcase_add_test(tc, capped);
	suite_add_tcase(s, tc);
	return s;
}
