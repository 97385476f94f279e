// SPDX-License-Identifier: GPL-2.0
/*
 * The pages section (report/agg/pages.c) in text, JSON and CSV.
 *
 * text: under 80 columns (names cut to the width), times in ms, byte
 * counts scaled (K = 1024). json: one object under "sections", exact
 * numbers, times in ns, percentages with two decimals. csv: the tables
 * pages_summary, pages_order, pages_gfp, pages_task, pages_extfrag and
 * pages_unusable, each with a header row and its name as first column.
 */
#include "report/agg/pages.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))
#define TOP_ROWS 10

/* ---- text ---- */

static void cell_table(FILE *f, const char *title,
		       const struct sa_pg_cell (*c)[SA_PG_MTS])
{
	int o, m;

	fprintf(f, "\n%s (blocks):\n%-5s", title, "order");
	for (m = 0; m < SA_PG_MTS; m++)
		fprintf(f, " %11s", sa_migratetype_name(m));
	fprintf(f, " %8s\n", "pages");
	for (o = 0; o < SA_PG_ORDERS; o++) {
		guint64 pages = 0, n = 0;

		for (m = 0; m < SA_PG_MTS; m++) {
			pages += c[o][m].pages;
			n += c[o][m].blocks;
		}
		if (!n)
			continue;
		fprintf(f, "%-5s", sa_order_label(o));
		for (m = 0; m < SA_PG_MTS; m++)
			fprintf(f, " %11" U, c[o][m].blocks);
		fprintf(f, " %8s\n", H(pages));
	}
}

static void frag_lines(const struct sa_emit *e, const char *when,
		       const GArray *zones)
{
	guint i;
	int j;

	for (i = 0; zones && i < zones->len; i++) {
		const struct sa_pg_frag *z = &g_array_index(zones,
						struct sa_pg_frag, i);

		fprintf(e->out, "%-3s %d %-7.7s", when, z->node,
			sa_esc(z->zone));
		for (j = 0; j < z->nr_orders && j < SA_PG_ORDERS; j++)
			fprintf(e->out, " %u.%03u", z->unusable_milli[j] / 1000,
				z->unusable_milli[j] % 1000);
		fputc('\n', e->out);
	}
}

