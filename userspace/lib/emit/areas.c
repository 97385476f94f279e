// SPDX-License-Identifier: GPL-2.0
/*
 * The vmalloc and percpu sections in text, JSON and CSV (emit/emit-areas.h).
 */
#include "report/agg/areas.h"
#include "emit/emit-areas.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

static const char *alloc_event(const struct sa_area_result *r)
{
	return r->kind == SA_AREA_PERCPU ? "percpu:percpu_alloc_percpu" :
	       "vmalloc:alloc_vmap_area";
}

/* ---- text ---- */

void sa_text_areas(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_area_result *r = result;
	const char *name = sa_area_name(r->kind);
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== %s (%s) ==\n", name, r->kind == SA_AREA_PERCPU ?
		"percpu allocations, by call site" :
		"vmap areas: vmalloc, vmap, ioremap; by caller");
	if (!r->present) {
		fprintf(f, "# the trace has no %s event (record -e %s)\n",
			alloc_event(r), name);
		return;
	}
	fprintf(f, "# %" U " allocations, %s; %" U " frees, %s; live %" U
		" (%s)", r->allocs, H(r->bytes), r->frees, H(r->freed_bytes),
		r->live, H(r->live_bytes));
	if (r->failed)
		fprintf(f, "; failed %" U, r->failed);
	if (r->unmatched_frees)
		fprintf(f, "; %" U " frees of older memory", r->unmatched_frees);
	fputc('\n', f);
	if (r->attributed)
		fprintf(f, "# %" U " allocations attributed through their "
			"kernel stacks (entry point <- caller)\n",
			r->attributed);
	if (r->no_stack)
		fprintf(f, "# %" U " allocations have no kernel stack: record "
			"with --stacks to see their callers\n", r->no_stack);
	if (!r->rows->len)
		return;
	fprintf(f, "%7s %8s %7s %7s %8s %6s %s\n", "allocs", "bytes", "frees",
		"live", "live_b", "failed", "site");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_area_row *x = r->rows->pdata[i];

		fprintf(f, "%7" U " %8s %7" U " %7" U " %8s %6" U " %s\n",
			x->allocs, H(x->bytes), x->frees, x->live,
			H(x->live_bytes), x->failed, sa_esc(x->sym));
	}
}

/* ---- JSON ---- */

static void row_obj(JsonBuilder *b, const struct sa_area_row *x)
{
	json_builder_begin_object(b);
	sa_json_put_str(b, "site", x->sym);
	sa_json_put_str(b, "how", sa_area_how_name(x->how));
	if (x->how == SA_AREA_SITE || x->how == SA_AREA_CALLER) {
		char *a = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
					  x->addr);

		sa_json_put_str(b, "address", a);
		g_free(a);
	}
	sa_json_put_str(b, "function", x->func);
	sa_json_put_str(b, "module", x->module);
	sa_json_put_str(b, "file", x->file);
	if (x->line)
		sa_json_put_int(b, "line", x->line);
	if (x->via)
		sa_json_put_str(b, "via", x->via);
	if (x->caller_sym)
		sa_json_put_str(b, "caller", x->caller_sym);
	sa_json_put_uint(b, "allocs", x->allocs);
	sa_json_put_uint(b, "bytes", x->bytes);
	sa_json_put_uint(b, "frees", x->frees);
	sa_json_put_uint(b, "freed_bytes", x->freed_bytes);
	sa_json_put_uint(b, "live", x->live);
	sa_json_put_uint(b, "live_bytes", x->live_bytes);
	sa_json_put_uint(b, "failed", x->failed);
	sa_json_put_uint(b, "freed_untraced", x->freed_untraced);
	json_builder_end_object(b);
}

void sa_json_areas(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_area_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, sa_area_name(r->kind));
	json_builder_begin_object(b);
	sa_json_put_bool(b, "present", r->present);
	sa_json_put_bool(b, "frees_traced", r->have_free);
	sa_json_put_bool(b, "stacks", r->stacks);
	if (r->kind == SA_AREA_PERCPU)
		sa_json_put_str(b, "bytes_are", r->per_cpu_bytes ?
				"per_cpu" : "all_cpus");
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "sites", r->rows->len);
	sa_json_put_uint(b, "allocs", r->allocs);
	sa_json_put_uint(b, "bytes", r->bytes);
	sa_json_put_uint(b, "frees", r->frees);
	sa_json_put_uint(b, "freed_bytes", r->freed_bytes);
	sa_json_put_uint(b, "live", r->live);
	sa_json_put_uint(b, "live_bytes", r->live_bytes);
	sa_json_put_uint(b, "failed", r->failed);
	if (r->kind == SA_AREA_PERCPU)
		sa_json_put_uint(b, "failed_bytes", r->failed_bytes);
	sa_json_put_uint(b, "unmatched_frees", r->unmatched_frees);
	sa_json_put_uint(b, "freed_untraced", r->freed_untraced);
	sa_json_put_uint(b, "attributed", r->attributed);
	if (r->kind == SA_AREA_VMALLOC)
		sa_json_put_uint(b, "no_stack", r->no_stack);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->rows->len; i++)
		row_obj(b, r->rows->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* ---- CSV ---- */

void sa_csv_areas(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_area_result *r = result;
	const char *name = sa_area_name(r->kind);
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n%s,site,how,function,module,via,allocs,bytes,frees,"
		"freed_bytes,live,live_bytes,failed\n", name);
	if (!r->present)
		return;
	fprintf(f, "%s,total,,,,,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
		",%" U "\n", name, r->allocs, r->bytes, r->frees,
		r->freed_bytes, r->live, r->live_bytes, r->failed);
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_area_row *x = r->rows->pdata[i];

		fprintf(f, "%s,", name);
		sa_csv_str(f, x->sym);
		fprintf(f, ",%s,", sa_area_how_name(x->how));
		sa_csv_str(f, x->func);
		fputc(',', f);
		sa_csv_str(f, x->module);
		fputc(',', f);
		sa_csv_str(f, x->via);
		fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%" U ",%" U
			"\n", x->allocs, x->bytes, x->frees, x->freed_bytes,
			x->live, x->live_bytes, x->failed);
	}
}
