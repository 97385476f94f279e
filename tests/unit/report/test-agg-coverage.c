// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the coverage aggregator, on hand-made records and a
 * hand-made /proc/slabinfo at the end of the trace.
 */
#include <check.h>

#include "report/agg/coverage.h"
#include "report-fixture.h"
#include "util/json.h"

Suite *suite(void);

#define SITE	0xffffffff81000100ULL
#define MS	1000000ULL

/* name active num objsize ...: kmalloc-64, kmalloc-cg-64, kmalloc-8k,
 * dentry, filp (active_objs x objsize = 640, 128, 16384, 1920, 0) */
#define SLABINFO							\
	"slabinfo - version: 2.1\\n"					\
	"# name            <active_objs> <num_objs> <objsize> "		\
	"<objperslab> <pagesperslab> : tunables <limit> <batchcount> "	\
	"<sharedfactor> : slabdata <active_slabs> <num_slabs> "		\
	"<sharedavail>\\n"						\
	"kmalloc-64     10 64 64 64 1 : tunables 0 0 0 : slabdata 1 1 0\\n" \
	"kmalloc-cg-64   2 64 64 64 1 : tunables 0 0 0 : slabdata 1 1 0\\n" \
	"kmalloc-8k      2  4 8192 4 8 : tunables 0 0 0 : slabdata 1 1 0\\n" \
	"dentry         10 21 192 21 1 : tunables 0 0 0 : slabdata 1 1 0\\n" \
	"filp            0 21 192 21 1 : tunables 0 0 0 : slabdata 1 1 0\\n"

static char *snapshot(void)
{
	return g_strdup_printf("{\"kind\": \"slabacct-snapshot\", "
			       "\"schema_version\": %d, \"page_size\": 4096, "
			       "\"sources\": {\"slabinfo\": \"" SLABINFO "\"}}",
			       SA_JSON_SCHEMA_VERSION);
}

static struct sa_rec named(guint64 ts, guint64 ptr, guint32 alloc,
			   const char *name)
{
	struct sa_rec r = fx_alloc(SA_EV_CACHE_ALLOC, ts, 0, SITE, ptr,
				   alloc, alloc);

	if (name) {
		r.v[SA_KM_NAME] = (uintptr_t)g_intern_string(name);
		r.have |= 1u << SA_KM_NAME;
	}
	return r;
}

static struct sa_report *run(struct sa_rec *recs, int n, guint32 mask,
			     bool with_snapshot)
{
	static struct sa_report_opts opts;
	struct sa_report *rep = sa_report_new("synthetic", mask, &opts);
	struct sa_pipeline p;
	int i;

	if (with_snapshot)
		rep->origin.snapshot_end = snapshot();
	sa_pipeline_init(&p, rep);
	for (i = 0; i < n; i++)
		sa_pipeline_feed(&p, &recs[i]);
	rep->last_ts = 100 * MS;
	sa_pipeline_finish(&p);
	return rep;
}

static const struct sa_cov_row *row(const struct sa_coverage_result *r,
				    const char *cache)
{
	guint i;

	for (i = 0; i < r->rows->len; i++) {
		const struct sa_cov_row *x = r->rows->pdata[i];

		if (!strcmp(x->cache, cache))
			return x;
	}
	return NULL;
}

/*
 * Live at the end: two kmallocs of slot 64 (one of them freed, one
 * pointer allocated again), a large kmalloc of 16384 (pages: above
 * kmalloc-8k), three dentries (one freed), a filp never in slabinfo's
 * active ones (rest below 0), and a cache allocation named kmalloc-64
 * (a cache merged into it).
 */
static int fill(struct sa_rec *r)
{
	int n = 0;

	r[n++] = fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, SITE, 0x1000, 60, 64);
	r[n++] = fx_alloc(SA_EV_KMALLOC, 2 * MS, 0, SITE, 0x2000, 60, 64);
	r[n++] = fx_free(SA_EV_KFREE, 3 * MS, 0, 0x1000);
	r[n++] = fx_alloc(SA_EV_KMALLOC, 4 * MS, 0, SITE, 0x2000, 30, 64);
	r[n++] = fx_alloc(SA_EV_KMALLOC, 5 * MS, 0, SITE, 0x3000, 10000,
			  16384);
	r[n++] = named(6 * MS, 0x4000, 192, "dentry");
	r[n++] = named(7 * MS, 0x5000, 192, "dentry");
	r[n++] = named(8 * MS, 0x6000, 192, "dentry");
	r[n++] = fx_free(SA_EV_CACHE_FREE, 9 * MS, 0, 0x6000);
	r[n++] = named(10 * MS, 0x7000, 192, "filp");
	r[n++] = named(11 * MS, 0x8000, 64, "kmalloc-64");
	return n;
}

