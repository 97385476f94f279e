// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct diff output, in the report's three formats: both inputs'
 * origins and losses first, then the totals, then one row per call site
 * that changed, by absolute change.
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "emit/emit.h"
#include "emit/emit-budget.h"
#include "emit/emit-stacks.h"
#include "report/diff.h"
#include "emit/snapshot-origin.h"

#define I G_GINT64_FORMAT
#define U G_GUINT64_FORMAT

static const char *status_name(enum sa_diff_status s)
{
	static const char *const n[] = { "same", "changed", "new", "gone" };

	return n[s];
}

/* "+1.2M", "-512", "0" */
static char *signed_h(char buf[20], struct sa_delta d)
{
	char h[16];

	if (!d.mag)
		return g_strlcpy(buf, "0", 20), buf;
	snprintf(buf, 20, "%c%s", d.neg ? '-' : '+', sa_human(h, d.mag));
	return buf;
}

/* Exact, for CSV: "-18446744073709551615" */
static void csv_delta(FILE *f, struct sa_delta d)
{
	fprintf(f, ",%s%" U, d.neg ? "-" : "", d.mag);
}

#define SH(v) signed_h((char[20]){ 0 }, (v))
#define H(v) sa_human((char[16]){ 0 }, (v))

/* A side's vmalloc and percpu totals, where either side traced them. */
static void text_side_areas(FILE *f, const struct sa_diff *d,
			    const struct sa_diff_side *s)
{
	int i;

	for (i = 0; i < SA_DIFF_AREA_NR; i++) {
		const struct sa_diff_vals *t = &s->area[i].total;
		const char *name = sa_diff_area_name(i);

		if (!d->area[i].shown)
			continue;
		if (!s->area[i].traced) {
			fprintf(f, "#    %s: not traced (record -e %s)\n", name,
				name);
			continue;
		}
		fprintf(f, "#    %s: %s alloc, %" U " allocs, %" U " frees, "
			"%s live\n", name, H(t->bytes_alloc), t->allocs,
			t->frees, H(t->live_bytes < 0 ? 0 : t->live_bytes));
	}
}

static void text_side(FILE *f, const char *tag, const struct sa_diff *d,
		      const struct sa_diff_side *s)
{
	fprintf(f, "# %s: %s (%s%s%s)\n", tag, sa_esc(s->file), s->source,
		s->kernel ? ", kernel " : "",
		s->kernel ? sa_esc(s->kernel) : "");
	if (s->runs)
		fprintf(f, "#    the median of %u runs, site by site\n",
			s->runs);
	if (s->allocinfo) {
		sa_text_allocinfo_head(f, "#    ", s->allocinfo);
		fprintf(f, "#    live %s in %" I " allocations\n",
			H(s->total.live_bytes < 0 ? 0 : s->total.live_bytes),
			s->total.live);
		return;
	}
	if (s->account)
		sa_text_account_head(f, "#    ", s->account);
	else if (s->lost_known)
		fprintf(f, "#    lost events: %" U "%s\n", s->lost, s->lost ?
			" (incomplete: compare with care)" : "");
	else
		fprintf(f, "#    lost events: unknown\n");
	if (s->truncated && s->truncated_at_known)
		fprintf(f, "#    TRUNCATED at %.6f s (%s): its figures are "
			"incomplete\n", s->truncated_ns / 1e9,
			sa_esc(s->truncated));
	else if (s->truncated)
		fprintf(f, "#    TRUNCATED (%s): its figures are incomplete\n",
			sa_esc(s->truncated));
	fprintf(f, "#    %s alloc, %s slack, %" U " allocs, %s live\n",
		H(s->total.bytes_alloc), H(s->total.slack), s->total.allocs,
		H(s->total.live_bytes < 0 ? 0 : s->total.live_bytes));
	text_side_areas(f, d, s);
	if (s->cov.known)
		fprintf(f, "#    coverage: traced %s of %s in slabinfo, rest "
			"%s%s\n", H(s->cov.traced_bytes), H(s->cov.slab_bytes),
			s->cov.rest_bytes < 0 ? "-" : "",
			H(s->cov.rest_bytes < 0 ? -(guint64)s->cov.rest_bytes :
			  (guint64)s->cov.rest_bytes));
}

