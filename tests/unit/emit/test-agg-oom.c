// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the OOM aggregator on hand-made records (each kill's victim
 * and trigger, the reaping timeline, the top live call sites at the
 * moment of the kill), and its golden outputs on real traces.
 */
#include <check.h>

#include "report/agg/oom.h"
#include "report-mm-fixture.h"

Suite *suite(void);

#define SITE_A	0xffffffff81000100ULL
#define SITE_B	0xffffffff81000200ULL

/* mark_victim: pid, comm, anon_rss, file_rss, shmem_rss, oom_score_adj */
#define VICTIM(ts, trigger, pid, comm, adj)				\
	MM_REC(SA_EV_OOM_VICTIM, ts, trigger, pid,			\
	       (guint64)(uintptr_t)g_intern_string(comm), 1000, 4, 0,	\
	       (guint16)(adj))

/*
 * Live before kill 1: A 3 x 1000 bytes with one freed (2000 live), B
 * 5000. pid 50 reclaims for an order-2 allocation, retries reclaim twice
 * and compaction once, and kills pid 60 at 10 ms; the reaper wakes at
 * +0.5 ms, starts at +2 ms and finishes at +3 ms. One more A allocation,
 * then pid 70 kills itself at 20 ms (adj -5) with no reclaim seen, and
 * the reaper skips it at +1 ms. A reaping of pid 999 matches no kill.
 */
static struct sa_report *run_oom(void)
{
	struct sa_rec recs[] = {
		fx_alloc(SA_EV_KMALLOC, 1 * MS, 0, SITE_A, 0x1, 1000, 1000),
		fx_alloc(SA_EV_KMALLOC, 2 * MS, 0, SITE_A, 0x2, 1000, 1000),
		fx_alloc(SA_EV_KMALLOC, 3 * MS, 0, SITE_A, 0x3, 1000, 1000),
		fx_alloc(SA_EV_CACHE_ALLOC, 4 * MS, 1, SITE_B, 0x4, 5000,
			 5000),
		fx_free(SA_EV_KFREE, 5 * MS, 0, 0x1),
		MM_REC(SA_EV_DIRECT_BEGIN, 6 * MS, 50, 2, 0x400dc0),
		MM_REC(SA_EV_DIRECT_END, 7 * MS, 50, 0),
		MM_REC(SA_EV_OOM_RECLAIM_RETRY, 8 * MS, 50, 2, 1),
		MM_REC(SA_EV_OOM_RECLAIM_RETRY, 8 * MS, 50, 2, 2),
		MM_REC(SA_EV_OOM_COMPACT_RETRY, 9 * MS, 50, 2, 1),
		MM_REC(SA_EV_OOM_RECLAIM_RETRY, 9 * MS, 51, 0, 1),
		VICTIM(10 * MS, 50, 60, "hog", 1000),
		MM_REC(SA_EV_OOM_WAKE_REAPER, 10 * MS + 500 * US, 50, 60),
		MM_REC(SA_EV_OOM_START_REAP, 12 * MS, 30, 60),
		MM_REC(SA_EV_OOM_FINISH_REAP, 13 * MS, 30, 60),
		MM_REC(SA_EV_OOM_START_REAP, 14 * MS, 30, 999),
		fx_alloc(SA_EV_KMALLOC, 15 * MS, 0, SITE_A, 0x5, 1000, 1000),
		VICTIM(20 * MS, 70, 70, "self", -5),
		MM_REC(SA_EV_OOM_SKIP_REAP, 21 * MS, 30, 70),
	};

	return mm_run(recs, G_N_ELEMENTS(recs), "oom", NULL);
}

