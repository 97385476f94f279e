// SPDX-License-Identifier: GPL-2.0
/* Unit tests: slabacct diff's matching, changes and order. */
#include <check.h>

#include "report/agg/areas.h"
#include "report/agg/callsite.h"
#include "report/diff.h"
#include "report-fixture.h"

Suite *suite(void);

START_TEST(keys)
{
	char *k;

	k = sa_diff_key("sa_test_kmalloc_loop+0x1a/0x40 [sa_test]",
			SA_DIFF_BY_SITE);
	ck_assert_str_eq(k, "sa_test_kmalloc_loop+0x1a [sa_test]");
	g_free(k);
	k = sa_diff_key("alloc_inode+0x59", SA_DIFF_BY_SITE);
	ck_assert_str_eq(k, "alloc_inode+0x59");
	g_free(k);
	k = sa_diff_key("alloc_inode+0x59/0x90", SA_DIFF_BY_FUNCTION);
	ck_assert_str_eq(k, "alloc_inode");
	g_free(k);
	k = sa_diff_key("f+0x1 [m]", SA_DIFF_BY_FUNCTION);
	ck_assert_str_eq(k, "f [m]");
	g_free(k);
	/* by function, across kernels: 6.10+'s alloc_hooks names */
	k = sa_diff_key("__kvmalloc_node_noprof+0x8a", SA_DIFF_BY_FUNCTION);
	ck_assert_str_eq(k, "kvmalloc_node");
	g_free(k);
	k = sa_diff_key("kvmalloc_node+0x5e/0x90", SA_DIFF_BY_FUNCTION);
	ck_assert_str_eq(k, "kvmalloc_node");
	g_free(k);
	/* by site the offsets differ anyway: names are kept */
	k = sa_diff_key("__kvmalloc_node_noprof+0x8a", SA_DIFF_BY_SITE);
	ck_assert_str_eq(k, "__kvmalloc_node_noprof+0x8a");
	g_free(k);
}
END_TEST

static void put(struct sa_diff_side *s, const char *key, guint64 bytes,
		guint64 slack, guint64 allocs, gint64 live)
{
	struct sa_diff_vals *v = g_new0(struct sa_diff_vals, 1);

	v->bytes_alloc = bytes;
	v->slack = slack;
	v->bytes_req = bytes - slack;
	v->allocs = allocs;
	v->live_bytes = live;
	s->total.bytes_alloc += bytes;
	s->total.slack += slack;
	s->total.allocs += allocs;
	s->total.live_bytes += live;
	g_hash_table_insert(s->rows, g_strdup(key), v);
}

START_TEST(compute)
{
	struct sa_diff_opts o = { 0 };
	struct sa_diff d = { 0 };
	struct sa_diff_row *r;
	int i;

	for (i = 0; i < 2; i++)
		d.side[i].rows = g_hash_table_new_full(g_str_hash,
						       g_str_equal, g_free,
						       g_free);
	put(&d.side[0], "0\tsame", 100, 10, 1, 0);
	put(&d.side[1], "0\tsame", 100, 10, 1, 0);
	put(&d.side[0], "0\tgrows", 100, 0, 1, 0);
	put(&d.side[1], "0\tgrows", 400, 40, 4, 64);
	put(&d.side[0], "1\tgone", 1000, 8, 10, 0);
	put(&d.side[1], "1\tnew", 50, 2, 1, 50);
	sa_diff_compute(&d, &o);
	ck_assert_uint_eq(d.n_same, 1);
	ck_assert_uint_eq(d.n_changed, 1);
	ck_assert_uint_eq(d.n_new, 1);
	ck_assert_uint_eq(d.n_gone, 1);
	ck_assert_uint_eq(d.d_bytes.mag, 1200 - 550);
	ck_assert(d.d_bytes.neg);
	/* unchanged left out; by |d_bytes|: gone 1000, grows 300, new 50 */
	ck_assert_uint_eq(d.rows->len, 3);
	ck_assert_uint_eq(d.hidden, 1);
	r = &g_array_index(d.rows, struct sa_diff_row, 0);
	ck_assert_str_eq(r->site, "gone");
	ck_assert_int_eq(r->kind, 1);
	ck_assert_int_eq(r->status, SA_DIFF_GONE);
	ck_assert_uint_eq(r->d_bytes.mag, 1000);
	ck_assert(r->d_bytes.neg);
	r = &g_array_index(d.rows, struct sa_diff_row, 1);
	ck_assert_str_eq(r->site, "grows");
	ck_assert_uint_eq(r->d_slack.mag, 40);
	ck_assert(!r->d_slack.neg);
	ck_assert_uint_eq(r->d_allocs.mag, 3);
	ck_assert_uint_eq(r->d_live_bytes.mag, 64);
	ck_assert(!r->d_live_bytes.neg);
	r = &g_array_index(d.rows, struct sa_diff_row, 2);
	ck_assert_int_eq(r->status, SA_DIFF_NEW);
	sa_diff_clear(&d);
}
END_TEST

