// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the call-site aggregator, on hand-made records. */
#include <check.h>

#include "report/agg/callsite.h"
#include "report-fixture.h"
#include "report/sort.h"

Suite *suite(void);

#define SITE_A	0xffffffff81000100ULL
#define SITE_B	0xffffffff81000200ULL
#define MS	1000000ULL

static struct sa_site *find(struct sa_callsite_result *r, guint64 site,
			    enum sa_kind kind)
{
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		struct sa_site *s = r->sites->pdata[i];

		if (s->call_site == site && s->kind == kind)
			return s;
	}
	return NULL;
}

/*
 * A: kmalloc 100/128 on cpu0, kmalloc 64/64 on cpu0, the first freed on
 * cpu1 (ping-pong), the second's pointer allocated again (10/16) without
 * a free. B: kmem_cache 184/192, live. A free of an unknown pointer and a
 * kfree(NULL).
 */
static struct sa_report *run_basic(enum sa_group_by by)
{
	static struct sa_report_opts opts;
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, SITE_A, 0x1000, 100, 128),
		fx_alloc(SA_EV_KMALLOC, 2 * MS, 0, SITE_A, 0x2000, 64, 64),
		fx_free(SA_EV_KFREE, 3 * MS, 1, 0x1000),
		fx_alloc(SA_EV_CACHE_ALLOC, 4 * MS, 1, SITE_B, 0x3000, 184,
			 192),
		fx_free(SA_EV_KFREE, 5 * MS, 0, 0x9999),
		fx_free(SA_EV_KFREE, 6 * MS, 0, 0),
		fx_alloc(SA_EV_KMALLOC, 7 * MS, 1, SITE_A, 0x2000, 10, 16),
	};

	opts.by = by;
	return fx_run(recs, G_N_ELEMENTS(recs), SECTION("callsite"), &opts,
		      2000 * MS);
}

START_TEST(slack_frag_live_pingpong)
{
	struct sa_report *rep = run_basic(SA_BY_CALLSITE);
	struct sa_callsite_result *r = RESULT(rep, "callsite");
	struct sa_site *a = find(r, SITE_A, SA_KIND_KMALLOC);
	struct sa_site *b = find(r, SITE_B, SA_KIND_CACHE);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(r->sites->len, 2);
	ck_assert_uint_eq(a->allocs, 3);
	ck_assert_uint_eq(a->frees, 1);
	ck_assert_uint_eq(a->bytes_alloc, 128 + 64 + 16);
	ck_assert_uint_eq(a->bytes_req, 100 + 64 + 10);
	ck_assert_uint_eq(a->slack, 34);
	/* 100 - 100 * 174 / 208 */
	ck_assert_double_eq_tol(a->frag, 16.346153846, 1e-6);
	ck_assert_uint_eq(a->live, 1);
	ck_assert_uint_eq(a->live_alloc, 16);
	ck_assert_uint_eq(a->live_req, 10);
	ck_assert_uint_eq(a->live_waste, 6);
	ck_assert_double_eq_tol(a->live_frag, 37.5, 1e-9);
	ck_assert_uint_eq(a->pingpong, 1);
	/* 0x2000 allocated again: its first object freed untraced */
	ck_assert_uint_eq(a->freed_untraced, 1);
	ck_assert_uint_eq(b->freed_untraced, 0);
	ck_assert_uint_eq(a->gfp, 0xcc0);
	/* ages at the end (2 s): the live one is 1.993 s old */
	ck_assert_uint_eq(a->age[4], 1);

	ck_assert_uint_eq(b->allocs, 1);
	ck_assert_uint_eq(b->slack, 8);
	ck_assert_uint_eq(b->live, 1);
	ck_assert_uint_eq(b->pingpong, 0);

	ck_assert_uint_eq(r->unmatched_frees, 1);
	ck_assert_uint_eq(r->null_frees, 1);
	ck_assert_uint_eq(r->reused, 1);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].sites, 1);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].slack, 34);
	ck_assert_uint_eq(r->total[SA_KIND_CACHE].bytes_alloc, 192);
	ck_assert_uint_eq(rep->ev_count[SA_EV_KFREE], 3);
	sa_report_free(rep);
}
END_TEST