void sa_text_pages(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_pages_result *r = result;
	FILE *f = e->out;
	guint i;
	int a, b;

	fprintf(f, "\n== pages ==\n");
	fprintf(f, "# allocated: %" U " blocks, %s pages, failed: %" U "\n",
		r->allocs, H(r->pages_alloc), r->failed);
	fprintf(f, "# freed: %" U " blocks, %s pages, %" U " of them in "
		"batches\n#   (%" U " of pages allocated before the trace)\n",
		r->frees, H(r->pages_freed), r->frees_batched,
		r->frees_unmatched);
	fprintf(f, "# live at the end: %" U " blocks, %s pages\n",
		r->live_blocks, H(r->live_pages));
	fprintf(f, "# extfrag: %" U " fallbacks, %" U " pageblock steals\n",
		r->fallbacks, r->steals);
	cell_table(f, "Allocated by order x migratetype", r->alloc);
	fprintf(f, "\nFreed by order:\n%-5s %11s %8s\n", "order", "blocks",
		"pages");
	for (a = 0; a < SA_PG_ORDERS; a++)
		if (r->freed[a].blocks)
			fprintf(f, "%-5s %11" U " %8s\n", sa_order_label(a),
				r->freed[a].blocks, H(r->freed[a].pages));
	cell_table(f, "Live at the end by order x migratetype", r->live);
	if (r->gfp->len) {
		fprintf(f, "\nBy GFP flags:\n%8s %8s %s\n", "pages", "blocks",
			"gfp_flags");
		for (i = 0; i < r->gfp->len && i < TOP_ROWS; i++) {
			const struct sa_pg_gfp *g = r->gfp->pdata[i];

			fprintf(f, "%8s %8" U " ", H(g->pages), g->blocks);
			sa_text_tail_name(e, 18, g->str);
		}
	}
	if (r->tasks->len) {
		fprintf(f, "\nBy task:\n%8s %8s %8s %7s %s\n", "pages",
			"blocks", "freed", "pid", "comm");
		for (i = 0; i < r->tasks->len && i < TOP_ROWS; i++) {
			const struct sa_pg_task *t = r->tasks->pdata[i];

			fprintf(f, "%8s %8" U " %8s %7d ", H(t->pages),
				t->blocks, H(t->freed_pages), t->pid);
			sa_text_tail_name(e, 35, t->comm);
		}
	}
	if (r->sites && r->sites->len) {
		fprintf(f, "\nBy call site (kernel stacks):\n%8s %8s %8s %s\n",
			"pages", "blocks", "live", "site");
		for (i = 0; i < r->sites->len && i < TOP_ROWS; i++) {
			const struct sa_pg_site *s = r->sites->pdata[i];

			fprintf(f, "%8s %8" U " %8s ", H(s->pages), s->blocks,
				H(s->live_pages));
			sa_text_tail_name(e, 35, s->sym);
		}
	}
	if (r->fallbacks) {
		fprintf(f, "\nExtfrag fallbacks (wanted <- taken from):\n");
		for (a = 0; a < SA_PG_MTS; a++)
			for (b = 0; b < SA_PG_MTS; b++)
				if (r->fallback_mt[a][b])
					fprintf(f, "  %-11s <- %-11s %8" U
						" fallbacks %8" U " steals\n",
						sa_migratetype_name(a),
						sa_migratetype_name(b),
						r->fallback_mt[a][b],
						r->steal_mt[a][b]);
	}
	if (!r->frag_start && !r->frag_end) {
		fprintf(f, "\nUnusable free space index: not available in "
			"this trace:\n  %s\n",
			r->frag_why ? sa_esc(r->frag_why) : "no buddyinfo");
		return;
	}
	fprintf(f, "\nUnusable free space index by order:\n%-13s",
		"at  node zone");
	for (a = 0; a < SA_PG_ORDERS; a++)
		fprintf(f, " %5d", a);
	fputc('\n', f);
	frag_lines(e, "beg", r->frag_start);
	frag_lines(e, "end", r->frag_end);
}

/* ---- json ---- */

/* [{order, migratetype, blocks, pages}] of the non-empty cells */
static void cells(JsonBuilder *b, const char *k,
		  const struct sa_pg_cell (*c)[SA_PG_MTS])
{
	int o, m;

	sa_json_begin_member(b, k, true);
	for (o = 0; o < SA_PG_ORDERS; o++)
		for (m = 0; m < SA_PG_MTS; m++) {
			if (!c[o][m].blocks)
				continue;
			json_builder_begin_object(b);
			sa_json_put_str(b, "order", sa_order_label(o));
			sa_json_put_str(b, "migratetype",
					sa_migratetype_name(m));
			sa_json_put_uint(b, "blocks", c[o][m].blocks);
			sa_json_put_uint(b, "pages", c[o][m].pages);
			json_builder_end_object(b);
		}
	json_builder_end_array(b);
}

