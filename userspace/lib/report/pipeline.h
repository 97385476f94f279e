/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the report pipeline (report/report.c), shared with the
 * unit tests and the fuzz targets: the dispatcher that feeds the
 * aggregators.
 */
#ifndef SLABACCT_REPORT_PIPELINE_H
#define SLABACCT_REPORT_PIPELINE_H

#include "trace/decode.h"
#include "report/report.h"

struct sa_disp {
	const struct sa_agg *agg;
	void *state;
};

struct sa_pipeline {
	struct sa_report *rep;
	void *state[SA_MAX_SECTIONS];
	struct sa_disp disp[SA_EV_NR][SA_MAX_SECTIONS];
	int nr_disp[SA_EV_NR];
};

/* A report with no results yet, for sections (a mask of table rows). */
struct sa_report *sa_report_new(const char *path, guint32 sections,
				const struct sa_report_opts *opts);

/*
 * Create the aggregators of rep->sections (and the callsite one, which
 * feeds the others), feed them records in timestamp order, and finish:
 * rep->result[] is then filled and the aggregators are gone.
 */
void sa_pipeline_init(struct sa_pipeline *p, struct sa_report *rep);
void sa_pipeline_feed(struct sa_pipeline *p, struct sa_rec *r);
void sa_pipeline_finish(struct sa_pipeline *p);
/* Destroy the aggregators without finishing. */
void sa_pipeline_abort(struct sa_pipeline *p);

#endif /* SLABACCT_REPORT_PIPELINE_H */