START_TEST(by_cache_names_size_classes)
{
	struct sa_report *rep = run_basic(SA_BY_CACHE);
	struct sa_callsite_result *r = RESULT(rep, "callsite");
	guint i, seen = 0;

	/* no name field: kmalloc rows are named by their size class */
	for (i = 0; i < r->sites->len; i++) {
		struct sa_site *s = r->sites->pdata[i];

		if (!g_strcmp0(s->cache, "kmalloc-128")) {
			seen |= 1;
			ck_assert_uint_eq(s->allocs, 1);
		}
		if (!g_strcmp0(s->cache, "kmalloc-64"))
			seen |= 2;
		if (!g_strcmp0(s->cache, "cache-192")) {
			seen |= 4;
			ck_assert_str_eq(s->sym, "cache-192");
		}
	}
	ck_assert_uint_eq(seen, 7);
	ck_assert_uint_eq(r->sites->len, 4);
	sa_report_free(rep);
}
END_TEST

#define SITE_LARGE	0xffffffff81000300ULL	/* the allocator's own */
#define SITE_CALLER	0xffffffff81000400ULL

/*
 * A large kmalloc traced twice (6.10+): the allocator's event, then the
 * caller's, same ptr and sizes, back to back on cpu 0, with an event of
 * cpu 1 in between (other CPUs do not matter). One allocation, of the
 * caller; the allocator's row has none left and is not shown.
 */
START_TEST(large_kmalloc_repeat)
{
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, SITE_LARGE, 0x8000, 20000,
			 32768),
		fx_alloc(SA_EV_KMALLOC, 2 * MS, 1, SITE_B, 0x100, 64, 64),
		fx_alloc(SA_EV_KMALLOC, 3 * MS, 0, SITE_CALLER, 0x8000, 20000,
			 32768),
		fx_free(SA_EV_KFREE, 4 * MS, 1, 0x8000),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("callsite"), NULL, 10 * MS);
	struct sa_callsite_result *r = RESULT(rep, "callsite");
	struct sa_site *c = find(r, SITE_CALLER, SA_KIND_KMALLOC);

	ck_assert_ptr_null(find(r, SITE_LARGE, SA_KIND_KMALLOC));
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(r->sites->len, 2);
	ck_assert_uint_eq(c->allocs, 1);
	ck_assert_uint_eq(c->bytes_alloc, 32768);
	ck_assert_uint_eq(c->bytes_req, 20000);
	ck_assert_uint_eq(c->frees, 1);
	ck_assert_uint_eq(c->live, 0);
	ck_assert_uint_eq(c->pingpong, 1);
	ck_assert_uint_eq(c->gfp, 0xcc0);
	ck_assert_uint_eq(r->repeats, 1);
	ck_assert_uint_eq(r->reused, 0);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].allocs, 2);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].bytes_alloc, 32768 + 64);
	ck_assert(rep->kmalloc_repeats_known);
	ck_assert_uint_eq(rep->kmalloc_repeats, 1);
	ck_assert_uint_eq(rep->notes->len, 1);
	sa_report_free(rep);
}
END_TEST

/*
 * Not repeats: the same call site again (a loop whose free was not
 * traced), other sizes, and a kmem event of the same CPU in between.
 * Each is a second allocation of a pointer still live.
 */
START_TEST(not_a_repeat)
{
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1, 0, SITE_A, 0x10, 100, 128),
		fx_alloc(SA_EV_KMALLOC, 2, 0, SITE_A, 0x10, 100, 128),
		fx_alloc(SA_EV_KMALLOC, 3, 1, SITE_LARGE, 0x8000, 8193, 16384),
		fx_alloc(SA_EV_KMALLOC, 4, 1, SITE_CALLER, 0x8000, 8193, 12288),
		fx_alloc(SA_EV_KMALLOC, 5, 0, SITE_LARGE, 0x9000, 9000, 16384),
		fx_alloc(SA_EV_CACHE_ALLOC, 6, 0, SITE_B, 0x20, 64, 64),
		fx_alloc(SA_EV_KMALLOC, 7, 0, SITE_CALLER, 0x9000, 9000, 16384),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("callsite"), NULL, 10);
	struct sa_callsite_result *r = RESULT(rep, "callsite");

	ck_assert_uint_eq(r->repeats, 0);
	ck_assert_uint_eq(r->reused, 3);
	ck_assert_uint_eq(find(r, SITE_A, SA_KIND_KMALLOC)->allocs, 2);
	ck_assert_uint_eq(find(r, SITE_LARGE, SA_KIND_KMALLOC)->allocs, 2);
	ck_assert_uint_eq(find(r, SITE_CALLER, SA_KIND_KMALLOC)->allocs, 2);
	ck_assert_uint_eq(rep->kmalloc_repeats, 0);
	sa_report_free(rep);
}
END_TEST