START_TEST(rows_and_totals)
{
	struct sa_rec r[16];
	int n = fill(r);
	struct sa_report *rep = run(r, n, SECTION("coverage"), true);
	const struct sa_coverage_result *c = RESULT(rep, "coverage");
	const struct sa_cov_row *x;

	ck_assert(c->have_slabinfo);
	ck_assert(c->per_cache);
	ck_assert_uint_eq(c->kmalloc_max, 8192);
	ck_assert_uint_eq(c->large_objs, 1);
	ck_assert_uint_eq(c->large_bytes, 16384);
	/* 0x2000 (64), 0x4000 0x5000 (192 each), 0x7000 (192), 0x8000 */
	ck_assert_uint_eq(c->total.traced_objs, 5);
	ck_assert_uint_eq(c->total.traced_bytes, 64 + 3 * 192 + 64);
	ck_assert_uint_eq(c->total.slab_objs, 24);
	ck_assert_uint_eq(c->total.slab_bytes, 640 + 128 + 16384 + 1920);
	ck_assert_int_eq(c->total.rest_bytes, 640 + 128 + 16384 + 1920 -
			 (64 + 3 * 192 + 64));
	ck_assert_int_eq(c->total.rest_objs, 19);
	ck_assert_uint_eq(c->total.caches, 5);
	/* kmalloc-64 and kmalloc-cg-64: one row, the named object in it */
	x = row(c, "kmalloc-*-64");
	ck_assert_ptr_nonnull(x);
	ck_assert(x->kmalloc);
	ck_assert_uint_eq(x->caches, 2);
	ck_assert_uint_eq(x->traced_objs, 2);
	ck_assert_uint_eq(x->slab_objs, 12);
	ck_assert_int_eq(x->rest_bytes, 768 - 128);
	x = row(c, "dentry");
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->traced_bytes, 384);
	ck_assert_int_eq(x->rest_objs, 8);
	x = row(c, "filp");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->rest_objs, -1);
	ck_assert_int_eq(x->rest_bytes, -192);
	x = row(c, "kmalloc-*-8192");
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->traced_objs, 0);
	/* by rest, largest first: kmalloc-8k's 16384 */
	ck_assert_str_eq(((struct sa_cov_row *)c->rows->pdata[0])->cache,
			 "kmalloc-*-8192");
	ck_assert_uint_eq(c->rows->len, 4);
	sa_report_free(rep);
}
END_TEST

/* The header's totals, not asked: from the call-site live objects. */
START_TEST(totals_from_callsite)
{
	struct sa_rec r[16];
	int n = fill(r);
	struct sa_report *rep = run(r, n, SECTION("callsite"), true);
	const struct sa_coverage_result *c = RESULT(rep, "coverage");

	ck_assert_ptr_nonnull(c);
	ck_assert(c->have_slabinfo);
	ck_assert(!c->per_cache);
	ck_assert_uint_eq(c->rows->len, 0);
	ck_assert_uint_eq(c->total.traced_objs, 5);
	ck_assert_uint_eq(c->total.traced_bytes, 64 + 3 * 192 + 64);
	ck_assert_uint_eq(c->large_bytes, 16384);
	ck_assert_int_eq(c->total.rest_objs, 19);
	sa_report_free(rep);
}
END_TEST

/* One unnamed cache allocation: totals only. No snapshot: why. */
START_TEST(unnamed_and_missing)
{
	struct sa_rec r[16];
	int n = fill(r);
	struct sa_report *rep;
	const struct sa_coverage_result *c;

	r[n++] = named(12 * MS, 0x9000, 192, NULL);
	rep = run(r, n, SECTION("coverage"), true);
	c = RESULT(rep, "coverage");
	ck_assert(!c->per_cache);
	ck_assert_uint_eq(c->rows->len, 0);
	ck_assert_uint_eq(c->unnamed_objs, 1);
	ck_assert_uint_eq(c->total.traced_objs, 6);
	sa_report_free(rep);

	rep = run(r, n, SECTION("coverage"), false);
	c = RESULT(rep, "coverage");
	ck_assert(!c->have_slabinfo);
	ck_assert_ptr_nonnull(strstr(c->why, "no system snapshot"));
	sa_report_free(rep);
	/* not asked, no snapshot: not computed at all */
	rep = run(r, n, SECTION("callsite"), false);
	ck_assert_ptr_null(RESULT(rep, "coverage"));
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-coverage");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rows_and_totals);
	tcase_add_test(tc, totals_from_callsite);
	tcase_add_test(tc, unnamed_and_missing);
	suite_add_tcase(s, tc);
	return s;
}
