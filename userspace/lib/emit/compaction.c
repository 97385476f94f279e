// SPDX-License-Identifier: GPL-2.0
/*
 * The compaction section (report/agg/compaction.c) in text, JSON and
 * CSV.
 *
 * text: under 80 columns (names cut to the width), times in ms, byte
 * counts scaled (K = 1024). json: one object under "sections", exact
 * numbers, times in ns, percentages with two decimals. csv: the tables
 * compaction_summary, compaction_outcome and compaction_defer, each with
 * a header row and its name as first column.
 */
#include "report/agg/compaction.h"
#include "report/agg/pages.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define D G_GINT64_FORMAT
#define MS(ns) ((double)(ns) / 1e6)

/* ---- text ---- */

void sa_text_compaction(struct sa_emit *e, const struct sa_report *rep,
			const void *result)
{
	const struct sa_compaction_result *r = result;
	FILE *f = e->out;
	guint i;
	int o;

	fprintf(f, "\n== compaction ==\n");
	fprintf(f, "# runs: %" U " (async %" U ", sync %" U "), total %.3f "
		"ms, max %.3f ms", r->runs, r->mode[0].runs, r->mode[1].runs,
		MS(r->sum_ns), MS(r->max_ns));
	if (r->unfinished)
		fprintf(f, ", %" U " unfinished", r->unfinished);
	fprintf(f, "\n# migrated: %" U " pages, failed: %" U " (%.1f%% "
		"success) in %" U " batches\n", r->migrated, r->failed,
		r->success, r->migrate_calls);
	fprintf(f, "# deferrals: %" U " defer_compaction, %" U
		" deferred, %" U " defer_reset\n", r->defer_total,
		r->deferred_total, r->defer_reset_total);
	if (r->runs) {
		fprintf(f, "\n%-6s %6s %10s %10s\n", "mode", "runs",
			"total_ms", "max_ms");
		for (o = 0; o < 2; o++)
			fprintf(f, "%-6s %6" U " %10.3f %10.3f\n",
				o ? "sync" : "async", r->mode[o].runs,
				MS(r->mode[o].sum_ns), MS(r->mode[o].max_ns));
	}
	if (r->outcomes->len) {
		fprintf(f, "\nOutcomes:\n%6s %s\n", "runs", "status");
		for (i = 0; i < r->outcomes->len; i++) {
			const struct sa_cp_outcome *c = r->outcomes->pdata[i];

			fprintf(f, "%6" U " ", c->runs);
			sa_text_tail_name(e, 7, c->name);
		}
	}
	if (r->defer_total + r->deferred_total + r->defer_reset_total) {
		fprintf(f, "\nDeferrals by order:\n%-5s %8s %8s %8s\n",
			"order", "defer", "deferred", "reset");
		for (o = 0; o < SA_CP_ORDERS; o++)
			if (r->defer[o] + r->deferred[o] + r->defer_reset[o])
				fprintf(f, "%-5s %8" U " %8" U " %8" U "\n",
					sa_order_label(o), r->defer[o],
					r->deferred[o], r->defer_reset[o]);
	}
}

/* ---- json ---- */

void sa_json_compaction(struct sa_emit *e, const struct sa_report *rep,
			const void *result)
{
	const struct sa_compaction_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int o;

	sa_json_begin_member(b, "compaction", false);
	sa_json_put_uint(b, "runs", r->runs);
	sa_json_put_uint(b, "sum_ns", r->sum_ns);
	sa_json_put_uint(b, "max_ns", r->max_ns);
	sa_json_put_uint(b, "unfinished", r->unfinished);
	for (o = 0; o < 2; o++) {
		sa_json_begin_member(b, o ? "sync" : "async", false);
		sa_json_put_uint(b, "runs", r->mode[o].runs);
		sa_json_put_uint(b, "sum_ns", r->mode[o].sum_ns);
		sa_json_put_uint(b, "max_ns", r->mode[o].max_ns);
		json_builder_end_object(b);
	}
	sa_json_begin_member(b, "outcomes", true);
	for (i = 0; i < r->outcomes->len; i++) {
		const struct sa_cp_outcome *c = r->outcomes->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "status", c->name);
		sa_json_put_int(b, "value", c->status);
		sa_json_put_uint(b, "runs", c->runs);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_put_uint(b, "migrate_batches", r->migrate_calls);
	sa_json_put_uint(b, "migrated", r->migrated);
	sa_json_put_uint(b, "failed", r->failed);
	sa_json_put_pct(b, "success_pct", r->success);
	sa_json_put_uint(b, "defer_compaction", r->defer_total);
	sa_json_put_uint(b, "deferred", r->deferred_total);
	sa_json_put_uint(b, "defer_reset", r->defer_reset_total);
	sa_json_begin_member(b, "deferrals_by_order", true);
	for (o = 0; o < SA_CP_ORDERS; o++) {
		if (!(r->defer[o] + r->deferred[o] + r->defer_reset[o]))
			continue;
		json_builder_begin_object(b);
		sa_json_put_str(b, "order", sa_order_label(o));
		sa_json_put_uint(b, "defer_compaction", r->defer[o]);
		sa_json_put_uint(b, "deferred", r->deferred[o]);
		sa_json_put_uint(b, "defer_reset", r->defer_reset[o]);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* ---- csv ---- */

void sa_csv_compaction(struct sa_emit *e, const struct sa_report *rep,
		       const void *result)
{
	const struct sa_compaction_result *r = result;
	FILE *f = e->out;
	guint i;
	int o;

	fprintf(f, "\ncompaction_summary,mode,runs,sum_ns,max_ns,unfinished,"
		"migrate_batches,migrated,failed,success_pct,"
		"defer_compaction,deferred,defer_reset\n");
	fprintf(f, "compaction_summary,all,%" U ",%" U ",%" U ",%" U ",%" U
		",%" U ",%" U ",%.2f,%" U ",%" U ",%" U "\n", r->runs,
		r->sum_ns, r->max_ns, r->unfinished, r->migrate_calls,
		r->migrated, r->failed, r->success, r->defer_total,
		r->deferred_total, r->defer_reset_total);
	for (o = 0; o < 2; o++)
		fprintf(f, "compaction_summary,%s,%" U ",%" U ",%" U
			",,,,,,,,\n", o ? "sync" : "async", r->mode[o].runs,
			r->mode[o].sum_ns, r->mode[o].max_ns);
	fprintf(f, "\ncompaction_outcome,status,value,runs\n");
	for (i = 0; i < r->outcomes->len; i++) {
		const struct sa_cp_outcome *c = r->outcomes->pdata[i];

		fputs("compaction_outcome,", f);
		sa_csv_str(f, c->name);
		fprintf(f, ",%" D ",%" U "\n", c->status, c->runs);
	}
	fprintf(f, "\ncompaction_defer,order,defer_compaction,deferred,"
		"defer_reset\n");
	for (o = 0; o < SA_CP_ORDERS; o++)
		if (r->defer[o] + r->deferred[o] + r->defer_reset[o])
			fprintf(f, "compaction_defer,%s,%" U ",%" U ",%" U
				"\n", sa_order_label(o), r->defer[o],
				r->deferred[o], r->defer_reset[o]);
}