START_TEST(failed_alloc_and_missing_req)
{
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1, 0, SITE_A, 0, 100, 128),
		fx_alloc(SA_EV_KMALLOC, 2, 0, SITE_A, 0x10, 100, 128),
	};
	struct sa_report *rep;
	struct sa_callsite_result *r;

	recs[1].have &= ~(1u << SA_KM_REQ);
	rep = fx_run(recs, 2, SECTION("callsite"), NULL, 10);
	r = RESULT(rep, "callsite");
	ck_assert_uint_eq(r->sites->len, 1);
	ck_assert_uint_eq(((struct sa_site *)r->sites->pdata[0])->allocs, 1);
	/* without bytes_req the slack is not invented */
	ck_assert_uint_eq(((struct sa_site *)r->sites->pdata[0])->slack, 0);
	ck_assert_uint_eq(rep->notes->len, 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(top_live_midstream)
{
	struct sa_report *rep = sa_report_new("x", SECTION("callsite"), NULL);
	struct sa_rec a = fx_alloc(SA_EV_KMALLOC, 1, 0, SITE_A, 0x10, 8, 8);
	struct sa_rec b = fx_alloc(SA_EV_KMALLOC, 2, 0, SITE_B, 0x20, 64, 64);
	struct sa_pipeline p;
	GPtrArray *top;

	sa_pipeline_init(&p, rep);
	sa_pipeline_feed(&p, &a);
	sa_pipeline_feed(&p, &b);
	top = sa_callsite_top_live(sa_pipeline_state(&p, SA_SEC_CALLSITE), 1);
	ck_assert_uint_eq(top->len, 1);
	ck_assert_uint_eq(((struct sa_site *)top->pdata[0])->call_site,
			  SITE_B);
	g_ptr_array_free(top, TRUE);
	sa_pipeline_finish(&p);
	sa_report_free(rep);
}
END_TEST

START_TEST(sort_and_view)
{
	struct sa_report *rep = run_basic(SA_BY_CALLSITE);
	struct sa_callsite_result *r = RESULT(rep, "callsite");
	struct sa_sort s;
	char *bad = NULL;

	ck_assert_int_eq(sa_sort_parse("frag,bytes", &s, &bad), 0);
	sa_callsite_view(r, &s, 0, 0);
	/* A: 16.3 %, B: 4.2 % */
	ck_assert_uint_eq(((struct sa_site *)r->shown->pdata[0])->call_site,
			  SITE_A);
	ck_assert_int_eq(sa_sort_parse("live", &s, &bad), 0);
	/* --top 1 is the first of each kind: A is kmalloc, B a cache */
	sa_callsite_view(r, &s, 1, 0);
	ck_assert_uint_eq(r->shown->len, 2);
	ck_assert_uint_eq(r->hidden, 0);
	ck_assert_uint_eq(((struct sa_site *)r->shown->pdata[0])->call_site,
			  SITE_B);
	ck_assert_uint_eq(((struct sa_site *)r->shown->pdata[1])->call_site,
			  SITE_A);
	sa_callsite_view(r, NULL, 0, 200);
	ck_assert_uint_eq(r->shown->len, 1);
	ck_assert_int_eq(sa_sort_parse("bytes,nope", &s, &bad), -1);
	ck_assert_str_eq(bad, "nope");
	g_free(bad);
	sa_report_free(rep);
}
END_TEST

START_TEST(age_buckets)
{
	ck_assert_int_eq(sa_age_bucket(0), 0);
	ck_assert_int_eq(sa_age_bucket(999999), 0);
	ck_assert_int_eq(sa_age_bucket(1000000), 1);
	ck_assert_int_eq(sa_age_bucket(999999999), 3);
	ck_assert_int_eq(sa_age_bucket(10000000000ULL), 5);
	ck_assert_str_eq(sa_age_label(5), ">=10s");
}
END_TEST

START_TEST(what_parse)
{
	guint32 m = 0;
	char *bad = NULL;

	ck_assert_int_eq(sa_what_parse("live, timeline", &m, &bad), 0);
	ck_assert_uint_eq(m, SECTION("live") | SECTION("timeline"));
	ck_assert_int_eq(sa_what_parse("callsite,bogus", &m, &bad), -1);
	ck_assert_str_eq(bad, "bogus");
	g_free(bad);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-callsite");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, slack_frag_live_pingpong);
	tcase_add_test(tc, by_cache_names_size_classes);
	tcase_add_test(tc, large_kmalloc_repeat);
	tcase_add_test(tc, not_a_repeat);
	tcase_add_test(tc, failed_alloc_and_missing_req);
	tcase_add_test(tc, top_live_midstream);
	tcase_add_test(tc, sort_and_view);
	tcase_add_test(tc, age_buckets);
	tcase_add_test(tc, what_parse);
	suite_add_tcase(s, tc);
	return s;
}