/* "site" cut to what is left of the width after used columns */
static void text_site(struct sa_emit *e, int used, const char *site)
{
	int room = e->width ? e->width - used : 0;

	site = sa_esc(site);
	if (room >= 8 && (int)strlen(site) > room)
		fprintf(e->out, "%.*s~\n", room - 1, site);
	else
		fprintf(e->out, "%s\n", site);
}

/* Two /proc/allocinfo snapshots: live bytes and allocations only. */
static void diff_text_allocinfo(struct sa_emit *e, const struct sa_diff *d)
{
	FILE *f = e->out;
	guint i;

	fprintf(f, "# B - A: %s live bytes, %s live allocations\n",
		SH(d->d_live_bytes), SH(d->d_live));
	fprintf(f, "# sites: %" U " new, %" U " gone, %" U " changed, %" U
		" unchanged\n\n", d->n_new, d->n_gone, d->n_changed,
		d->n_same);
	fprintf(f, "%8s %8s %7s %7s %-7s %s\n", "d_live_b", "d_calls",
		"a_live", "b_live", "status", "site");
	for (i = 0; i < d->rows->len; i++) {
		const struct sa_diff_row *r = &g_array_index(d->rows,
							     struct sa_diff_row,
							     i);

		fprintf(f, "%8s %8s %7s %7s %-7s ", SH(r->d_live_bytes),
			SH(r->d_live), H(r->a.live_bytes < 0 ? 0 :
					 r->a.live_bytes),
			H(r->b.live_bytes < 0 ? 0 : r->b.live_bytes),
			status_name(r->status));
		text_site(e, 42, r->site);
	}
	if (d->hidden)
		fprintf(f, "# %" U " rows left out (unchanged or past --top)\n",
			d->hidden);
}

static void diff_text(struct sa_emit *e, const struct sa_diff *d)
{
	FILE *f = e->out;
	guint i;

	fprintf(f, "# slabacct diff\n");
	text_side(f, "A", d, &d->side[0]);
	text_side(f, "B", d, &d->side[1]);
	if (d->allocinfo) {
		diff_text_allocinfo(e, d);
		return;
	}
	fprintf(f, "# B - A: %s bytes, %s slack, %s allocs, %s live bytes\n",
		SH(d->d_bytes), SH(d->d_slack), SH(d->d_allocs),
		SH(d->d_live_bytes));
	for (i = 0; i < SA_DIFF_AREA_NR; i++)
		if (d->area[i].shown)
			fprintf(f, "# B - A, %s: %s bytes, %s allocs, %s live "
				"bytes\n", sa_diff_area_name(i),
				SH(d->area[i].d_bytes), SH(d->area[i].d_allocs),
				SH(d->area[i].d_live_bytes));
	if (d->cov.shown)
		fprintf(f, "# B - A, coverage: %s traced, %s slabinfo, %s rest "
			"(bytes)\n", SH(d->cov.d_traced), SH(d->cov.d_slab),
			SH(d->cov.d_rest));
	fprintf(f, "# sites: %" U " new, %" U " gone, %" U " changed, %" U
		" unchanged\n\n", d->n_new, d->n_gone, d->n_changed,
		d->n_same);
	fprintf(f, "%8s %8s %7s %7s %-7s %-5s %s\n", "d_bytes", "d_slack",
		"d_alloc", "d_live", "status", "kind", "site");
	for (i = 0; i < d->rows->len; i++) {
		const struct sa_diff_row *r = &g_array_index(d->rows,
							     struct sa_diff_row,
							     i);
		int room = e->width ? e->width - 50 : 0;

		fprintf(f, "%8s %8s %7s %7s %-7s %-5s ", SH(r->d_bytes),
			SH(r->d_slack), SH(r->d_allocs), SH(r->d_live_bytes),
			status_name(r->status), sa_diff_kind_short(r->kind));
		const char *site = sa_esc(r->site);

		if (room >= 8 && (int)strlen(site) > room)
			fprintf(f, "%.*s~\n", room - 1, site);
		else
			fprintf(f, "%s\n", site);
	}
	if (d->hidden)
		fprintf(f, "# %" U " rows left out (unchanged or past --top)\n",
			d->hidden);
	sa_snapshot_origin_diff_text(f, d->side[0].snapshot,
				     d->side[1].snapshot);
	sa_budget_diff_text(f, d->side[0].snapshot, d->side[1].snapshot);
}

