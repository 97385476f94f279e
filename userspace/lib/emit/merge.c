// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct merge output, in the report's formats: the runs and their
 * losses first, the spread of the runs' totals, then one row per call
 * site with its sum and spread over the runs. The HTML page embeds the
 * JSON model (emit/html.c) and its script draws it (html/merge.js).
 */
#include <string.h>

#include "emit/emit.h"
#include "report/merge.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

static const char *by_name(const struct sa_merge *m)
{
	return m->by == SA_DIFF_BY_FUNCTION ? "function" : "site";
}

static void merge_text(struct sa_emit *e, const struct sa_merge *m)
{
	const struct sa_spread *b = &m->total[SA_MERGE_BYTES];
	FILE *f = e->out;
	guint i;

	fprintf(f, "# slabacct merge: %u runs, by %s%s%s\n", m->runs->len,
		by_name(m), m->kernel ? ", kernel " : "",
		m->kernel ? sa_esc(m->kernel) : "");
	for (i = 0; i < m->runs->len; i++) {
		const struct sa_merge_run *r = m->runs->pdata[i];

		fprintf(f, "# run %u: %s (%s", i + 1, sa_esc(r->file),
			r->source);
		if (!m->kernel && r->kernel)
			fprintf(f, ", kernel %s", sa_esc(r->kernel));
		if (r->lost_known)
			fprintf(f, ", %" U " lost", r->lost);
		else if (strcmp(r->source, "account"))
			fprintf(f, ", lost unknown");
		if (r->truncated && r->truncated_at_known)
			fprintf(f, ", TRUNCATED at %.6f s (%s)",
				r->truncated_ns / 1e9, sa_esc(r->truncated));
		else if (r->truncated)
			fprintf(f, ", TRUNCATED (%s)", sa_esc(r->truncated));
		fprintf(f, "): %s alloc, %" U " sites\n",
			H(r->total[SA_MERGE_BYTES]), r->sites);
	}
	if (m->truncated)
		fprintf(f, "# TRUNCATED: %u of %u runs stopped early: their "
			"figures are incomplete\n", m->truncated,
			m->runs->len);
	if (m->lost_known)
		fprintf(f, "# lost events: %" U "%s\n", m->lost, m->lost ?
			" (some runs are incomplete)" : "");
	else
		fprintf(f, "# lost events: not known for every run\n");
	fprintf(f, "# bytes per run: min %s, median %s, max %s; sum %s\n",
		H(b->min), H(b->median), H(b->max), H(b->sum));
	b = &m->total[SA_MERGE_LIVE_BYTES];
	fprintf(f, "# live per run: min %s, median %s, max %s\n", H(b->min),
		H(b->median), H(b->max));
	if (m->cov_runs) {
		const struct sa_spread *r = &m->cov[SA_MERGE_COV_REST];

		fprintf(f, "# coverage (%u runs with slabinfo): rest per run "
			"min %s, median %s, max %s; slabinfo median %s, "
			"traced median %s\n", m->cov_runs, H(r->min),
			H(r->median), H(r->max),
			H(m->cov[SA_MERGE_COV_SLAB].median),
			H(m->cov[SA_MERGE_COV_TRACED].median));
	}
	fprintf(f, "# a run without a site counts 0 for it\n\n");
	fprintf(f, "%5s %7s %7s %7s %7s %-5s %s\n", "runs", "sum", "min",
		"median", "max", "kind", "site");
	for (i = 0; i < m->rows->len; i++) {
		const struct sa_merge_row *r =
			&g_array_index(m->rows, struct sa_merge_row, i);
		const struct sa_spread *s = &r->v[SA_MERGE_BYTES];

		fprintf(f, "%5u %7s %7s %7s %7s %-5s ", r->runs, H(s->sum),
			H(s->min), H(s->median), H(s->max),
			sa_diff_kind_short(r->kind));
		sa_text_tail_name(e, 44, r->site);
	}
	if (m->hidden)
		fprintf(f, "# %" U " sites left out (past --top)\n", m->hidden);
}

