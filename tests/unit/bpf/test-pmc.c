// SPDX-License-Identifier: GPL-2.0
/* Unit tests: pmc's event table, attr construction and error messages. */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "pmc-events.h"

Suite *suite(void);

START_TEST(attr_llc_load_misses)
{
	struct perf_event_attr a;

	ck_assert_int_eq(sa_pmc_attr(&a, "LLC-load-misses", 5000, false), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_HW_CACHE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_LL |
			  (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			  (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	ck_assert_uint_eq(a.sample_period, 5000);
	ck_assert_uint_eq(a.freq, 0);
	ck_assert_uint_eq(a.size, sizeof(a));
}
END_TEST

START_TEST(attr_cache_events)
{
	struct perf_event_attr a;

	ck_assert_int_eq(sa_pmc_attr(&a, "LLC-loads", 1, false), 0);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_LL |
			  (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			  (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16));
	ck_assert_int_eq(sa_pmc_attr(&a, "dTLB-load-misses", 1, false), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_HW_CACHE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_DTLB |
			  (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			  (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
}
END_TEST

START_TEST(attr_hardware_and_software)
{
	struct perf_event_attr a;

	ck_assert_int_eq(sa_pmc_attr(&a, "cycles", 0, false), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CPU_CYCLES);
	/* period 0: the event's default */
	ck_assert_uint_eq(a.sample_period,
			  sa_pmc_event_find("cycles")->period);
	ck_assert_int_eq(sa_pmc_attr(&a, "instructions", 7, false), 0);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert_int_eq(sa_pmc_attr(&a, "page-faults", 0, false), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	ck_assert_uint_eq(a.sample_period, 1);
	ck_assert_int_eq(sa_pmc_attr(&a, "cpu-clock", 99, true), 0);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_CPU_CLOCK);
	ck_assert_uint_eq(a.freq, 1);
	ck_assert_uint_eq(a.sample_freq, 99);
}
END_TEST

START_TEST(attr_unknown)
{
	struct perf_event_attr a;

	errno = 0;
	ck_assert_int_eq(sa_pmc_attr(&a, "L2-misses", 1, false), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sa_pmc_event_find(NULL));
}
END_TEST

START_TEST(table_consistent)
{
	const struct sa_pmc_event *e;
	const struct sa_pmc_ratio *r;

	for (e = sa_pmc_events(); e->name; e++) {
		ck_assert_uint_gt(e->period, 0);
		ck_assert_int_eq(e->hardware, e->type != PERF_TYPE_SOFTWARE);
	}
	for (r = sa_pmc_ratios(); r->num; r++) {
		ck_assert_ptr_nonnull(sa_pmc_event_find(r->num));
		ck_assert_ptr_nonnull(sa_pmc_event_find(r->den));
	}
	/* the fallback list names software events only */
	ck_assert_int_eq(sa_pmc_event_find("page-faults")->hardware, 0);
	ck_assert_int_eq(sa_pmc_event_find("cpu-clock")->hardware, 0);
	ck_assert_str_eq(SA_PMC_FALLBACK, "page-faults,cpu-clock");
}
END_TEST

START_TEST(explain_errors)
{
	const struct sa_pmc_event *hw = sa_pmc_event_find("LLC-loads");
	const struct sa_pmc_event *sw = sa_pmc_event_find("page-faults");
	bool no_counter;

	ck_assert_ptr_nonnull(strstr(sa_pmc_explain(hw, ENOENT, &no_counter),
				     "no hardware counter"));
	ck_assert(no_counter);
	sa_pmc_explain(hw, EOPNOTSUPP, &no_counter);
	ck_assert(no_counter);
	sa_pmc_explain(sw, ENOENT, &no_counter);
	ck_assert(!no_counter);
	ck_assert_ptr_nonnull(strstr(sa_pmc_explain(hw, EACCES, &no_counter),
				     "perf_event_paranoid"));
	ck_assert(!no_counter);
	ck_assert_ptr_nonnull(sa_pmc_explain(hw, 12345, &no_counter));
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("pmc");
	TCase *tc = tcase_create("events");

	tcase_add_test(tc, attr_llc_load_misses);
	tcase_add_test(tc, attr_cache_events);
	tcase_add_test(tc, attr_hardware_and_software);
	tcase_add_test(tc, attr_unknown);
	tcase_add_test(tc, table_consistent);
	tcase_add_test(tc, explain_errors);
	suite_add_tcase(s, tc);
	return s;
}
