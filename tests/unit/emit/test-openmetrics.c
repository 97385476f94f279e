// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the metrics emitter, both dialects, on a known report. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "report/pipeline.h"
#include "report/sort.h"

Suite *suite(void);

static struct sa_site *site(const char *sym, int kind, guint64 bytes,
			    guint64 req, guint64 allocs, guint64 live,
			    guint64 live_bytes)
{
	struct sa_site *s = g_new0(struct sa_site, 1);

	s->sym = g_strdup(sym);
	s->kind = kind;
	s->bytes_alloc = bytes;
	s->bytes_req = req;
	s->have_req = TRUE;
	s->allocs = allocs;
	s->frees = allocs - live;
	s->live = live;
	s->live_alloc = live_bytes;
	s->live_req = live_bytes;
	sa_site_derive(s);
	return s;
}

/* Three kmalloc sites and a cache site; the view keeps the top 2. */
static struct sa_report *known(void)
{
	struct sa_report_opts opts = { 0 };
	struct sa_report *rep = sa_report_new("known", 1, &opts);
	struct sa_callsite_result *r = g_new0(struct sa_callsite_result, 1);

	r->sites = g_ptr_array_new_with_free_func((GDestroyNotify)
						  sa_site_free);
	g_ptr_array_add(r->sites, site("big+0x1/0x10", 0, 4096, 4000, 4, 1,
				       1024));
	g_ptr_array_add(r->sites, site("q\"u\\o+0x2 [m]", 1, 2048, 2000, 2,
				       0, 0));
	g_ptr_array_add(r->sites, site("small+0x3", 0, 64, 60, 1, 1, 64));
	g_ptr_array_add(r->sites, site("tiny+0x4", 0, 32, 30, 1, 0, 0));
	sa_callsite_totals(r);
	r->shown = g_ptr_array_new();
	rep->result[SA_SEC_CALLSITE] = r;
	rep->origin.kernel_release = g_strdup("6.1.0-test");
	rep->origin.lost_known = TRUE;
	rep->origin.lost_total = 7;
	rep->first_ts = 1000000000;
	rep->last_ts = 3500000001;
	sa_callsite_view(r, NULL, 2, 0);
	return rep;
}

static char *emit(enum sa_format fmt)
{
	struct sa_report *rep = known();
	struct sa_emit e = { .fmt = fmt };
	char *buf = NULL;
	size_t len = 0;

	e.out = open_memstream(&buf, &len);
	ck_assert_int_eq(sa_emit_report(&e, rep), 0);
	fclose(e.out);
	sa_report_free(rep);
	return buf;
}