static void jvals(JsonBuilder *b, const char *name,
		  const struct sa_diff_vals *v)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	sa_json_put_uint(b, "allocs", v->allocs);
	sa_json_put_uint(b, "frees", v->frees);
	sa_json_put_uint(b, "bytes_alloc", v->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", v->bytes_req);
	sa_json_put_uint(b, "slack", v->slack);
	sa_json_put_int(b, "live", v->live);
	sa_json_put_int(b, "live_bytes", v->live_bytes);
	json_builder_end_object(b);
}

/* allocinfo's values: live ones only */
static void jlive(JsonBuilder *b, const char *name,
		  const struct sa_diff_vals *v)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	sa_json_put_int(b, "live", v->live);
	sa_json_put_int(b, "live_bytes", v->live_bytes);
	json_builder_end_object(b);
}

/* an area's totals: no bytes_req or slack */
static void jarea(JsonBuilder *b, const struct sa_diff *d,
		  const struct sa_diff_side *s)
{
	int i;

	for (i = 0; i < SA_DIFF_AREA_NR; i++) {
		const struct sa_diff_vals *v = &s->area[i].total;

		if (!d->area[i].shown)
			continue;
		json_builder_set_member_name(b, sa_diff_area_name(i));
		json_builder_begin_object(b);
		sa_json_put_bool(b, "traced", s->area[i].traced);
		json_builder_set_member_name(b, "totals");
		json_builder_begin_object(b);
		sa_json_put_uint(b, "allocs", v->allocs);
		sa_json_put_uint(b, "frees", v->frees);
		sa_json_put_uint(b, "bytes_alloc", v->bytes_alloc);
		sa_json_put_int(b, "live", v->live);
		sa_json_put_int(b, "live_bytes", v->live_bytes);
		json_builder_end_object(b);
		json_builder_end_object(b);
	}
}

/* only when the recording (or a merged run) stopped early */
static void jtruncated(JsonBuilder *b, const struct sa_diff_side *s)
{
	if (!s->truncated)
		return;
	json_builder_set_member_name(b, "truncated");
	json_builder_begin_object(b);
	sa_json_put_str(b, "why", s->truncated);
	json_builder_set_member_name(b, "at_ns");
	if (s->truncated_at_known)
		sa_json_add_uint(b, s->truncated_ns);
	else
		json_builder_add_null_value(b);
	json_builder_end_object(b);
}

/* a trace's coverage totals, if it has them */
static void jcov(JsonBuilder *b, const struct sa_diff_side *s)
{
	if (!s->cov.known)
		return;
	json_builder_set_member_name(b, "coverage");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "traced_bytes", s->cov.traced_bytes);
	sa_json_put_uint(b, "slab_bytes", s->cov.slab_bytes);
	sa_json_put_int(b, "rest_bytes", s->cov.rest_bytes);
	sa_json_put_uint(b, "traced_objs", s->cov.traced_objs);
	sa_json_put_uint(b, "slab_objs", s->cov.slab_objs);
	sa_json_put_int(b, "rest_objs", s->cov.rest_objs);
	json_builder_end_object(b);
}

static void jside(JsonBuilder *b, const char *name, const struct sa_diff *d,
		  const struct sa_diff_side *s)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "file");
	json_builder_add_string_value(b, s->file);
	json_builder_set_member_name(b, "source");
	json_builder_add_string_value(b, s->source);
	if (s->runs)
		sa_json_put_int(b, "runs", s->runs);
	if (s->allocinfo) {
		sa_json_allocinfo_head(b, s->allocinfo);
		jlive(b, "totals", &s->total);
		json_builder_end_object(b);
		return;
	}
	if (s->account) {
		/* a snapshot: no kernel release or lost events, its header */
		sa_json_account_head(b, s->account);
		jtruncated(b, s);
		jvals(b, "totals", &s->total);
		jarea(b, d, s);
		json_builder_end_object(b);
		return;
	}
	json_builder_set_member_name(b, "kernel_release");
	if (s->kernel)
		json_builder_add_string_value(b, s->kernel);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "lost_known");
	json_builder_add_boolean_value(b, s->lost_known);
	sa_json_put_uint(b, "lost_events", s->lost);
	jtruncated(b, s);
	jvals(b, "totals", &s->total);
	jarea(b, d, s);
	jcov(b, s);
	json_builder_end_object(b);
}

