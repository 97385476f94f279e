/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the report unit tests: build sa_rec records by hand and run
 * them through the pipeline (no trace file; symbols, if any, from a
 * kallsyms text).
 */
#ifndef SLABACCT_TEST_REPORT_FIXTURE_H
#define SLABACCT_TEST_REPORT_FIXTURE_H

#include <string.h>

#include <check.h>
#include <event-parse.h>

#include "report/pipeline.h"
#include "report/report.h"
#include "symbols/symbols.h"

#define ALL_FIELDS	0x3f

static inline struct sa_rec fx_alloc(enum sa_ev ev, guint64 ts, int cpu,
				     guint64 site, guint64 ptr, guint32 req,
				     guint32 alloc)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.cpu = cpu;
	r.pid = 100 + cpu;
	r.ev = ev;
	r.v[SA_KM_CALL_SITE] = site;
	r.v[SA_KM_PTR] = ptr;
	r.v[SA_KM_REQ] = req;
	r.v[SA_KM_ALLOC] = alloc;
	r.v[SA_KM_GFP] = 0xcc0;
	r.have = ALL_FIELDS & ~(1u << SA_KM_NAME);
	return r;
}

static inline struct sa_rec fx_free(enum sa_ev ev, guint64 ts, int cpu,
				    guint64 ptr)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.cpu = cpu;
	r.ev = ev;
	r.v[SA_KM_CALL_SITE] = 0xdead;
	r.v[SA_KM_PTR] = ptr;
	r.have = (1u << SA_KM_CALL_SITE) | (1u << SA_KM_PTR);
	return r;
}

/* Run recs through the sections of mask; the report's last_ts is end. */
static inline struct sa_report *fx_run(struct sa_rec *recs, int n,
				       guint32 mask,
				       const struct sa_report_opts *opts,
				       guint64 end)
{
	struct sa_report *rep = sa_report_new("synthetic", mask, opts);
	struct sa_pipeline p;
	int i;

	sa_pipeline_init(&p, rep);
	for (i = 0; i < n; i++) {
		if (!rep->first_ts)
			rep->first_ts = recs[i].ts;
		sa_pipeline_feed(&p, &recs[i]);
	}
	rep->last_ts = end;
	sa_pipeline_finish(&p);
	return rep;
}

/*
 * Run recs through rep, made and set up by the caller, with the symbols
 * of ksyms (a /proc/kallsyms text) for its call sites and stacks; the
 * report's last_ts is end.
 */
static inline void fx_run_symbols(struct sa_report *rep, const char *ksyms,
				  struct sa_rec *recs, int n, guint64 end)
{
	struct tep_handle *tep = tep_alloc();
	struct sa_pipeline p;
	GError *err = NULL;
	int i;

	ck_assert_int_eq(tep_parse_kallsyms(tep, ksyms), 0);
	rep->syms = sa_symbols_new(tep, NULL, NULL, &err);
	ck_assert_ptr_nonnull(rep->syms);
	sa_pipeline_init(&p, rep);
	for (i = 0; i < n; i++)
		sa_pipeline_feed(&p, &recs[i]);
	rep->last_ts = end;
	sa_pipeline_finish(&p);
	sa_symbols_free(rep->syms);
	rep->syms = NULL;
	tep_free(tep);
}

#define SECTION(name) (1u << sa_section_index(name))
#define RESULT(rep, name) ((rep)->result[sa_section_index(name)])

#endif /* SLABACCT_TEST_REPORT_FIXTURE_H */