START_TEST(prometheus)
{
	char *out = emit(SA_FMT_PROMETHEUS);

	ck_assert_str_eq(out,
"# HELP slabacct_info What the figures were taken from.\n"
"# TYPE slabacct_info gauge\n"
"slabacct_info{source=\"trace\",kernel_release=\"6.1.0-test\"} 1\n"
"# HELP slabacct_lost_events_total Events the ring buffer lost while "
"recording: the figures are incomplete when above 0.\n"
"# TYPE slabacct_lost_events_total counter\n"
"slabacct_lost_events_total 7\n"
"# HELP slabacct_trace_duration_seconds Time from the trace's first "
"event to its last.\n"
"# TYPE slabacct_trace_duration_seconds gauge\n"
"slabacct_trace_duration_seconds 2.500000001\n"
"# HELP slabacct_trace_truncated 1 when the recording stopped early (a "
"full disk, a signal before the workload ended): the figures are "
"incomplete.\n"
"# TYPE slabacct_trace_truncated gauge\n"
"slabacct_trace_truncated 0\n"
"# HELP slabacct_sites Call sites seen, of each kind.\n"
"# TYPE slabacct_sites gauge\n"
"slabacct_sites{kind=\"kmalloc\"} 3\n"
"slabacct_sites{kind=\"cache\"} 1\n"
"# HELP slabacct_site_allocated_bytes_total Bytes allocated (slot "
"sizes) by the call site.\n"
"# TYPE slabacct_site_allocated_bytes_total counter\n"
"slabacct_site_allocated_bytes_total{site=\"big+0x1\",kind=\"kmalloc\"} 4096\n"
"slabacct_site_allocated_bytes_total{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 2048\n"
"slabacct_site_allocated_bytes_total{site=\"small+0x3\",kind=\"kmalloc\"} 64\n"
"slabacct_site_allocated_bytes_total{site=\"other\",kind=\"kmalloc\"} 32\n"
"# HELP slabacct_site_requested_bytes_total Bytes the call site "
"requested.\n"
"# TYPE slabacct_site_requested_bytes_total counter\n"
"slabacct_site_requested_bytes_total{site=\"big+0x1\",kind=\"kmalloc\"} 4000\n"
"slabacct_site_requested_bytes_total{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 2000\n"
"slabacct_site_requested_bytes_total{site=\"small+0x3\",kind=\"kmalloc\"} 60\n"
"slabacct_site_requested_bytes_total{site=\"other\",kind=\"kmalloc\"} 30\n"
"# HELP slabacct_site_slack_bytes_total Bytes allocated minus bytes "
"requested by the call site.\n"
"# TYPE slabacct_site_slack_bytes_total counter\n"
"slabacct_site_slack_bytes_total{site=\"big+0x1\",kind=\"kmalloc\"} 96\n"
"slabacct_site_slack_bytes_total{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 48\n"
"slabacct_site_slack_bytes_total{site=\"small+0x3\",kind=\"kmalloc\"} 4\n"
"slabacct_site_slack_bytes_total{site=\"other\",kind=\"kmalloc\"} 2\n"
"# HELP slabacct_site_allocations_total Allocations by the call site.\n"
"# TYPE slabacct_site_allocations_total counter\n"
"slabacct_site_allocations_total{site=\"big+0x1\",kind=\"kmalloc\"} 4\n"
"slabacct_site_allocations_total{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 2\n"
"slabacct_site_allocations_total{site=\"small+0x3\",kind=\"kmalloc\"} 1\n"
"slabacct_site_allocations_total{site=\"other\",kind=\"kmalloc\"} 1\n"
"# HELP slabacct_site_frees_total Frees of the call site's objects.\n"
"# TYPE slabacct_site_frees_total counter\n"
"slabacct_site_frees_total{site=\"big+0x1\",kind=\"kmalloc\"} 3\n"
"slabacct_site_frees_total{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 2\n"
"slabacct_site_frees_total{site=\"small+0x3\",kind=\"kmalloc\"} 0\n"
"slabacct_site_frees_total{site=\"other\",kind=\"kmalloc\"} 1\n"
"# HELP slabacct_site_live_bytes Bytes of the call site's objects not "
"freed (at the end of the trace).\n"
"# TYPE slabacct_site_live_bytes gauge\n"
"slabacct_site_live_bytes{site=\"big+0x1\",kind=\"kmalloc\"} 1024\n"
"slabacct_site_live_bytes{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 0\n"
"slabacct_site_live_bytes{site=\"small+0x3\",kind=\"kmalloc\"} 64\n"
"slabacct_site_live_bytes{site=\"other\",kind=\"kmalloc\"} 0\n"
"# HELP slabacct_site_live_objects The call site's objects not freed "
"(at the end of the trace).\n"
"# TYPE slabacct_site_live_objects gauge\n"
"slabacct_site_live_objects{site=\"big+0x1\",kind=\"kmalloc\"} 1\n"
"slabacct_site_live_objects{site=\"q\\\"u\\\\\\\\o+0x2 [m]\",kind=\"cache\"} 0\n"
"slabacct_site_live_objects{site=\"small+0x3\",kind=\"kmalloc\"} 1\n"
"slabacct_site_live_objects{site=\"other\",kind=\"kmalloc\"} 0\n");
	free(out);
}
END_TEST