static void diff_json(struct sa_emit *e, const struct sa_diff *d)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *budget;
	guint i;

	e->jb = b;
	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	json_builder_set_member_name(b, "tool");
	json_builder_add_string_value(b, "slabacct diff");
	jside(b, "a", d, &d->side[0]);
	jside(b, "b", d, &d->side[1]);
	if (d->side[0].snapshot || d->side[1].snapshot) {
		json_builder_set_member_name(b, "system");
		json_builder_add_value(b, sa_snapshot_origin_diff_json(
				d->side[0].snapshot, d->side[1].snapshot));
		budget = sa_budget_diff_json(d->side[0].snapshot,
					     d->side[1].snapshot);
		if (budget) {
			json_builder_set_member_name(b, "budget");
			json_builder_add_value(b, budget);
		}
	}
	json_builder_set_member_name(b, "change");
	json_builder_begin_object(b);
	if (!d->allocinfo) {
		sa_json_put_int(b, "bytes_alloc", sa_delta_clamp(d->d_bytes));
		sa_json_put_int(b, "slack", sa_delta_clamp(d->d_slack));
		sa_json_put_int(b, "allocs", sa_delta_clamp(d->d_allocs));
	} else {
		sa_json_put_int(b, "live", sa_delta_clamp(d->d_live));
	}
	sa_json_put_int(b, "live_bytes", sa_delta_clamp(d->d_live_bytes));
	sa_json_put_uint(b, "sites_new", d->n_new);
	sa_json_put_uint(b, "sites_gone", d->n_gone);
	sa_json_put_uint(b, "sites_changed", d->n_changed);
	sa_json_put_uint(b, "sites_unchanged", d->n_same);
	for (i = 0; i < SA_DIFF_AREA_NR; i++) {
		if (!d->area[i].shown)
			continue;
		json_builder_set_member_name(b, sa_diff_area_name(i));
		json_builder_begin_object(b);
		sa_json_put_int(b, "bytes_alloc",
				sa_delta_clamp(d->area[i].d_bytes));
		sa_json_put_int(b, "allocs", sa_delta_clamp(d->area[i].d_allocs));
		sa_json_put_int(b, "frees", sa_delta_clamp(d->area[i].d_frees));
		sa_json_put_int(b, "live", sa_delta_clamp(d->area[i].d_live));
		sa_json_put_int(b, "live_bytes",
				sa_delta_clamp(d->area[i].d_live_bytes));
		json_builder_end_object(b);
	}
	if (d->cov.shown) {
		json_builder_set_member_name(b, "coverage");
		json_builder_begin_object(b);
		sa_json_put_int(b, "traced_bytes",
				sa_delta_clamp(d->cov.d_traced));
		sa_json_put_int(b, "slab_bytes", sa_delta_clamp(d->cov.d_slab));
		sa_json_put_int(b, "rest_bytes", sa_delta_clamp(d->cov.d_rest));
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	sa_json_put_uint(b, "rows_hidden", d->hidden);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < d->rows->len; i++) {
		const struct sa_diff_row *r = &g_array_index(d->rows,
							     struct sa_diff_row,
							     i);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "site");
		json_builder_add_string_value(b, r->site);
		json_builder_set_member_name(b, "kind");
		json_builder_add_string_value(b, sa_diff_kind_name(r->kind));
		json_builder_set_member_name(b, "status");
		json_builder_add_string_value(b, status_name(r->status));
		if (d->allocinfo) {
			sa_json_put_int(b, "d_live_bytes",
					sa_delta_clamp(r->d_live_bytes));
			sa_json_put_int(b, "d_live", sa_delta_clamp(r->d_live));
			jlive(b, "a", &r->a);
			jlive(b, "b", &r->b);
			json_builder_end_object(b);
			continue;
		}
		sa_json_put_int(b, "d_bytes", sa_delta_clamp(r->d_bytes));
		sa_json_put_int(b, "d_slack", sa_delta_clamp(r->d_slack));
		sa_json_put_int(b, "d_allocs", sa_delta_clamp(r->d_allocs));
		sa_json_put_int(b, "d_live_bytes",
				sa_delta_clamp(r->d_live_bytes));
		jvals(b, "a", &r->a);
		jvals(b, "b", &r->b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	if (d->stacks)
		sa_json_diff_stacks(b, d->stacks);
	json_builder_end_object(b);
	if (e->fmt == SA_FMT_HTML)
		sa_html_write(e);
	else
		sa_json_write(e);
}

