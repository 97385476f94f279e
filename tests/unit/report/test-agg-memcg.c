// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: allocations charged to a memory cgroup, per call site (the
 * events' "accounted"), and a large kmalloc traced twice counted once.
 */
#include <check.h>

#include "report-fixture.h"
#include "report/agg/callsite.h"

Suite *suite(void);

static struct sa_rec charged(struct sa_rec r, int a)
{
	r.v[SA_KM_ACCOUNTED] = a;
	r.have |= 1u << SA_KM_ACCOUNTED;
	return r;
}

START_TEST(per_site)
{
	struct sa_rec r[] = {
		charged(fx_alloc(SA_EV_KMALLOC, 1, 0, 0xa0, 0x1000, 40, 64), 1),
		charged(fx_alloc(SA_EV_KMALLOC, 2, 0, 0xa0, 0x2000, 40, 64), 0),
		charged(fx_alloc(SA_EV_CACHE_ALLOC, 3, 0, 0xb0, 0x3000, 8, 8), 1),
		/* a large kmalloc traced twice: counted at the second site */
		charged(fx_alloc(SA_EV_KMALLOC, 4, 1, 0xc0, 0x4000, 9000, 12288),
		     1),
		charged(fx_alloc(SA_EV_KMALLOC, 5, 1, 0xd0, 0x4000, 9000, 12288),
		     1),
		fx_free(SA_EV_KFREE, 6, 0, 0x1000),
	};
	struct sa_report *rep = fx_run(r, G_N_ELEMENTS(r), 1, NULL, 10);
	const struct sa_callsite_result *res = rep->result[SA_SEC_CALLSITE];
	guint i, seen = 0;

	ck_assert(res->accounted_known);
	for (i = 0; i < res->sites->len; i++) {
		const struct sa_site *s = res->sites->pdata[i];

		if (s->call_site == 0xa0) {
			ck_assert_uint_eq(s->accounted, 1);
			ck_assert_uint_eq(s->accounted_bytes, 64);
			seen++;
		} else if (s->call_site == 0xb0) {
			ck_assert_uint_eq(s->accounted_bytes, 8);
			seen++;
		} else if (s->call_site == 0xd0) {
			ck_assert_uint_eq(s->allocs, 1);
			ck_assert_uint_eq(s->accounted, 1);
			ck_assert_uint_eq(s->accounted_bytes, 12288);
			seen++;
		}
		ck_assert_uint_ne(s->call_site, 0xc0);
	}
	ck_assert_uint_eq(seen, 3);
	ck_assert_uint_eq(res->total[SA_KIND_KMALLOC].accounted, 2);
	ck_assert_uint_eq(res->total[SA_KIND_KMALLOC].accounted_bytes,
			  64 + 12288);
	ck_assert_uint_eq(res->total[SA_KIND_CACHE].accounted, 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(unknown_without_field_or_formats)
{
	struct sa_rec r[] = {
		fx_alloc(SA_EV_KMALLOC, 1, 0, 0xa0, 0x1000, 40, 64),
	};
	struct sa_report *rep = fx_run(r, 1, 1, NULL, 10);
	const struct sa_callsite_result *res = rep->result[SA_SEC_CALLSITE];

	ck_assert(!res->accounted_known);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-memcg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, per_site);
	tcase_add_test(tc, unknown_without_field_or_formats);
	suite_add_tcase(s, tc);
	return s;
}
