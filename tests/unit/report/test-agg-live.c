// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the live section and the timeline, on hand-made records. */
#include <check.h>

#include "report/agg/live.h"
#include "report/agg/timeline.h"
#include "report-fixture.h"

Suite *suite(void);

#define MS 1000000ULL

START_TEST(live_sites_ages_objects)
{
	struct sa_report_opts opts = { .objects = true };
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 0, 0, 0xa, 0x100, 30, 32),
		fx_alloc(SA_EV_KMALLOC, 995 * MS, 0, 0xa, 0x200, 30, 32),
		fx_alloc(SA_EV_CACHE_ALLOC, 999 * MS + 500000, 1, 0xb, 0x300,
			 100, 128),
		fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, 0xc, 0x400, 8, 8),
		fx_free(SA_EV_KFREE, 2 * MS, 0, 0x400),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("live"), &opts, 1000 * MS);
	struct sa_live_result *r = RESULT(rep, "live");
	const struct sa_site *top;
	const struct sa_live_row *o;

	ck_assert_ptr_nonnull(r);
	/* 0xc freed: not live. 0xb 128 B first, then 0xa 2 x 32 B */
	ck_assert_uint_eq(r->sites->len, 2);
	top = r->sites->pdata[0];
	ck_assert_uint_eq(top->call_site, 0xb);
	ck_assert_uint_eq(r->total.live, 3);
	ck_assert_uint_eq(r->total.live_alloc, 192);
	ck_assert_uint_eq(r->total.live_waste, 32);
	/* ages: 1 s (<10s), 5 ms (<10ms), 0.5 ms (<1ms) */
	ck_assert_uint_eq(r->age[0], 1);
	ck_assert_uint_eq(r->age[1], 1);
	ck_assert_uint_eq(r->age[4], 1);
	ck_assert_uint_eq(r->objects->len, 3);
	o = &g_array_index(r->objects, struct sa_live_row, 0);
	ck_assert_uint_eq(o->ptr, 0x100);
	ck_assert_uint_eq(o->age_ns, 1000 * MS);
	ck_assert_int_eq(o->pid, 100);
	ck_assert_str_eq(o->comm, "<...>");
	sa_report_free(rep);
}
END_TEST

START_TEST(timeline_fixed_bins)
{
	struct sa_report_opts opts = { .interval_ns = 10 * MS };
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 100 * MS, 0, 0xa, 0x100, 30, 32),
		fx_alloc(SA_EV_KMALLOC, 105 * MS, 0, 0xa, 0x200, 60, 64),
		fx_free(SA_EV_KFREE, 112 * MS, 0, 0x100),
		fx_free(SA_EV_KFREE, 113 * MS, 0, 0x999),	/* unknown */
		fx_alloc(SA_EV_CACHE_ALLOC, 131 * MS, 0, 0xb, 0x300, 8, 8),
		fx_free(SA_EV_KFREE, 132 * MS, 0, 0x200),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("timeline"), &opts, 132 * MS);
	struct sa_timeline_result *r = RESULT(rep, "timeline");
	struct sa_bin *b;

	ck_assert_uint_eq(r->interval_ns, 10 * MS);
	ck_assert_uint_eq(r->t0_ns, 100 * MS);
	ck_assert_uint_eq(r->bins->len, 4);
	b = &g_array_index(r->bins, struct sa_bin, 0);
	ck_assert_uint_eq(b->alloc_bytes, 96);
	ck_assert_int_eq(b->net, 96);
	b = &g_array_index(r->bins, struct sa_bin, 1);
	ck_assert_uint_eq(b->freed_bytes, 32);
	ck_assert_uint_eq(b->frees, 1);
	ck_assert_int_eq(b->outstanding, 64);
	b = &g_array_index(r->bins, struct sa_bin, 2);
	ck_assert_uint_eq(b->start_ns, 20 * MS);
	ck_assert_int_eq(b->outstanding, 64);
	b = &g_array_index(r->bins, struct sa_bin, 3);
	ck_assert_int_eq(b->net, 8 - 64);
	ck_assert_int_eq(b->outstanding, 8);
	sa_report_free(rep);
}
END_TEST

/*
 * The timeline ends where the live section does: a pointer allocated
 * again with no free traced (its first object freed without a trace
 * event) and a large kmalloc traced twice (one allocation) are counted
 * as the live section counts them.
 */
START_TEST(timeline_ends_at_live)
{
	struct sa_report_opts opts = { .interval_ns = 10 * MS };
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 100 * MS, 0, 0xa, 0x100, 30, 32),
		/* 0x100 again, no free traced: the 32 bytes are gone */
		fx_alloc(SA_EV_KMALLOC, 111 * MS, 1, 0xb, 0x100, 60, 64),
		/* a large kmalloc traced twice: 32 KB once */
		fx_alloc(SA_EV_KMALLOC, 121 * MS, 0, 0xc, 0x8000, 20000,
			 32768),
		fx_alloc(SA_EV_KMALLOC, 122 * MS, 0, 0xd, 0x8000, 20000,
			 32768),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("timeline") | SECTION("live"),
				       &opts, 130 * MS);
	struct sa_timeline_result *r = RESULT(rep, "timeline");
	struct sa_live_result *l = RESULT(rep, "live");
	struct sa_bin *b;

	ck_assert_uint_eq(l->total.live_alloc, 64 + 32768);
	ck_assert_uint_eq(r->bins->len, 3);
	b = &g_array_index(r->bins, struct sa_bin, 1);
	ck_assert_uint_eq(b->untraced, 1);
	ck_assert_uint_eq(b->untraced_bytes, 32);
	ck_assert_int_eq(b->net, 64 - 32);
	b = &g_array_index(r->bins, struct sa_bin, 2);
	ck_assert_uint_eq(b->allocs, 1);
	ck_assert_uint_eq(b->alloc_bytes, 32768);
	ck_assert_int_eq(b->outstanding, (gint64)l->total.live_alloc);
	sa_report_free(rep);
}
END_TEST

START_TEST(timeline_auto_interval)
{
	/* 10 s of allocations, one every 10 ms: at most 40 round bins */
	struct sa_rec *recs = g_new(struct sa_rec, 1000);
	struct sa_timeline_result *r;
	struct sa_report *rep;
	gint64 sum = 0;
	guint i;

	for (i = 0; i < 1000; i++)
		recs[i] = fx_alloc(SA_EV_KMALLOC, i * 10 * MS, 0, 0xa,
				   0x1000 + i * 64, 64, 64);
	rep = fx_run(recs, 1000, SECTION("timeline"), NULL, 9990 * MS);
	r = RESULT(rep, "timeline");
	ck_assert_uint_le(r->bins->len, SA_TIMELINE_AUTO_BINS);
	ck_assert_uint_eq(r->interval_ns % MS, 0);
	for (i = 0; i < r->bins->len; i++)
		sum += g_array_index(r->bins, struct sa_bin, i).net;
	ck_assert_int_eq(sum, 64000);
	ck_assert_int_eq(g_array_index(r->bins, struct sa_bin,
				       r->bins->len - 1).outstanding, 64000);
	sa_report_free(rep);
	g_free(recs);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-live");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, live_sites_ages_objects);
	tcase_add_test(tc, timeline_fixed_bins);
	tcase_add_test(tc, timeline_ends_at_live);
	tcase_add_test(tc, timeline_auto_interval);
	suite_add_tcase(s, tc);
	return s;
}