static void json_spread(JsonBuilder *b, const char *k,
			const struct sa_spread *s)
{
	json_builder_set_member_name(b, k);
	json_builder_begin_object(b);
	sa_json_put_uint(b, "sum", s->sum);
	sa_json_put_uint(b, "min", s->min);
	sa_json_put_uint(b, "median", s->median);
	sa_json_put_uint(b, "max", s->max);
	json_builder_end_object(b);
}

static int merge_json(struct sa_emit *e, const struct sa_merge *m)
{
	JsonBuilder *b = json_builder_new();
	guint i;
	int x;

	e->jb = b;
	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "tool", "slabacct merge");
	sa_json_put_str(b, "by", by_name(m));
	sa_json_put_str(b, "kernel_release", m->kernel);
	json_builder_set_member_name(b, "runs");
	json_builder_begin_array(b);
	for (i = 0; i < m->runs->len; i++) {
		const struct sa_merge_run *r = m->runs->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "file", r->file);
		sa_json_put_str(b, "source", r->source);
		sa_json_put_str(b, "kernel_release", r->kernel);
		sa_json_put_bool(b, "lost_known", r->lost_known);
		sa_json_put_uint(b, "lost_events", r->lost);
		if (r->truncated) {
			json_builder_set_member_name(b, "truncated");
			json_builder_begin_object(b);
			sa_json_put_str(b, "why", r->truncated);
			json_builder_set_member_name(b, "at_ns");
			if (r->truncated_at_known)
				sa_json_add_uint(b, r->truncated_ns);
			else
				json_builder_add_null_value(b);
			json_builder_end_object(b);
		}
		sa_json_put_uint(b, "sites", r->sites);
		json_builder_set_member_name(b, "totals");
		json_builder_begin_object(b);
		for (x = 0; x < SA_MERGE_NR; x++)
			sa_json_put_uint(b, sa_merge_measure_name(x), r->total[x]);
		json_builder_end_object(b);
		if (r->cov.known) {
			json_builder_set_member_name(b, "coverage");
			json_builder_begin_object(b);
			sa_json_put_uint(b, "traced_bytes", r->cov.traced_bytes);
			sa_json_put_uint(b, "slab_bytes", r->cov.slab_bytes);
			sa_json_put_int(b, "rest_bytes", r->cov.rest_bytes);
			json_builder_end_object(b);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "lost");
	json_builder_begin_object(b);
	sa_json_put_bool(b, "known", m->lost_known);
	sa_json_put_uint(b, "events", m->lost);
	if (m->truncated)
		sa_json_put_uint(b, "truncated_runs", m->truncated);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	for (x = 0; x < SA_MERGE_NR; x++)
		json_spread(b, sa_merge_measure_name(x), &m->total[x]);
	json_builder_end_object(b);
	if (m->cov_runs) {
		json_builder_set_member_name(b, "coverage");
		json_builder_begin_object(b);
		sa_json_put_uint(b, "runs", m->cov_runs);
		for (x = 0; x < SA_MERGE_COV_NR; x++)
			json_spread(b, sa_merge_cov_name(x), &m->cov[x]);
		json_builder_end_object(b);
	}
	sa_json_put_uint(b, "rows_hidden", m->hidden);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < m->rows->len; i++) {
		const struct sa_merge_row *r =
			&g_array_index(m->rows, struct sa_merge_row, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "site", r->site);
		sa_json_put_str(b, "kind", sa_diff_kind_name(r->kind));
		sa_json_put_int(b, "runs", r->runs);
		for (x = 0; x < SA_MERGE_NR; x++)
			json_spread(b, sa_merge_measure_name(x), &r->v[x]);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return e->fmt == SA_FMT_HTML ? sa_html_write(e) : sa_json_write(e);
}

static void csv_spread(FILE *f, const struct sa_spread *s)
{
	fprintf(f, ",%" U ",%" U ",%" U ",%" U, s->sum, s->min, s->median,
		s->max);
}

static void csv_spread_header(FILE *f)
{
	int x;

	for (x = 0; x < SA_MERGE_NR; x++) {
		const char *n = sa_merge_measure_name(x);

		fprintf(f, ",%s_sum,%s_min,%s_median,%s_max", n, n, n, n);
	}
	fputc('\n', f);
}