/* Differences of any two counters are exact; large ones sort first. */
START_TEST(extremes)
{
	struct sa_diff_opts o = { 0 };
	struct sa_diff d = { 0 };
	struct sa_diff_row *r;
	struct sa_delta x;
	int i;

	x = sa_delta_u64(1000, G_MAXUINT64);
	ck_assert_uint_eq(x.mag, G_MAXUINT64 - 1000);
	ck_assert(!x.neg);
	ck_assert_int_eq(sa_delta_clamp(x), G_MAXINT64);
	x = sa_delta_u64(G_MAXUINT64, 0);
	ck_assert_uint_eq(x.mag, G_MAXUINT64);
	ck_assert(x.neg);
	ck_assert_int_eq(sa_delta_clamp(x), -G_MAXINT64);
	x = sa_delta_s64(G_MININT64, G_MAXINT64);
	ck_assert_uint_eq(x.mag, G_MAXUINT64);
	ck_assert(!x.neg);
	x = sa_delta_s64(G_MAXINT64, G_MININT64);
	ck_assert_uint_eq(x.mag, G_MAXUINT64);
	ck_assert(x.neg);
	x = sa_delta_s64(5, 5);
	ck_assert(x.mag == 0 && !x.neg);

	for (i = 0; i < 2; i++)
		d.side[i].rows = g_hash_table_new_full(g_str_hash,
						       g_str_equal, g_free,
						       g_free);
	put(&d.side[0], "0\tsmall", 10, 0, 1, 0);
	put(&d.side[1], "0\tsmall", 20, 0, 1, 0);
	put(&d.side[0], "0\thuge", 1000, 0, 1, G_MININT64);
	put(&d.side[1], "0\thuge", G_MAXUINT64 - 5, 0, 1, G_MAXINT64);
	sa_diff_compute(&d, &o);
	r = &g_array_index(d.rows, struct sa_diff_row, 0);
	ck_assert_str_eq(r->site, "huge");
	ck_assert_uint_eq(r->d_bytes.mag, G_MAXUINT64 - 1005);
	ck_assert(!r->d_bytes.neg);
	ck_assert_uint_eq(r->d_live_bytes.mag, G_MAXUINT64);
	ck_assert(!r->d_live_bytes.neg);
	sa_diff_clear(&d);
}
END_TEST

#define SITE_LARGE	0xffffffff81000300ULL	/* the allocator's own */
#define SITE_CALLER	0xffffffff81000400ULL

/* One side from records, through the call-site aggregator. */
static void side_of(struct sa_diff_side *s, struct sa_rec *recs, int n)
{
	struct sa_report *rep = fx_run(recs, n, SECTION("callsite"), NULL,
				       1000000);

	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	sa_diff_side_add_callsite(s, RESULT(rep, "callsite"),
				  SA_DIFF_BY_SITE);
	sa_report_free(rep);
}

/*
 * The same large kmalloc on a kernel that traces it once (6.1) and on
 * one that traces it twice (6.10+): no change, no new site.
 */
