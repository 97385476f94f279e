// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the reclaim aggregator on hand-made records (direct reclaim
 * latency sum, max and histogram per task, kswapd busy time, shrinker
 * time, LRU efficiency), and its golden outputs on real traces.
 */
#include <check.h>

#include <event-parse.h>

#include "report/agg/reclaim.h"
#include "report/flags.h"
#include "report-mm-fixture.h"

Suite *suite(void);

/*
 * Direct reclaim: pid 10 takes 5 us (3 pages) then 2 ms (7 pages), pid
 * 11 500 us, pid 12 begins and never ends, pid 13 ends a reclaim begun
 * before the trace. kswapd 0: woken at 0 and again at 1 ms, asleep at
 * 4 ms, woken at 10 ms (order 3) and still awake at the last event,
 * 15 ms. Shrinkers: 0xf1 by pid 20 for 300 us (128 to scan, 100 freed)
 * and by pid 21 for 1 ms (28 freed); 0xf2 100 us returning an error.
 * LRU: pid 10 (in direct reclaim) scans 32 and steals 8, file flags 0x2;
 * pid 99 scans 64 and steals 64, anon flags 0x1.
 */
static struct sa_report *run_reclaim(void)
{
	struct sa_rec recs[] = {
		MM_REC(SA_EV_DIRECT_BEGIN, 0, 10, 0, 0xcc0),
		MM_REC(SA_EV_KSWAPD_WAKE, 0, 1, 0, 1, 0),
		MM_REC(SA_EV_SHRINK_START, 0, 20, 0xa, 0xf1, 0, 128, 1000),
		MM_REC(SA_EV_DIRECT_END, 5 * US, 10, 3),
		MM_REC(SA_EV_DIRECT_BEGIN, 100 * US, 10, 0, 0xcc0),
		MM_REC(SA_EV_LRU_INACTIVE, 200 * US, 10, 32, 8, 0x2),
		MM_REC(SA_EV_SHRINK_END, 300 * US, 20, 0xa, 0xf1, 100),
		MM_REC(SA_EV_DIRECT_BEGIN, 1 * MS, 11, 0, 0xcc0),
		MM_REC(SA_EV_KSWAPD_WAKE, 1 * MS, 1, 0, 1, 0),
		MM_REC(SA_EV_SHRINK_START, 1 * MS, 20, 0xb, 0xf2, 0, 5, 9),
		MM_REC(SA_EV_SHRINK_END, 1 * MS + 100 * US, 20, 0xb, 0xf2,
		       (guint32)-1),
		MM_REC(SA_EV_DIRECT_END, 1 * MS + 500 * US, 11, 0),
		MM_REC(SA_EV_WAKEUP_KSWAPD, 1 * MS + 600 * US, 11, 0, 1, 0),
		MM_REC(SA_EV_DIRECT_END, 2 * MS + 100 * US, 10, 7),
		MM_REC(SA_EV_SHRINK_START, 2 * MS, 21, 0xc, 0xf1, 0, 64, 9),
		MM_REC(SA_EV_DIRECT_BEGIN, 3 * MS, 12, 0, 0xcc0),
		MM_REC(SA_EV_SHRINK_END, 3 * MS, 21, 0xc, 0xf1, 28),
		MM_REC(SA_EV_KSWAPD_SLEEP, 4 * MS, 1, 0),
		MM_REC(SA_EV_LRU_INACTIVE, 5 * MS, 99, 64, 64, 0x1),
		MM_REC(SA_EV_DIRECT_END, 6 * MS, 13, 1),
		MM_REC(SA_EV_KSWAPD_WAKE, 10 * MS, 1, 0, 1, 3),
		MM_REC(SA_EV_WAKEUP_KSWAPD, 11 * MS, 11, 0, 1, 3),
		MM_REC(SA_EV_RECLAIM_WRITE, 12 * MS, 1, 0x1234),
		MM_REC(SA_EV_KSWAPD_WAKE, 15 * MS, 1, 0, 1, 0),
	};

	return mm_run(recs, G_N_ELEMENTS(recs), "reclaim", NULL);
}