static void merge_csv(struct sa_emit *e, const struct sa_merge *m)
{
	FILE *f = e->out;
	guint i;
	int x;

	fprintf(f, "# slabacct merge, schema_version: %d\n# by: %s\n"
		"# runs: %u\n", SA_JSON_SCHEMA_VERSION, by_name(m),
		m->runs->len);
	fprintf(f, "# kernel_release: %s\n", m->kernel ? sa_esc(m->kernel) :
		"");
	if (m->lost_known)
		fprintf(f, "# lost_events: %" U "\n", m->lost);
	else
		fprintf(f, "# lost_events: unknown\n");
	fprintf(f, "# rows_hidden: %" U "\n", m->hidden);
	for (i = 0; i < m->runs->len; i++) {
		const struct sa_merge_run *r = m->runs->pdata[i];

		if (r->truncated)
			fprintf(f, "# run %u truncated: %s\n", i + 1,
				sa_esc(r->truncated));
		if (r->truncated && r->truncated_at_known)
			fprintf(f, "# run %u truncated_at_ns: %" U "\n", i + 1,
				r->truncated_ns);
	}
	fputs("run,index,file,source,kernel_release,lost_events,sites", f);
	for (x = 0; x < SA_MERGE_NR; x++)
		fprintf(f, ",%s", sa_merge_measure_name(x));
	fputc('\n', f);
	for (i = 0; i < m->runs->len; i++) {
		const struct sa_merge_run *r = m->runs->pdata[i];

		fprintf(f, "run,%u,", i + 1);
		sa_csv_str(f, r->file);
		fprintf(f, ",%s,", r->source);
		sa_csv_str(f, r->kernel ? r->kernel : "");
		if (r->lost_known)
			fprintf(f, ",%" U, r->lost);
		else
			fputs(",", f);
		fprintf(f, ",%" U, r->sites);
		for (x = 0; x < SA_MERGE_NR; x++)
			fprintf(f, ",%" U, r->total[x]);
		fputc('\n', f);
	}
	fputs("total,runs", f);
	csv_spread_header(f);
	fprintf(f, "total,%u", m->runs->len);
	for (x = 0; x < SA_MERGE_NR; x++)
		csv_spread(f, &m->total[x]);
	fputc('\n', f);
	fputs("merge,site,kind,runs", f);
	csv_spread_header(f);
	for (i = 0; i < m->rows->len; i++) {
		const struct sa_merge_row *r =
			&g_array_index(m->rows, struct sa_merge_row, i);

		fputs("merge,", f);
		sa_csv_str(f, r->site);
		fprintf(f, ",%s,%u", sa_diff_kind_name(r->kind), r->runs);
		for (x = 0; x < SA_MERGE_NR; x++)
			csv_spread(f, &r->v[x]);
		fputc('\n', f);
	}
	if (!m->cov_runs)
		return;
	/* the runs with coverage totals: their spread, a table of its own */
	fputs("coverage,runs", f);
	for (x = 0; x < SA_MERGE_COV_NR; x++) {
		const char *n = sa_merge_cov_name(x);

		fprintf(f, ",%s_sum,%s_min,%s_median,%s_max", n, n, n, n);
	}
	fprintf(f, "\ncoverage,%u", m->cov_runs);
	for (x = 0; x < SA_MERGE_COV_NR; x++)
		csv_spread(f, &m->cov[x]);
	fputc('\n', f);
}

int sa_emit_merge(struct sa_emit *e, const struct sa_merge *m)
{
	if (e->fmt == SA_FMT_OPENMETRICS || e->fmt == SA_FMT_PROMETHEUS)
		return sa_openmetrics_emit_merge(e, m);
	if (e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML) {
		if (merge_json(e, m))
			return -1;
	} else if (e->fmt == SA_FMT_CSV) {
		merge_csv(e, m);
	} else {
		struct sa_text_buf tb;

		if (sa_text_begin(e, &tb))
			return -1;
		merge_text(e, m);
		if (sa_text_end(e, &tb))
			return -1;
	}
	return fflush(e->out) || ferror(e->out) ? -1 : 0;
}