START_TEST(large_kmalloc_repeat_no_change)
{
	struct sa_rec once[] = {
		fx_alloc(SA_EV_KMALLOC, 1, 0, SITE_CALLER, 0x8000, 20000,
			 32768),
		fx_free(SA_EV_KFREE, 2, 0, 0x8000),
	};
	struct sa_rec twice[] = {
		fx_alloc(SA_EV_KMALLOC, 1, 0, SITE_LARGE, 0x8000, 20000,
			 32768),
		fx_alloc(SA_EV_KMALLOC, 2, 0, SITE_CALLER, 0x8000, 20000,
			 32768),
		fx_free(SA_EV_KFREE, 3, 0, 0x8000),
	};
	struct sa_diff_opts o = { .all = true };
	struct sa_diff d = { 0 };

	side_of(&d.side[0], once, G_N_ELEMENTS(once));
	side_of(&d.side[1], twice, G_N_ELEMENTS(twice));
	sa_diff_compute(&d, &o);
	ck_assert_uint_eq(d.n_new, 0);
	ck_assert_uint_eq(d.n_gone, 0);
	ck_assert_uint_eq(d.n_changed, 0);
	ck_assert_uint_eq(d.n_same, 1);
	ck_assert_uint_eq(d.d_bytes.mag, 0);
	ck_assert_uint_eq(d.d_allocs.mag, 0);
	sa_diff_clear(&d);
}
END_TEST

/* A side of named rows, as a call-site result would give them. */
static void side_named(struct sa_diff_side *s, const char *const *names,
		       int n)
{
	struct sa_callsite_result r = { 0 };
	int i;

	r.sites = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < n; i++) {
		struct sa_site *x = g_new0(struct sa_site, 1);

		x->sym = (char *)names[i];
		x->allocs = 1;
		x->bytes_alloc = 64;
		g_ptr_array_add(r.sites, x);
	}
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	sa_diff_side_add_callsite(s, &r, SA_DIFF_BY_FUNCTION);
	g_ptr_array_free(r.sites, TRUE);
}

/*
 * diff --by function from 6.1 to 6.12: kvmalloc_node is
 * __kvmalloc_node_noprof; d_alloc and __d_alloc, both on one side, stay
 * two rows.
 */
START_TEST(across_kernels)
{
	static const char *const a[] = {
		"kvmalloc_node+0x5e", "kmemdup+0x1a", "d_alloc+0x10",
		"__d_alloc+0x20",
	};
	static const char *const b[] = {
		"__kvmalloc_node_noprof+0x8a", "kmemdup_noprof+0x22",
		"d_alloc+0x10", "__d_alloc+0x24",
	};
	struct sa_diff_opts o = { .by = SA_DIFF_BY_FUNCTION, .all = true };
	struct sa_diff d = { 0 };
	guint i;

	side_named(&d.side[0], a, G_N_ELEMENTS(a));
	side_named(&d.side[1], b, G_N_ELEMENTS(b));
	sa_diff_compute(&d, &o);
	ck_assert_uint_eq(d.n_new, 0);
	ck_assert_uint_eq(d.n_gone, 0);
	ck_assert_uint_eq(d.n_same, 4);
	for (i = 0; i < d.rows->len; i++) {
		const char *site = g_array_index(d.rows, struct sa_diff_row,
						 i).site;

		ck_assert(!strcmp(site, "kvmalloc_node -> "
				  "__kvmalloc_node_noprof") ||
			  !strcmp(site, "kmemdup -> kmemdup_noprof") ||
			  !strcmp(site, "d_alloc") ||
			  !strcmp(site, "__d_alloc"));
	}
	sa_diff_clear(&d);
}
END_TEST

