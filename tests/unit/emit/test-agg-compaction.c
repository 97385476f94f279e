// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the compaction aggregator on hand-made records (runs by
 * mode and their time, outcomes, pages migrated, deferrals by order), and
 * its golden outputs on real traces.
 */
#include <check.h>

#include "report/agg/compaction.h"
#include "report-mm-fixture.h"

Suite *suite(void);

/* begin/end fields: zone_start, migrate_pfn, free_pfn, zone_end, sync[, status] */
#define BEGIN(ts, pid, sync) \
	MM_REC(SA_EV_COMPACT_BEGIN, ts, pid, 0x1000, 0x1000, 0x8000, 0x8000, sync)
#define END(ts, pid, sync, status) \
	MM_REC(SA_EV_COMPACT_END, ts, pid, 0x1000, 0x2000, 0x7000, 0x8000, \
	       sync, status)
#define DEFER(ev, ts, order) MM_REC(ev, ts, 1, 0, 1, order, 1, 2, order)

/*
 * pid 1: async run 0..1 ms (status 8) migrating 10 (2 failed), async run
 * 5..5.2 ms (8); pid 2: sync run 0.5..3.5 ms (5) migrating 20 (8 failed);
 * pid 3 begins and never ends; pid 4 ends a run begun before the trace.
 */
static struct sa_report *run_compaction(void)
{
	struct sa_rec recs[] = {
		BEGIN(0, 1, 0),
		BEGIN(500 * US, 2, 1),
		MM_REC(SA_EV_COMPACT_MIGRATE, 600 * US, 1, 10, 2),
		END(1 * MS, 1, 0, 8),
		MM_REC(SA_EV_COMPACT_MIGRATE, 2 * MS, 2, 20, 8),
		END(3 * MS + 500 * US, 2, 1, 5),
		END(4 * MS, 4, 1, 8),
		BEGIN(5 * MS, 1, 0),
		END(5 * MS + 200 * US, 1, 0, 8),
		BEGIN(6 * MS, 3, 0),
		DEFER(SA_EV_COMPACT_DEFER, 7 * MS, 3),
		DEFER(SA_EV_COMPACT_DEFER, 7 * MS, 3),
		DEFER(SA_EV_COMPACT_DEFERRED, 8 * MS, 3),
		DEFER(SA_EV_COMPACT_DEFERRED, 8 * MS, 12),
		DEFER(SA_EV_COMPACT_DEFER_RESET, 9 * MS, 0),
	};

	return mm_run(recs, G_N_ELEMENTS(recs), "compaction", NULL);
}

START_TEST(runs_and_time)
{
	struct sa_report *rep = run_compaction();
	struct sa_compaction_result *r = RESULT(rep, "compaction");

	ck_assert_uint_eq(r->runs, 3);
	ck_assert_uint_eq(r->mode[0].runs, 2);
	ck_assert_uint_eq(r->mode[0].sum_ns, 1 * MS + 200 * US);
	ck_assert_uint_eq(r->mode[0].max_ns, 1 * MS);
	ck_assert_uint_eq(r->mode[1].runs, 1);
	ck_assert_uint_eq(r->mode[1].sum_ns, 3 * MS);
	ck_assert_uint_eq(r->sum_ns, 4 * MS + 200 * US);
	ck_assert_uint_eq(r->max_ns, 3 * MS);
	ck_assert_uint_eq(r->unfinished, 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(outcomes)
{
	struct sa_report *rep = run_compaction();
	struct sa_compaction_result *r = RESULT(rep, "compaction");
	struct sa_cp_outcome *a, *b;

	ck_assert_uint_eq(r->outcomes->len, 2);
	a = r->outcomes->pdata[0];
	b = r->outcomes->pdata[1];
	ck_assert_int_eq(a->status, 8);
	ck_assert_uint_eq(a->runs, 2);
	/* no event format here: the number itself */
	ck_assert_str_eq(a->name, "status 8");
	ck_assert_int_eq(b->status, 5);
	ck_assert_uint_eq(b->runs, 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(migration_and_deferrals)
{
	struct sa_report *rep = run_compaction();
	struct sa_compaction_result *r = RESULT(rep, "compaction");

	ck_assert_uint_eq(r->migrate_calls, 2);
	ck_assert_uint_eq(r->migrated, 30);
	ck_assert_uint_eq(r->failed, 10);
	ck_assert_double_eq_tol(r->success, 75.0, 1e-9);
	ck_assert_uint_eq(r->defer_total, 2);
	ck_assert_uint_eq(r->defer[3], 2);
	ck_assert_uint_eq(r->deferred_total, 2);
	ck_assert_uint_eq(r->deferred[3], 1);
	ck_assert_uint_eq(r->deferred[10], 1);	/* order 12: ">=10" */
	ck_assert_uint_eq(r->defer_reset[0], 1);
	sa_report_free(rep);
}
END_TEST

START_TEST(no_events)
{
	struct sa_report *rep = mm_run(NULL, 0, "compaction", NULL);
	struct sa_compaction_result *r = RESULT(rep, "compaction");

	ck_assert_uint_eq(r->runs, 0);
	ck_assert_double_eq_tol(r->success, 0.0, 1e-9);
	ck_assert(mm_has_note(rep, "no compaction events"));
	sa_report_free(rep);
}
END_TEST

/* An older format of mm_compaction_end, without status. */
static const char end_fmt[] =
	"name: mm_compaction_end\nID: 300\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long zone_start;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long migrate_pfn;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long free_pfn;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long zone_end;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:bool sync;\toffset:40;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"zone_start=0x%lx\", REC->zone_start\n";

/* A format without a field: the report says what it cannot compute. */
START_TEST(missing_status_field)
{
	struct tep_handle *tep = tep_alloc();
	struct sa_report *rep = sa_report_new("synthetic", 0, NULL);
	struct sa_rec recs[] = {
		BEGIN(0, 1, 0),
		MM_REC(SA_EV_COMPACT_END, 1 * MS, 1, 0x1000, 0x2000, 0x7000,
		       0x8000, 0),	/* five fields: no status */
	};
	struct sa_compaction_result *r;
	struct sa_decode *d;

	ck_assert_int_eq(tep_parse_event(tep, end_fmt, strlen(end_fmt),
					 "compaction"), 0);
	d = sa_decode_new(tep, rep->ev_present, rep->notes);
	ck_assert(rep->ev_present[SA_EV_COMPACT_END]);
	ck_assert(mm_has_note(rep, "compaction:mm_compaction_end has no "
			      "field 'status'"));
	sa_decode_free(d);
	sa_report_free(rep);
	tep_free(tep);

	rep = mm_run(recs, G_N_ELEMENTS(recs), "compaction", NULL);
	r = RESULT(rep, "compaction");
	ck_assert_uint_eq(r->runs, 1);
	ck_assert_uint_eq(r->sum_ns, 1 * MS);
	ck_assert_uint_eq(r->outcomes->len, 0);
	sa_report_free(rep);
}
END_TEST

MM_GOLDEN_TESTS("compaction")

Suite *suite(void)
{
	Suite *s = suite_create("agg-compaction");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, runs_and_time);
	tcase_add_test(tc, outcomes);
	tcase_add_test(tc, migration_and_deferrals);
	tcase_add_test(tc, no_events);
	tcase_add_test(tc, missing_status_field);
	add_golden_tests(tc);
	suite_add_tcase(s, tc);
	return s;
}
