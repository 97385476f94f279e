/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the report pipeline (report-read.c), shared with the unit
 * tests and the fuzz targets: the per-trace decoder built from the
 * dispatch table, and the dispatcher that feeds the aggregators.
 */
#ifndef SLABACCT_REPORT_PIPELINE_H
#define SLABACCT_REPORT_PIPELINE_H

#include <event-parse.h>

#include "report.h"

struct decoder;

struct sa_decode {
	struct decoder **by_id;		/* [max_id + 1], by tep event id */
	int max_id;
	/* common_type and common_pid, read inline when plain (size 0: not) */
	int type_off, type_size, pid_off, pid_size;
};

/*
 * Build the decoder of a trace's tep handle from sa_dispatch_table. With rep,
 * the events present and the fields missing are noted in it.
 */
struct sa_decode *sa_decode_new(struct tep_handle *tep,
				struct sa_report *rep);
void sa_decode_free(struct sa_decode *d);

/* Decode one record. Returns 0, or -1 if the table does not know it. */
int sa_decode_record(const struct sa_decode *d, struct tep_handle *tep,
		     struct tep_record *rec, struct sa_rec *out);

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