START_TEST(victim_and_trigger)
{
	struct sa_report *rep = run_oom();
	struct sa_oom_result *r = RESULT(rep, "oom");
	struct sa_oom_kill *k;

	ck_assert_uint_eq(r->kills->len, 2);
	ck_assert_uint_eq(r->reclaim_retries, 3);
	ck_assert_uint_eq(r->compact_retries, 1);
	k = r->kills->pdata[0];
	ck_assert_int_eq(k->victim_pid, 60);
	ck_assert_str_eq(k->victim_comm, "hog");
	ck_assert_uint_eq(k->rel_ns, 9 * MS);
	ck_assert(k->have_rss);
	ck_assert_uint_eq(k->anon_rss_kb, 1000);
	ck_assert_uint_eq(k->file_rss_kb, 4);
	ck_assert_int_eq(k->score_adj, 1000);
	ck_assert_int_eq(k->trigger_pid, 50);
	ck_assert_int_eq(k->trigger_order, 2);
	ck_assert_str_eq(k->trigger_gfp, "0x400dc0");
	ck_assert_uint_eq(k->reclaim_retries, 2);
	ck_assert_uint_eq(k->compact_retries, 1);
	k = r->kills->pdata[1];
	ck_assert_int_eq(k->victim_pid, 70);
	ck_assert_int_eq(k->trigger_pid, 70);
	ck_assert_int_eq(k->trigger_order, -1);
	ck_assert_ptr_null(k->trigger_gfp);
	ck_assert_int_eq(k->score_adj, -5);
	ck_assert_uint_eq(k->reclaim_retries, 0);
	sa_report_free(rep);
}
END_TEST

START_TEST(reaping_timeline)
{
	struct sa_report *rep = run_oom();
	struct sa_oom_result *r = RESULT(rep, "oom");
	struct sa_oom_kill *k = r->kills->pdata[0];

	ck_assert_int_eq(k->step_ns[SA_OOM_WAKE_REAPER], 500 * US);
	ck_assert_int_eq(k->step_ns[SA_OOM_START_REAP], 2 * MS);
	ck_assert_int_eq(k->step_ns[SA_OOM_FINISH_REAP], 3 * MS);
	ck_assert_int_eq(k->step_ns[SA_OOM_SKIP_REAP], -1);
	k = r->kills->pdata[1];
	ck_assert_int_eq(k->step_ns[SA_OOM_WAKE_REAPER], -1);
	ck_assert_int_eq(k->step_ns[SA_OOM_START_REAP], -1);
	ck_assert_int_eq(k->step_ns[SA_OOM_SKIP_REAP], 1 * MS);
	sa_report_free(rep);
}
END_TEST

START_TEST(top_live_at_the_kill)
{
	struct sa_report *rep = run_oom();
	struct sa_oom_result *r = RESULT(rep, "oom");
	struct sa_oom_kill *k = r->kills->pdata[0];
	struct sa_oom_holder *h;

	ck_assert(k->holders_known);
	ck_assert_uint_eq(k->holders->len, 2);
	h = k->holders->pdata[0];
	ck_assert_uint_eq(h->site->call_site, SITE_B);
	ck_assert_uint_eq(h->live, 1);
	ck_assert_uint_eq(h->live_bytes, 5000);
	ck_assert_str_eq(h->kind, "cache");
	h = k->holders->pdata[1];
	ck_assert_uint_eq(h->site->call_site, SITE_A);
	ck_assert_uint_eq(h->live, 2);
	ck_assert_uint_eq(h->live_bytes, 2000);
	ck_assert_str_eq(h->kind, "kmalloc");
	ck_assert_ptr_nonnull(h->sym);
	/* at the second kill A holds one more */
	k = r->kills->pdata[1];
	h = k->holders->pdata[1];
	ck_assert_uint_eq(h->live, 3);
	ck_assert_uint_eq(h->live_bytes, 3000);
	sa_report_free(rep);
}
END_TEST

START_TEST(no_kmem_no_holders)
{
	struct sa_rec recs[] = {
		VICTIM(10 * MS, 50, 60, "hog", 0),
	};
	struct sa_report *rep = mm_run(recs, 1, "oom", NULL);
	struct sa_oom_result *r = RESULT(rep, "oom");
	struct sa_oom_kill *k = r->kills->pdata[0];

	ck_assert(!k->holders_known);
	ck_assert(mm_has_note(rep, "top live call sites at a kill are not "
			      "available"));
	sa_report_free(rep);
	rep = mm_run(NULL, 0, "oom", NULL);
	ck_assert(mm_has_note(rep, "no oom:mark_victim events"));
	sa_report_free(rep);
}
END_TEST

MM_GOLDEN_TESTS("oom")

Suite *suite(void)
{
	Suite *s = suite_create("agg-oom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, victim_and_trigger);
	tcase_add_test(tc, reaping_timeline);
	tcase_add_test(tc, top_live_at_the_kill);
	tcase_add_test(tc, no_kmem_no_holders);
	add_golden_tests(tc);
	suite_add_tcase(s, tc);
	return s;
}