static void csv_vals(FILE *f, const struct sa_diff_vals *v)
{
	fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%" I ",%" I,
		v->allocs, v->frees, v->bytes_alloc, v->bytes_req, v->slack,
		v->live, v->live_bytes);
}

/*
 * The totals, a table of their own after the rows: the slab's (kind
 * slab; allocinfo's: any, live columns only), then vmalloc's and
 * percpu's where either side traced them. a_traced and b_traced say
 * whether each input has those at all (empty for the slab's).
 */
static void csv_total(FILE *f, const struct sa_diff *d, const char *kind,
		      const bool *traced, const struct sa_diff_vals *a,
		      const struct sa_diff_vals *b)
{
	fprintf(f, "total,%s,", kind);
	if (traced)
		fprintf(f, "%d,%d", traced[0], traced[1]);
	else
		fputc(',', f);
	if (d->allocinfo) {
		fputs(",,,", f);
		csv_delta(f, sa_delta_s64(a->live_bytes, b->live_bytes));
		fprintf(f, ",,,,,,%" I ",%" I ",,,,,,%" I ",%" I "\n",
			a->live, a->live_bytes, b->live, b->live_bytes);
		return;
	}
	csv_delta(f, sa_delta_u64(a->bytes_alloc, b->bytes_alloc));
	csv_delta(f, sa_delta_u64(a->slack, b->slack));
	csv_delta(f, sa_delta_u64(a->allocs, b->allocs));
	csv_delta(f, sa_delta_s64(a->live_bytes, b->live_bytes));
	csv_vals(f, a);
	csv_vals(f, b);
	fputc('\n', f);
}

static void csv_totals(FILE *f, const struct sa_diff *d)
{
	const struct sa_diff_side *A = &d->side[0], *B = &d->side[1];
	int i;

	fprintf(f, "\ntotal,kind,a_traced,b_traced,d_bytes,d_slack,d_allocs,"
		"d_live_bytes,a_allocs,a_frees,a_bytes_alloc,a_bytes_req,"
		"a_slack,a_live,a_live_bytes,b_allocs,b_frees,b_bytes_alloc,"
		"b_bytes_req,b_slack,b_live,b_live_bytes\n");
	csv_total(f, d, d->allocinfo ? "any" : "slab", NULL, &A->total,
		  &B->total);
	for (i = 0; i < SA_DIFF_AREA_NR; i++) {
		const bool traced[2] = { A->area[i].traced, B->area[i].traced };

		if (d->area[i].shown)
			csv_total(f, d, sa_diff_area_name(i), traced,
				  &A->area[i].total, &B->area[i].total);
	}
}

