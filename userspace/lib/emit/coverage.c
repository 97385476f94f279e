// SPDX-License-Identifier: GPL-2.0
/*
 * The coverage section in text, JSON and CSV (emit/emit-coverage.h).
 */
#include "report/agg/coverage.h"
#include "emit/emit-coverage.h"

#define U G_GUINT64_FORMAT
#define D G_GINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

/* A signed size, human: "-1.2M" */
static const char *hs(char buf[17], gint64 v)
{
	char h[16];

	sa_human(h, v < 0 ? -(guint64)v : (guint64)v);
	snprintf(buf, 17, "%s%s", v < 0 ? "-" : "", h);
	return buf;
}

#define HS(v) hs((char[17]){ 0 }, (v))

/* ---- text ---- */

void sa_text_coverage(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_coverage_result *r = result;
	const struct sa_cov_row *t = &r->total;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== coverage (live slab at the end, against "
		"/proc/slabinfo) ==\n");
	if (!r->have_slabinfo) {
		fprintf(f, "# not available: %s\n", r->why);
		return;
	}
	fprintf(f, "# in slot sizes: traced = live objects x bytes_alloc; "
		"slabinfo = active_objs x objsize\n");
	fprintf(f, "# traced   %" U " bytes, %" U " objects\n",
		t->traced_bytes, t->traced_objs);
	fprintf(f, "# slabinfo %" U " bytes, %" U " objects, %" U
		" caches\n", t->slab_bytes, t->slab_objs, t->caches);
	fprintf(f, "# rest     %" D " bytes, %" D " objects: allocated "
		"before tracing, or untraced\n", t->rest_bytes, t->rest_objs);
	fprintf(f, "#   (bulk allocation; the free slots of per-CPU slabs, "
		"which SLUB counts active)\n");
	if (r->large_objs)
		fprintf(f, "# kmallocs above %" U " bytes come from pages, not "
			"slab: %" U " live, %s\n", r->kmalloc_max,
			r->large_objs, H(r->large_bytes));
	if (r->unnamed_objs)
		fprintf(f, "# kmem_cache_alloc without a cache name: %" U
			" live, %s (in total only)\n", r->unnamed_objs,
			H(r->unnamed_bytes));
	if (!r->per_cache) {
		fprintf(f, "# by cache: kmem_cache_alloc does not name its "
			"cache on this kernel\n");
		return;
	}
	fprintf(f, "%8s %8s %8s %8s %8s %8s %s\n", "traced", "slabinfo",
		"rest", "t_objs", "s_objs", "r_objs", "cache");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_cov_row *x = r->rows->pdata[i];

		fprintf(f, "%8s %8s %8s %8" U " %8" U " %8" D " ",
			H(x->traced_bytes), H(x->slab_bytes),
			HS(x->rest_bytes), x->traced_objs, x->slab_objs,
			x->rest_objs);
		sa_text_tail_name(e, 54, x->cache);
	}
}

/* ---- JSON ---- */

static void row_members(JsonBuilder *b, const struct sa_cov_row *x)
{
	sa_json_put_uint(b, "traced_objs", x->traced_objs);
	sa_json_put_uint(b, "traced_bytes", x->traced_bytes);
	sa_json_put_uint(b, "slab_objs", x->slab_objs);
	sa_json_put_uint(b, "slab_bytes", x->slab_bytes);
	sa_json_put_int(b, "rest_objs", x->rest_objs);
	sa_json_put_int(b, "rest_bytes", x->rest_bytes);
	sa_json_put_uint(b, "caches", x->caches);
}

void sa_json_coverage(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_coverage_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "coverage");
	json_builder_begin_object(b);
	sa_json_put_bool(b, "slabinfo", r->have_slabinfo);
	if (!r->have_slabinfo) {
		sa_json_put_str(b, "why", r->why);
		json_builder_end_object(b);
		return;
	}
	sa_json_put_str(b, "sizes", "slot");
	sa_json_put_bool(b, "per_cache", r->per_cache);
	sa_json_put_uint(b, "kmalloc_max", r->kmalloc_max);
	sa_json_put_uint(b, "large_kmalloc_objs", r->large_objs);
	sa_json_put_uint(b, "large_kmalloc_bytes", r->large_bytes);
	sa_json_put_uint(b, "unnamed_objs", r->unnamed_objs);
	sa_json_put_uint(b, "unnamed_bytes", r->unnamed_bytes);
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	row_members(b, &r->total);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_cov_row *x = r->rows->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "cache", x->cache);
		sa_json_put_bool(b, "kmalloc", x->kmalloc);
		sa_json_put_uint(b, "slot", x->slot);
		row_members(b, x);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* ---- CSV ---- */

static void csv_row(FILE *f, const struct sa_cov_row *x)
{
	fputs("coverage,", f);
	sa_csv_str(f, x->cache);
	fprintf(f, ",%d,%" U ",%" U ",%" U ",%" U ",%" U ",%" D ",%" D
		",%" U "\n", x->kmalloc, x->slot, x->traced_objs,
		x->traced_bytes, x->slab_objs, x->slab_bytes, x->rest_objs,
		x->rest_bytes, x->caches);
}

void sa_csv_coverage(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_coverage_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\ncoverage,cache,kmalloc,slot,traced_objs,traced_bytes,"
		"slab_objs,slab_bytes,rest_objs,rest_bytes,caches\n");
	if (!r->have_slabinfo)
		return;
	csv_row(f, &r->total);
	for (i = 0; i < r->rows->len; i++)
		csv_row(f, r->rows->pdata[i]);
}

/* ---- the header's summary ---- */

static const struct sa_coverage_result *head_of(const struct sa_report *rep)
{
	const struct sa_coverage_result *r = rep->result[SA_SEC_COVERAGE];

	return r && r->have_slabinfo ? r : NULL;
}

void sa_text_coverage_head(FILE *f, const struct sa_report *rep)
{
	const struct sa_coverage_result *r = head_of(rep);
	const struct sa_cov_row *t = r ? &r->total : NULL;

	if (!r)
		return;
	fprintf(f, "# slab coverage: the trace explains %s of the %s live in "
		"/proc/slabinfo at its end", H(t->traced_bytes),
		H(t->slab_bytes));
	if (t->slab_bytes)
		fprintf(f, " (%.1f%%)", 100.0 * (double)t->traced_bytes /
			(double)t->slab_bytes);
	fprintf(f, "; the rest, %s, was allocated before tracing or "
		"untraced (--what coverage)\n", HS(t->rest_bytes));
}

void sa_json_coverage_head(JsonBuilder *b, const struct sa_report *rep)
{
	const struct sa_coverage_result *r = head_of(rep);

	if (!r)
		return;
	json_builder_set_member_name(b, "slab_coverage");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "traced_bytes", r->total.traced_bytes);
	sa_json_put_uint(b, "slab_bytes", r->total.slab_bytes);
	sa_json_put_int(b, "rest_bytes", r->total.rest_bytes);
	json_builder_end_object(b);
}

void sa_csv_coverage_head(FILE *f, const struct sa_report *rep)
{
	const struct sa_coverage_result *r = head_of(rep);

	if (!r)
		return;
	fprintf(f, "# slab_coverage_traced_bytes: %" U "\n"
		"# slab_coverage_slab_bytes: %" U "\n"
		"# slab_coverage_rest_bytes: %" D "\n", r->total.traced_bytes,
		r->total.slab_bytes, r->total.rest_bytes);
}