START_TEST(direct_latency)
{
	struct sa_report *rep = run_reclaim();
	struct sa_reclaim_result *r = RESULT(rep, "reclaim");
	const struct sa_rc_lat *t = &r->total[SA_RC_DIRECT];
	struct sa_rc_task *p10;

	ck_assert_uint_eq(t->count, 3);
	ck_assert_uint_eq(t->sum_ns, 5 * US + 2 * MS + 500 * US);
	ck_assert_uint_eq(t->max_ns, 2 * MS);
	ck_assert_uint_eq(t->reclaimed, 10);
	/* <10us <100us <1ms <10ms ... */
	ck_assert_uint_eq(t->hist[0], 1);
	ck_assert_uint_eq(t->hist[1], 0);
	ck_assert_uint_eq(t->hist[2], 1);
	ck_assert_uint_eq(t->hist[3], 1);
	ck_assert_uint_eq(t->hist[6], 0);
	ck_assert_uint_eq(r->unfinished[SA_RC_DIRECT], 1);
	ck_assert_uint_eq(r->tasks[SA_RC_DIRECT]->len, 2);
	p10 = r->tasks[SA_RC_DIRECT]->pdata[0];
	ck_assert_int_eq(p10->pid, 10);
	ck_assert_uint_eq(p10->lat.count, 2);
	ck_assert_uint_eq(p10->lat.sum_ns, 2 * MS + 5 * US);
	ck_assert_uint_eq(p10->lat.max_ns, 2 * MS);
	ck_assert_uint_eq(p10->lat.reclaimed, 10);
	ck_assert_uint_eq(r->total[SA_RC_MEMCG].count, 0);
	ck_assert_uint_eq(r->writes, 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(histogram_buckets)
{
	ck_assert_int_eq(sa_lat_bucket(0), 0);
	ck_assert_int_eq(sa_lat_bucket(9999), 0);
	ck_assert_int_eq(sa_lat_bucket(10000), 1);
	ck_assert_int_eq(sa_lat_bucket(999999), 2);
	ck_assert_int_eq(sa_lat_bucket(1000000), 3);
	ck_assert_int_eq(sa_lat_bucket(999999999), 5);
	ck_assert_int_eq(sa_lat_bucket(1000000000), 6);
	ck_assert_str_eq(sa_lat_label(6), ">=1s");
}
END_TEST

START_TEST(kswapd_busy)
{
	struct sa_report *rep = run_reclaim();
	struct sa_reclaim_result *r = RESULT(rep, "reclaim");
	struct sa_kswapd_node *n;

	ck_assert_uint_eq(r->kswapd->len, 1);
	n = &g_array_index(r->kswapd, struct sa_kswapd_node, 0);
	ck_assert_int_eq(n->nid, 0);
	ck_assert_uint_eq(n->wakes, 4);
	ck_assert_uint_eq(n->sleeps, 1);
	ck_assert_uint_eq(n->requests, 2);
	/* 0..4 ms, then 10 ms to the last event at 15 ms */
	ck_assert_uint_eq(n->busy_ns, 4 * MS + 5 * MS);
	ck_assert(n->awake_at_end);
	ck_assert_int_eq(n->max_order, 3);
	sa_report_free(rep);
}
END_TEST

START_TEST(shrinkers)
{
	struct sa_report *rep = run_reclaim();
	struct sa_reclaim_result *r = RESULT(rep, "reclaim");
	struct sa_shrinker *a, *b;

	ck_assert_uint_eq(r->shrinkers->len, 2);
	a = r->shrinkers->pdata[0];
	b = r->shrinkers->pdata[1];
	ck_assert_uint_eq(a->shrink, 0xf1);
	ck_assert_uint_eq(a->calls, 2);
	ck_assert_uint_eq(a->sum_ns, 300 * US + 1 * MS);
	ck_assert_uint_eq(a->max_ns, 1 * MS);
	ck_assert_uint_eq(a->to_scan, 128 + 64);
	ck_assert_uint_eq(a->freed, 128);
	ck_assert_str_eq(a->sym, "0xf1");	/* no kallsyms here */
	ck_assert_uint_eq(b->shrink, 0xf2);
	ck_assert_uint_eq(b->sum_ns, 100 * US);
	ck_assert_uint_eq(b->freed, 0);		/* an error is not freed */
	sa_report_free(rep);
}
END_TEST

START_TEST(lru_efficiency)
{
	struct sa_report *rep = run_reclaim();
	struct sa_reclaim_result *r = RESULT(rep, "reclaim");
	struct sa_lru_row *l;

	ck_assert_uint_eq(r->lru_total.scanned, 96);
	ck_assert_uint_eq(r->lru_total.reclaimed, 72);
	ck_assert_double_eq_tol(r->lru_total.efficiency, 75.0, 1e-9);
	/* contexts: direct, kswapd/other; then flags by pages scanned */
	ck_assert_uint_eq(r->lru->len, 4);
	l = r->lru->pdata[0];
	ck_assert_str_eq(l->what, "direct");
	ck_assert_double_eq_tol(l->efficiency, 25.0, 1e-9);
	l = r->lru->pdata[1];
	ck_assert_str_eq(l->what, "kswapd/other");
	ck_assert_double_eq_tol(l->efficiency, 100.0, 1e-9);
	l = r->lru->pdata[2];
	ck_assert_str_eq(l->what, "0x1");
	ck_assert_uint_eq(l->scanned, 64);
	sa_report_free(rep);
}
END_TEST

START_TEST(missing_events)
{
	struct sa_rec recs[] = {
		MM_REC(SA_EV_KSWAPD_WAKE, 0, 1, 0, 1, 0),
		MM_REC(SA_EV_KSWAPD_SLEEP, 1, 1, 0),
	};
	struct sa_report *rep = mm_run(recs, 2, "reclaim", NULL);

	ck_assert(mm_has_note(rep, "direct reclaim latency not computed"));
	ck_assert(mm_has_note(rep, "shrinker time not computed"));
	ck_assert(!mm_has_note(rep, "kswapd busy time not computed"));
	sa_report_free(rep);
	/* nothing of vmscan at all */
	rep = mm_run(recs, 0, "reclaim", NULL);
	ck_assert(mm_has_note(rep, "no vmscan events"));
	sa_report_free(rep);
}
END_TEST

/*
 * The LRU flag rows are named by the event's print format, which labels
 * its reclaim_flags field "flags=" (6.1 and 6.12).
 */
static const char lru_format[] =
"name: mm_vmscan_lru_shrink_inactive\n"
"ID: 524\n"
"format:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
"\n"
"\tfield:int nid;\toffset:8;\tsize:4;\tsigned:1;\n"
"\tfield:unsigned long nr_scanned;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:unsigned long nr_reclaimed;\toffset:24;\tsize:8;\tsigned:0;\n"
"\tfield:int priority;\toffset:88;\tsize:4;\tsigned:1;\n"
"\tfield:int reclaim_flags;\toffset:92;\tsize:4;\tsigned:1;\n"
"\n"
"print fmt: \"nid=%d nr_scanned=%ld nr_reclaimed=%ld priority=%d "
"flags=%s\", REC->nid, REC->nr_scanned, REC->nr_reclaimed, REC->priority, "
"(REC->reclaim_flags) ? __print_flags(REC->reclaim_flags, \"|\", "
"{0x0001u, \"RECLAIM_WB_ANON\"}, {0x0002u, \"RECLAIM_WB_FILE\"}, "
"{0x0010u, \"RECLAIM_WB_MIXED\"}, {0x0004u, \"RECLAIM_WB_SYNC\"}, "
"{0x0008u, \"RECLAIM_WB_ASYNC\"} ) : \"RECLAIM_WB_NONE\"\n";

START_TEST(lru_flag_names)
{
	struct sa_report *rep = sa_report_new("synthetic", SECTION("reclaim"),
					      NULL);
	struct tep_handle *tep = tep_alloc();
	char *s;

	ck_assert_int_eq(tep_parse_event(tep, lru_format, strlen(lru_format),
					 "vmscan"), 0);
	rep->tep = tep;
	s = sa_report_flags(rep, SA_EV_LRU_INACTIVE, SA_LRU_FLAGS, 0x9);
	ck_assert_str_eq(s, "RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	g_free(s);
	s = sa_report_flags(rep, SA_EV_LRU_INACTIVE, SA_LRU_FLAGS, 0xa);
	ck_assert_str_eq(s, "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	g_free(s);
	rep->tep = NULL;
	tep_free(tep);
	sa_report_free(rep);
}
END_TEST

MM_GOLDEN_TESTS("reclaim")

Suite *suite(void)
{
	Suite *s = suite_create("agg-reclaim");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, direct_latency);
	tcase_add_test(tc, histogram_buckets);
	tcase_add_test(tc, kswapd_busy);
	tcase_add_test(tc, shrinkers);
	tcase_add_test(tc, lru_efficiency);
	tcase_add_test(tc, missing_events);
	tcase_add_test(tc, lru_flag_names);
	add_golden_tests(tc);
	suite_add_tcase(s, tc);
	return s;
}