/* The coverage totals, a table of their own, where either side has them */
static void csv_coverage(FILE *f, const struct sa_diff *d)
{
	int k;

	if (!d->side[0].cov.known && !d->side[1].cov.known)
		return;
	fprintf(f, "\ncoverage,side,traced_bytes,slab_bytes,rest_bytes,"
		"traced_objs,slab_objs,rest_objs\n");
	for (k = 0; k < 2; k++) {
		const struct sa_diff_coverage *c = &d->side[k].cov;

		if (c->known)
			fprintf(f, "coverage,%c,%" U ",%" U ",%" I ",%" U ",%"
				U ",%" I "\n", 'a' + k, c->traced_bytes,
				c->slab_bytes, c->rest_bytes, c->traced_objs,
				c->slab_objs, c->rest_objs);
	}
	if (!d->cov.shown)
		return;
	fputs("coverage,b-a", f);
	csv_delta(f, d->cov.d_traced);
	csv_delta(f, d->cov.d_slab);
	csv_delta(f, d->cov.d_rest);
	fputs(",,,\n", f);
}

static void diff_csv(struct sa_emit *e, const struct sa_diff *d)
{
	FILE *f = e->out;
	guint i;
	int k;

	fprintf(f, "# slabacct diff, schema_version: %d\n",
		SA_JSON_SCHEMA_VERSION);
	for (k = 0; k < 2; k++) {
		const struct sa_diff_side *s = &d->side[k];

		char prefix[3] = { 'a' + k, '_', 0 };

		fprintf(f, "# %c: %s (%s%s%s)\n", 'a' + k, sa_esc(s->file),
			s->source, s->kernel ? ", " : "",
			s->kernel ? sa_esc(s->kernel) : "");
		if (s->truncated)
			fprintf(f, "# %c_truncated: %s\n", 'a' + k,
				sa_esc(s->truncated));
		if (s->truncated && s->truncated_at_known)
			fprintf(f, "# %c_truncated_at_ns: %" U "\n", 'a' + k,
				s->truncated_ns);
		if (s->account) {
			sa_csv_account_head(f, prefix, s->account);
			continue;
		}
		if (s->allocinfo) {
			sa_csv_allocinfo_head(f, prefix, s->allocinfo);
			continue;
		}
		fprintf(f, "# %c_lost_events: ", 'a' + k);
		if (s->lost_known)
			fprintf(f, "%" U "\n", s->lost);
		else
			fprintf(f, "unknown\n");
	}
	sa_snapshot_origin_diff_csv(f, d->side[0].snapshot,
				    d->side[1].snapshot);
	fprintf(f, "diff,site,kind,status,d_bytes,d_slack,d_allocs,"
		"d_live_bytes,a_allocs,a_frees,a_bytes_alloc,a_bytes_req,"
		"a_slack,a_live,a_live_bytes,b_allocs,b_frees,b_bytes_alloc,"
		"b_bytes_req,b_slack,b_live,b_live_bytes\n");
	for (i = 0; i < d->rows->len; i++) {
		const struct sa_diff_row *r = &g_array_index(d->rows,
							     struct sa_diff_row,
							     i);

		fputs("diff,", f);
		sa_csv_str(f, r->site);
		fprintf(f, ",%s,%s", sa_diff_kind_name(r->kind),
			status_name(r->status));
		if (d->allocinfo) {
			/* the same columns, what allocinfo lacks empty */
			fputs(",,,", f);
			csv_delta(f, r->d_live_bytes);
			fprintf(f, ",,,,,,%" I ",%" I ",,,,,,%" I ",%" I "\n",
				r->a.live, r->a.live_bytes, r->b.live,
				r->b.live_bytes);
			continue;
		}
		csv_delta(f, r->d_bytes);
		csv_delta(f, r->d_slack);
		csv_delta(f, r->d_allocs);
		csv_delta(f, r->d_live_bytes);
		csv_vals(f, &r->a);
		csv_vals(f, &r->b);
		fputc('\n', f);
	}
	csv_totals(f, d);
	csv_coverage(f, d);
	sa_budget_diff_csv(f, d->side[0].snapshot, d->side[1].snapshot);
}

int sa_emit_diff(struct sa_emit *e, const struct sa_diff *d)
{
	if (e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML)
		diff_json(e, d);
	else if (e->fmt == SA_FMT_CSV)
		diff_csv(e, d);
	else {
		struct sa_text_buf tb;

		if (sa_text_begin(e, &tb))
			return -1;
		diff_text(e, d);
		if (sa_text_end(e, &tb))
			return -1;
	}
	return fflush(e->out) || ferror(e->out) ? -1 : 0;
}