/* OpenMetrics: families without _total, UNIT lines, info, # EOF */
START_TEST(openmetrics)
{
	char *out = emit(SA_FMT_OPENMETRICS);

	ck_assert(g_str_has_prefix(out,
"# HELP slabacct What the figures were taken from.\n"
"# TYPE slabacct info\n"
"slabacct_info{source=\"trace\",kernel_release=\"6.1.0-test\"} 1\n"
"# HELP slabacct_lost_events Events the ring buffer lost while "
"recording: the figures are incomplete when above 0.\n"
"# TYPE slabacct_lost_events counter\n"
"slabacct_lost_events_total 7\n"
"# HELP slabacct_trace_duration_seconds Time from the trace's first "
"event to its last.\n"
"# TYPE slabacct_trace_duration_seconds gauge\n"
"# UNIT slabacct_trace_duration_seconds seconds\n"
"slabacct_trace_duration_seconds 2.500000001\n"));
	ck_assert(strstr(out,
"# TYPE slabacct_site_allocated_bytes counter\n"
"# UNIT slabacct_site_allocated_bytes bytes\n"
"slabacct_site_allocated_bytes_total{site=\"big+0x1\",kind=\"kmalloc\"} 4096\n"));
	ck_assert(strstr(out,
"# TYPE slabacct_site_allocations counter\n"
"slabacct_site_allocations_total{"));
	ck_assert(strstr(out,
"# TYPE slabacct_site_live_objects gauge\n"
"slabacct_site_live_objects{site=\"big+0x1\",kind=\"kmalloc\"} 1\n"));
	ck_assert(g_str_has_suffix(out, "# EOF\n"));
	free(out);
}
END_TEST

/* A recording that stopped early: why as a label, and when */
START_TEST(truncated)
{
	struct sa_report *rep = known();
	struct sa_emit e = { .fmt = SA_FMT_OPENMETRICS };
	char *out = NULL;
	size_t len = 0;

	rep->origin.truncated = g_strdup("SIGTERM before the \"workload\"");
	rep->origin.truncated_ns = 1500000000;
	rep->origin.truncated_at_known = true;
	e.out = open_memstream(&out, &len);
	ck_assert_int_eq(sa_emit_report(&e, rep), 0);
	fclose(e.out);
	sa_report_free(rep);
	ck_assert(strstr(out,
"# TYPE slabacct_trace_truncated gauge\n"
"slabacct_trace_truncated{why=\"SIGTERM before the \\\"workload\\\"\"} 1\n"
"# HELP slabacct_trace_truncated_at_seconds When the recording stopped "
"early, from its start.\n"
"# TYPE slabacct_trace_truncated_at_seconds gauge\n"
"# UNIT slabacct_trace_truncated_at_seconds seconds\n"
"slabacct_trace_truncated_at_seconds 1.500000000\n"));
	free(out);
}
END_TEST

/* What the view leaves out, per kind: with it, every byte is counted. */
START_TEST(rest)
{
	struct sa_report *rep = known();
	struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	struct sa_totals t[SA_KIND_NR];

	/* --top 2 is per kind: big and small shown of the three kmalloc
	 * sites, tiny left out; the one cache site shown */
	sa_callsite_rest(r, t);
	ck_assert_uint_eq(t[0].sites, 1);
	ck_assert_uint_eq(t[0].bytes_alloc, 32);
	ck_assert_uint_eq(t[0].live_alloc, 0);
	ck_assert_uint_eq(t[1].sites, 0);
	sa_callsite_view(r, NULL, 0, 0);
	sa_callsite_rest(r, t);
	ck_assert_uint_eq(t[0].sites + t[1].sites, 0);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, prometheus);
	tcase_add_test(tc, openmetrics);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, rest);
	suite_add_tcase(s, tc);
	return s;
}
