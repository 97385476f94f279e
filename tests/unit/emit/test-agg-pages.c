// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the pages aggregator on hand-made records (order x
 * migratetype counts, frees, live pages, GFP, extfrag, the unusable
 * index from a buddyinfo snapshot), and its golden outputs on real
 * traces of 6.1 and 6.12-cloud guests.
 */
#include <check.h>

#include "report/agg/pages.h"
#include "report-mm-fixture.h"
#include "snapshot/snapshot.h"

Suite *suite(void);

#define FAILED	G_MAXUINT64

/*
 * pid 1: order-0 Movable pfn 100 and 101 (GFP 0xcc0), pid 2: order-2
 * Unmovable pfn 200 (GFP 0x100cca), order-11 migratetype 7 pfn 300
 * (0xcc0), and an order-3 allocation that failed. Frees: pfn 100, pfn 200
 * (order 2), and pfn 999, allocated before the trace, which came in a
 * batch: mm_page_free, then mm_page_free_batched for the same page, as
 * the kernel fires them (one free).
 */
static struct sa_report *run_pages(void)
{
	struct sa_rec recs[] = {
		MM_REC(SA_EV_PAGE_ALLOC, 1 * MS, 1, 100, 0, 0xcc0, 1),
		MM_REC(SA_EV_PAGE_ALLOC, 2 * MS, 1, 101, 0, 0xcc0, 1),
		MM_REC(SA_EV_PAGE_ALLOC, 3 * MS, 2, 200, 2, 0x100cca, 0),
		MM_REC(SA_EV_PAGE_ALLOC, 4 * MS, 2, 300, 11, 0xcc0, 7),
		MM_REC(SA_EV_PAGE_ALLOC, 5 * MS, 2, FAILED, 3, 0xcc0, 0),
		MM_REC(SA_EV_PAGE_FREE, 6 * MS, 1, 100, 0),
		MM_REC(SA_EV_PAGE_FREE, 7 * MS, 3, 200, 2),
		MM_REC(SA_EV_PAGE_FREE, 8 * MS, 3, 999, 0),
		MM_REC(SA_EV_PAGE_FREE_BATCHED, 8 * MS, 3, 999),
		/* alloc, fallback, change_ownership as in the event */
		MM_REC(SA_EV_PAGE_EXTFRAG, 9 * MS, 1, 0, 3, 1, 0, 1),
		MM_REC(SA_EV_PAGE_EXTFRAG, 9 * MS, 1, 0, 3, 1, 0, 0),
		MM_REC(SA_EV_PAGE_EXTFRAG, 9 * MS, 1, 0, 3, 0, 2, 1),
	};

	return mm_run(recs, G_N_ELEMENTS(recs), "pages", NULL);
}

START_TEST(order_by_migratetype)
{
	struct sa_report *rep = run_pages();
	struct sa_pages_result *r = RESULT(rep, "pages");

	ck_assert_uint_eq(r->allocs, 4);
	ck_assert_uint_eq(r->pages_alloc, 1 + 1 + 4 + 2048);
	ck_assert_uint_eq(r->failed, 1);
	ck_assert_uint_eq(r->alloc[0][1].blocks, 2);	/* 0, Movable */
	ck_assert_uint_eq(r->alloc[0][1].pages, 2);
	ck_assert_uint_eq(r->alloc[2][0].blocks, 1);	/* 2, Unmovable */
	ck_assert_uint_eq(r->alloc[2][0].pages, 4);
	ck_assert_uint_eq(r->alloc[10][4].blocks, 1);	/* >=10, other */
	ck_assert_uint_eq(r->alloc[10][4].pages, 2048);
	ck_assert_uint_eq(r->alloc[3][0].blocks, 0);	/* the failure */
	ck_assert_str_eq(sa_migratetype_name(4), "other");
	ck_assert_str_eq(sa_order_label(10), ">=10");
	sa_report_free(rep);
}
END_TEST

START_TEST(frees_and_live)
{
	struct sa_report *rep = run_pages();
	struct sa_pages_result *r = RESULT(rep, "pages");

	ck_assert_uint_eq(r->frees, 3);
	ck_assert_uint_eq(r->pages_freed, 1 + 4 + 1);
	ck_assert_uint_eq(r->frees_unmatched, 1);
	/* the batched event is a property of the free of pfn 999 */
	ck_assert_uint_eq(r->frees_batched, 1);
	ck_assert_uint_eq(r->freed[0].blocks, 2);
	ck_assert_uint_eq(r->freed[2].pages, 4);
	/* left: pfn 101 (order 0, Movable) and 300 (order 11, other) */
	ck_assert_uint_eq(r->live_blocks, 2);
	ck_assert_uint_eq(r->live_pages, 2049);
	ck_assert_uint_eq(r->live[0][1].blocks, 1);
	ck_assert_uint_eq(r->live[10][4].pages, 2048);
	ck_assert_uint_eq(r->live[2][0].blocks, 0);
	sa_report_free(rep);
}
END_TEST