static void frag(JsonBuilder *b, const char *k, const GArray *zones)
{
	guint i;
	int j;

	json_builder_set_member_name(b, k);
	if (!zones) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_array(b);
	for (i = 0; i < zones->len; i++) {
		const struct sa_pg_frag *z = &g_array_index(zones,
						struct sa_pg_frag, i);

		json_builder_begin_object(b);
		sa_json_put_int(b, "node", z->node);
		sa_json_put_str(b, "zone", z->zone);
		sa_json_put_uint(b, "free_pages", z->free_pages);
		sa_json_begin_member(b, "unusable", true);
		for (j = 0; j < z->nr_orders; j++)
			json_builder_add_double_value(b,
				z->unusable_milli[j] / 1000.0);
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

void sa_json_pages(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_pages_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int o, m;

	sa_json_begin_member(b, "pages", false);
	sa_json_put_uint(b, "allocs", r->allocs);
	sa_json_put_uint(b, "pages_alloc", r->pages_alloc);
	sa_json_put_uint(b, "failed", r->failed);
	sa_json_put_uint(b, "frees", r->frees);
	sa_json_put_uint(b, "pages_freed", r->pages_freed);
	sa_json_put_uint(b, "frees_unmatched", r->frees_unmatched);
	sa_json_put_uint(b, "frees_batched", r->frees_batched);
	sa_json_put_uint(b, "live_blocks", r->live_blocks);
	sa_json_put_uint(b, "live_pages", r->live_pages);
	cells(b, "alloc", r->alloc);
	sa_json_begin_member(b, "freed", true);
	for (o = 0; o < SA_PG_ORDERS; o++) {
		if (!r->freed[o].blocks)
			continue;
		json_builder_begin_object(b);
		sa_json_put_str(b, "order", sa_order_label(o));
		sa_json_put_uint(b, "blocks", r->freed[o].blocks);
		sa_json_put_uint(b, "pages", r->freed[o].pages);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	cells(b, "live", r->live);
	sa_json_begin_member(b, "gfp", true);
	for (i = 0; i < r->gfp->len; i++) {
		const struct sa_pg_gfp *g = r->gfp->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "gfp_flags", g->str);
		sa_json_put_uint(b, "value", g->gfp);
		sa_json_put_uint(b, "blocks", g->blocks);
		sa_json_put_uint(b, "pages", g->pages);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_begin_member(b, "tasks", true);
	for (i = 0; i < r->tasks->len; i++) {
		const struct sa_pg_task *t = r->tasks->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_int(b, "pid", t->pid);
		sa_json_put_str(b, "comm", t->comm);
		sa_json_put_uint(b, "blocks", t->blocks);
		sa_json_put_uint(b, "pages", t->pages);
		sa_json_put_uint(b, "pages_freed", t->freed_pages);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	if (r->sites) {
		sa_json_begin_member(b, "by_callsite", true);
		for (i = 0; i < r->sites->len; i++) {
			const struct sa_pg_site *s = r->sites->pdata[i];

			json_builder_begin_object(b);
			sa_json_put_str(b, "site", s->sym);
			if (s->via)
				sa_json_put_str(b, "via", s->via);
			if (s->caller_sym)
				sa_json_put_str(b, "caller", s->caller_sym);
			if (s->func)
				sa_json_put_str(b, "function", s->func);
			if (s->module)
				sa_json_put_str(b, "module", s->module);
			sa_json_put_uint(b, "blocks", s->blocks);
			sa_json_put_uint(b, "pages", s->pages);
			sa_json_put_uint(b, "live_blocks", s->live_blocks);
			sa_json_put_uint(b, "live_pages", s->live_pages);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
	} else {
		char *why = g_strdup_printf("not available: %s",
					    r->by_site_why ? r->by_site_why :
					    "mm_page_alloc carries no call site");

		sa_json_put_str(b, "by_callsite", why);
		g_free(why);
	}
	sa_json_begin_member(b, "extfrag", false);
	sa_json_put_uint(b, "fallbacks", r->fallbacks);
	sa_json_put_uint(b, "steals", r->steals);
	sa_json_begin_member(b, "by_migratetype", true);
	for (o = 0; o < SA_PG_MTS; o++)
		for (m = 0; m < SA_PG_MTS; m++) {
			if (!r->fallback_mt[o][m])
				continue;
			json_builder_begin_object(b);
			sa_json_put_str(b, "alloc_migratetype",
					sa_migratetype_name(o));
			sa_json_put_str(b, "fallback_migratetype",
					sa_migratetype_name(m));
			sa_json_put_uint(b, "fallbacks", r->fallback_mt[o][m]);
			sa_json_put_uint(b, "steals", r->steal_mt[o][m]);
			json_builder_end_object(b);
		}
	json_builder_end_array(b);
	json_builder_end_object(b);
	sa_json_begin_member(b, "unusable_index", false);
	frag(b, "start", r->frag_start);
	frag(b, "end", r->frag_end);
	if (!r->frag_start && !r->frag_end)
		sa_json_put_str(b, "not_available", r->frag_why);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

/* ---- csv ---- */

static void cell_rows(FILE *f, const char *what,
		      const struct sa_pg_cell (*c)[SA_PG_MTS])
{
	int o, m;

	for (o = 0; o < SA_PG_ORDERS; o++)
		for (m = 0; m < SA_PG_MTS; m++)
			if (c[o][m].blocks)
				fprintf(f, "pages_order,%s,%s,%s,%" U ",%" U
					"\n", what, sa_order_label(o),
					sa_migratetype_name(m),
					c[o][m].blocks, c[o][m].pages);
}

static void frag_rows(FILE *f, const char *when, const GArray *zones)
{
	guint i;
	int j;

	for (i = 0; zones && i < zones->len; i++) {
		const struct sa_pg_frag *z = &g_array_index(zones,
						struct sa_pg_frag, i);

		for (j = 0; j < z->nr_orders; j++) {
			fprintf(f, "pages_unusable,%s,%d,", when, z->node);
			sa_csv_str(f, z->zone);
			fprintf(f, ",%d,%" U ",%u.%03u\n", j, z->free_pages,
				z->unusable_milli[j] / 1000,
				z->unusable_milli[j] % 1000);
		}
	}
}

void sa_csv_pages(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_pages_result *r = result;
	FILE *f = e->out;
	guint i;
	int o, m;

	fprintf(f, "\npages_summary,allocs,pages_alloc,failed,frees,"
		"pages_freed,frees_unmatched,live_blocks,live_pages,"
		"fallbacks,steals,frees_batched\n");
	fprintf(f, "pages_summary,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
		",%" U ",%" U ",%" U ",%" U ",%" U "\n", r->allocs,
		r->pages_alloc, r->failed, r->frees, r->pages_freed,
		r->frees_unmatched, r->live_blocks, r->live_pages,
		r->fallbacks, r->steals, r->frees_batched);
	fprintf(f, "\npages_order,what,order,migratetype,blocks,pages\n");
	cell_rows(f, "alloc", r->alloc);
	for (o = 0; o < SA_PG_ORDERS; o++)
		if (r->freed[o].blocks)
			fprintf(f, "pages_order,free,%s,,%" U ",%" U "\n",
				sa_order_label(o), r->freed[o].blocks,
				r->freed[o].pages);
	cell_rows(f, "live", r->live);
	fprintf(f, "\npages_gfp,gfp_flags,value,blocks,pages\n");
	for (i = 0; i < r->gfp->len; i++) {
		const struct sa_pg_gfp *g = r->gfp->pdata[i];

		fputs("pages_gfp,", f);
		sa_csv_str(f, g->str);
		fprintf(f, ",0x%" G_GINT64_MODIFIER "x,%" U ",%" U "\n",
			g->gfp, g->blocks, g->pages);
	}
	fprintf(f, "\npages_task,pid,comm,blocks,pages,pages_freed\n");
	for (i = 0; i < r->tasks->len; i++) {
		const struct sa_pg_task *t = r->tasks->pdata[i];

		fprintf(f, "pages_task,%d,", t->pid);
		sa_csv_str(f, t->comm);
		fprintf(f, ",%" U ",%" U ",%" U "\n", t->blocks, t->pages,
			t->freed_pages);
	}
	if (r->sites) {
		fprintf(f, "\npages_callsite,site,function,module,blocks,"
			"pages,live_blocks,live_pages\n");
		for (i = 0; i < r->sites->len; i++) {
			const struct sa_pg_site *s = r->sites->pdata[i];

			fputs("pages_callsite,", f);
			sa_csv_str(f, s->sym);
			fputc(',', f);
			sa_csv_str(f, s->func ? s->func : "");
			fputc(',', f);
			sa_csv_str(f, s->module ? s->module : "");
			fprintf(f, ",%" U ",%" U ",%" U ",%" U "\n", s->blocks,
				s->pages, s->live_blocks, s->live_pages);
		}
	}
	fprintf(f, "\npages_extfrag,alloc_migratetype,fallback_migratetype,"
		"fallbacks,steals\n");
	for (o = 0; o < SA_PG_MTS; o++)
		for (m = 0; m < SA_PG_MTS; m++)
			if (r->fallback_mt[o][m])
				fprintf(f, "pages_extfrag,%s,%s,%" U ",%" U
					"\n", sa_migratetype_name(o),
					sa_migratetype_name(m),
					r->fallback_mt[o][m],
					r->steal_mt[o][m]);
	fprintf(f, "\npages_unusable,when,node,zone,order,free_pages,"
		"unusable_index\n");
	frag_rows(f, "start", r->frag_start);
	frag_rows(f, "end", r->frag_end);
}