/* An area result of one row. */
static void area_of(struct sa_diff_side *s, enum sa_area_kind kind,
		    bool present, const char *sym, guint64 allocs,
		    guint64 bytes, guint64 live, guint64 live_bytes)
{
	struct sa_area_result r = { .kind = kind, .present = present };
	struct sa_area_row x = { .sym = (char *)sym, .allocs = allocs,
				 .bytes = bytes, .frees = allocs - live,
				 .live = live, .live_bytes = live_bytes };

	r.rows = g_ptr_array_new();
	if (present)
		g_ptr_array_add(r.rows, &x);
	sa_diff_side_add_areas(s, &r, SA_DIFF_BY_SITE);
	g_ptr_array_free(r.rows, TRUE);
}

/*
 * vmalloc and percpu rows have totals of their own, never in the slab's;
 * a side without the events is not traced.
 */
START_TEST(area_totals)
{
	static const char *const slab[] = { "f+0x1" };
	struct sa_diff d = { 0 };
	const struct sa_diff_side *B = &d.side[1];

	side_named(&d.side[0], slab, 1);
	side_named(&d.side[1], slab, 1);
	area_of(&d.side[0], SA_AREA_VMALLOC, false, NULL, 0, 0, 0, 0);
	area_of(&d.side[1], SA_AREA_VMALLOC, true, "v <- g+0x2", 3, 3 << 20,
		1, 1 << 20);
	area_of(&d.side[1], SA_AREA_VMALLOC, true, "v <- h+0x3", 1, 8192, 0,
		0);
	area_of(&d.side[0], SA_AREA_PERCPU, true, "p+0x4", 4, 400, 4, 400);
	area_of(&d.side[1], SA_AREA_PERCPU, true, "p+0x4", 2, 200, 2, 200);
	sa_diff_compute(&d, NULL);
	/* the slab's: one kmalloc of 64 bytes a side, unchanged */
	ck_assert_uint_eq(B->total.bytes_alloc, 64);
	ck_assert_uint_eq(B->total.allocs, 1);
	ck_assert_uint_eq(d.d_bytes.mag, 0);
	ck_assert(!d.side[0].area[SA_DIFF_AREA_VMALLOC].traced);
	ck_assert(B->area[SA_DIFF_AREA_VMALLOC].traced);
	ck_assert_uint_eq(B->area[SA_DIFF_AREA_VMALLOC].total.bytes_alloc,
			  (3 << 20) + 8192);
	ck_assert_uint_eq(B->area[SA_DIFF_AREA_VMALLOC].total.allocs, 4);
	ck_assert_int_eq(B->area[SA_DIFF_AREA_VMALLOC].total.live_bytes,
			 1 << 20);
	ck_assert(d.area[SA_DIFF_AREA_VMALLOC].shown);
	ck_assert_uint_eq(d.area[SA_DIFF_AREA_VMALLOC].d_bytes.mag,
			  (3 << 20) + 8192);
	ck_assert(!d.area[SA_DIFF_AREA_VMALLOC].d_bytes.neg);
	ck_assert(d.area[SA_DIFF_AREA_PERCPU].shown);
	ck_assert_uint_eq(d.area[SA_DIFF_AREA_PERCPU].d_bytes.mag, 200);
	ck_assert(d.area[SA_DIFF_AREA_PERCPU].d_bytes.neg);
	ck_assert_uint_eq(d.area[SA_DIFF_AREA_PERCPU].d_live.mag, 2);
	ck_assert(d.area[SA_DIFF_AREA_PERCPU].d_live.neg);
	sa_diff_clear(&d);
}
END_TEST

START_TEST(sort_keys)
{
	enum sa_diff_sort k;

	ck_assert_int_eq(sa_diff_sort_parse("slack", &k), 0);
	ck_assert_int_eq(k, SA_DIFF_SORT_SLACK);
	ck_assert_int_eq(sa_diff_sort_parse("nope", &k), -1);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, keys);
	tcase_add_test(tc, compute);
	tcase_add_test(tc, extremes);
	tcase_add_test(tc, sort_keys);
	tcase_add_test(tc, large_kmalloc_repeat_no_change);
	tcase_add_test(tc, across_kernels);
	tcase_add_test(tc, area_totals);
	suite_add_tcase(s, tc);
	return s;
}