START_TEST(gfp_and_tasks)
{
	struct sa_report *rep = run_pages();
	struct sa_pages_result *r = RESULT(rep, "pages");
	struct sa_pg_gfp *g0, *g1;
	struct sa_pg_task *t0;

	ck_assert_uint_eq(r->gfp->len, 2);
	g0 = r->gfp->pdata[0];
	g1 = r->gfp->pdata[1];
	ck_assert_uint_eq(g0->gfp, 0xcc0);
	ck_assert_uint_eq(g0->blocks, 3);
	ck_assert_uint_eq(g0->pages, 2050);
	ck_assert_str_eq(g0->str, "0xcc0");	/* no trace: no names */
	ck_assert_uint_eq(g1->gfp, 0x100cca);
	ck_assert_uint_eq(g1->pages, 4);
	t0 = r->tasks->pdata[0];
	ck_assert_int_eq(t0->pid, 2);
	ck_assert_uint_eq(t0->pages, 2052);
	ck_assert_uint_eq(r->tasks->len, 3);	/* pid 3 only freed */
	ck_assert(mm_has_note(rep, "not by call site"));
	sa_report_free(rep);
}
END_TEST

START_TEST(extfrag)
{
	struct sa_report *rep = run_pages();
	struct sa_pages_result *r = RESULT(rep, "pages");

	ck_assert_uint_eq(r->fallbacks, 3);
	ck_assert_uint_eq(r->steals, 2);
	ck_assert_uint_eq(r->fallback_mt[1][0], 2);	/* Movable <- Unm. */
	ck_assert_uint_eq(r->steal_mt[1][0], 1);
	ck_assert_uint_eq(r->fallback_mt[0][2], 1);
	ck_assert_uint_eq(r->steal_mt[0][2], 1);
	sa_report_free(rep);
}
END_TEST

/*
 * buddyinfo: Normal has 4, 2, 1 free blocks of orders 0, 1, 2: free =
 * 4 + 2*2 + 1*4 = 12 pages; unusable(1) = (12 - 8) / 12, unusable(2) =
 * (12 - 4) / 12, unusable(3) = 12 / 12.
 */
START_TEST(unusable_index)
{
	struct sa_snapshot snap = { .page_size = 4096, .uptime = -1 };
	struct sa_rec recs[] = {
		MM_REC(SA_EV_PAGE_ALLOC, 1 * MS, 1, 100, 0, 0xcc0, 1),
	};
	struct sa_report *rep;
	struct sa_pages_result *r;
	struct sa_pg_frag *z;
	char *json, *out;

	snap.text[SA_SRC_BUDDYINFO] = (char *)
		"Node 0, zone   Normal      4      2      1      0      0"
		"      0      0      0      0      0      0\n";
	snap.samples = g_array_new(FALSE, TRUE,
				   sizeof(struct sa_snap_sample));
	json = sa_snapshot_to_json(&snap, false);
	g_array_free(snap.samples, TRUE);
	rep = mm_run(recs, 1, "pages", json);
	r = RESULT(rep, "pages");
	ck_assert_ptr_nonnull(r->frag_start);
	ck_assert_ptr_null(r->frag_end);
	ck_assert_uint_eq(r->frag_start->len, 1);
	z = &g_array_index(r->frag_start, struct sa_pg_frag, 0);
	ck_assert_str_eq(z->zone, "Normal");
	ck_assert_uint_eq(z->free_pages, 12);
	ck_assert_int_eq(z->nr_orders, 11);
	ck_assert_double_eq_tol(z->unusable[0], 0.0, 1e-12);
	ck_assert_double_eq_tol(z->unusable[1], 4.0 / 12, 1e-12);
	ck_assert_double_eq_tol(z->unusable[2], 8.0 / 12, 1e-12);
	ck_assert_double_eq_tol(z->unusable[3], 1.0, 1e-12);
	/*
	 * shown as the kernel's debugfs extfrag/unusable_index prints it:
	 * 1000 * 8 / 12 = 666.67 rounded down, "0.666", in every format
	 */
	ck_assert_uint_eq(z->unusable_milli[2], 666);
	out = mm_emit(rep, "pages", SA_FMT_TEXT);
	ck_assert_msg(strstr(out, "beg 0 Normal  0.000 0.333 0.666 1.000"),
		      "%s", out);
	g_free(out);
	out = mm_emit(rep, "pages", SA_FMT_CSV);
	ck_assert_msg(strstr(out, "pages_unusable,start,0,Normal,2,12,0.666\n"),
		      "%s", out);
	g_free(out);
	out = mm_emit(rep, "pages", SA_FMT_JSON);
	ck_assert_msg(strstr(out, "0.666") && !strstr(out, "0.667"), "%s", out);
	g_free(out);
	sa_report_free(rep);
	g_free(json);

	/* no snapshot: said so */
	rep = mm_run(recs, 1, "pages", NULL);
	r = RESULT(rep, "pages");
	ck_assert_ptr_null(r->frag_start);
	ck_assert(mm_has_note(rep, "unusable free space index not available"));
	sa_report_free(rep);
}
END_TEST

START_TEST(no_page_events)
{
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, 0x1000, 0x10, 8, 8),
	};
	struct sa_report *rep = mm_run(recs, 1, "pages", NULL);
	struct sa_pages_result *r = RESULT(rep, "pages");

	ck_assert_uint_eq(r->allocs, 0);
	ck_assert(!r->have_alloc);
	ck_assert(mm_has_note(rep, "no kmem:mm_page_alloc events"));
	sa_report_free(rep);
}
END_TEST

MM_GOLDEN_TESTS("pages")

Suite *suite(void)
{
	Suite *s = suite_create("agg-pages");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, order_by_migratetype);
	tcase_add_test(tc, frees_and_live);
	tcase_add_test(tc, gfp_and_tasks);
	tcase_add_test(tc, extfrag);
	tcase_add_test(tc, unusable_index);
	tcase_add_test(tc, no_page_events);
	add_golden_tests(tc);
	suite_add_tcase(s, tc);
	return s;
}
