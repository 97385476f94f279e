// SPDX-License-Identifier: GPL-2.0
/*
 * The callsite section (report/agg/callsite.c) in text, JSON and CSV, and
 * the call-site row of each format that the live section shares
 * (emit/emit-callsite.h).
 *
 * text: under 80 columns by default, byte counts scaled (K = 1024).
 * json: exact numbers, percentages as doubles. csv: the callsite table,
 * one row per site with stable column names.
 */
#include <string.h>

#include "report/agg/callsite.h"
#include "trace/stack.h"
#include "emit/emit.h"
#include "emit/emit-allocinfo.h"
#include "emit/emit-callsite.h"
#include "emit/emit-stacks.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

/* ---- text ---- */

static void totals_line(struct sa_emit *e, const char *what,
			const struct sa_totals *t)
{
	fprintf(e->out, "# %-7s %s alloc, %s req, %s slack (%.1f%%), "
		"%" G_GUINT64_FORMAT " allocs, %" G_GUINT64_FORMAT " frees\n",
		what, H(t->bytes_alloc), H(t->bytes_req), H(t->slack),
		t->frag, t->allocs, t->frees);
	fprintf(e->out, "# %-7s live %" G_GUINT64_FORMAT " objs %s "
		"(waste %s), ping-pong %" G_GUINT64_FORMAT ", %"
		G_GUINT64_FORMAT " sites\n", "", t->live, H(t->live_alloc),
		H(t->live_waste), t->pingpong, t->sites);
}

/*
 * A call-site table's columns. The site is never cut: on a narrow width
 * the numbers give way first, in the order of drop, until the longest
 * name fits (alloc, slack and allocs always stay); a name longer than
 * even that runs past the width. A kmem_cache table has the cache's
 * name, as slabtop shows it.
 */
enum cs_col {
	CS_ALLOC, CS_SLACK, CS_FRAG, CS_ALLOCS, CS_FREES, CS_LIVE, CS_PP,
	CS_CACHE, CS_NR,
};

static const struct {
	const char *head;
	int w;				/* its width; the cache's is measured */
	int drop;			/* its turn to give way, 0: never */
} cs_cols[CS_NR] = {
	[CS_ALLOC] = { "alloc", 7, 0 },
	[CS_SLACK] = { "slack", 7, 0 },
	[CS_FRAG] = { "frag%", 5, 4 },
	[CS_ALLOCS] = { "allocs", 6, 0 },
	[CS_FREES] = { "frees", 6, 2 },
	[CS_LIVE] = { "live_b", 7, 3 },
	[CS_PP] = { "pp", 4, 1 },
	[CS_CACHE] = { "cache", 0, 5 },
};

/* the widest a cache name gets its column: longer ones run on */
#define CS_CACHE_MAX	24

static void cs_cell(FILE *f, int c, int w, const struct sa_site *s)
{
	switch (c) {
	case CS_ALLOC: fprintf(f, "%*s ", w, H(s->bytes_alloc)); break;
	case CS_SLACK: fprintf(f, "%*s ", w, H(s->slack)); break;
	case CS_FRAG: fprintf(f, "%*.1f ", w, s->frag); break;
	case CS_ALLOCS: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->allocs);
		break;
	case CS_FREES: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->frees);
		break;
	case CS_LIVE: fprintf(f, "%*s ", w, H(s->live_alloc)); break;
	case CS_PP: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->pingpong);
		break;
	default: fprintf(f, "%-*s ", w, s->cache ? sa_esc(s->cache) : "-");
	}
}

/* The rows of one kind: which columns fit beside the longest name. */
static void cs_table(struct sa_emit *e, const struct sa_callsite_result *r,
		     int kind)
{
	bool on[CS_NR];
	int w[CS_NR], name = 0, used = 0, c, turn;
	FILE *f = e->out;
	guint i, n = 0;

	for (c = 0; c < CS_NR; c++) {
		on[c] = c != CS_CACHE || (kind == SA_KIND_CACHE &&
					  r->by != SA_BY_CACHE);
		w[c] = cs_cols[c].w;
	}
	if (on[CS_CACHE])
		w[CS_CACHE] = strlen(cs_cols[CS_CACHE].head);
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		if ((int)s->kind != kind)
			continue;
		n++;
		name = MAX(name, (int)strlen(sa_esc(s->sym)));
		if (on[CS_CACHE] && s->cache)
			w[CS_CACHE] = MIN(CS_CACHE_MAX, MAX(w[CS_CACHE],
				(int)strlen(sa_esc(s->cache))));
	}
	if (!n)
		return;
	for (c = 0; c < CS_NR; c++)
		used += on[c] ? w[c] + 1 : 0;
	for (turn = 1; e->width > 0 && used + name > e->width; turn++) {
		for (c = 0; c < CS_NR && cs_cols[c].drop != turn; c++)
			;
		if (c == CS_NR)
			break;		/* the name runs past the width */
		if (on[c])
			used -= w[c] + 1;
		on[c] = false;
	}
	fprintf(f, "\n%s:\n", kind == SA_KIND_KMALLOC ?
		"kmalloc (slack: over-request)" :
		"kmem_cache (slack: cache padding)");
	for (c = 0; c < CS_NR; c++)
		if (on[c])
			fprintf(f, c == CS_CACHE ? "%-*s " : "%*s ", w[c],
				cs_cols[c].head);
	fprintf(f, "site\n");
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		if ((int)s->kind != kind)
			continue;
		for (c = 0; c < CS_NR; c++)
			if (on[c])
				cs_cell(f, c, w[c], s);
		fprintf(f, "%s\n", sa_esc(s->sym));
		sa_text_where(e, 8, s->file, s->line);
		if (e->verbose) {
			char u[48] = "";
			char *l;

			if (s->freed_untraced)
				snprintf(u, sizeof(u), ", untraced frees %"
					 G_GUINT64_FORMAT, s->freed_untraced);
			if (r->accounted_known && s->accounted)
				snprintf(u + strlen(u), sizeof(u) - strlen(u),
					 ", memcg %s", H(s->accounted_bytes));
			l = g_strdup_printf("        req %s, live %"
				G_GUINT64_FORMAT " (waste %s)%s, %s%s%s",
				H(s->bytes_req), s->live, H(s->live_waste), u,
				s->cache ? sa_esc(s->cache) : "",
				s->cache ? ", " : "",
				s->gfp_str ? sa_esc(s->gfp_str) : "-");
			sa_text_put_cut(e, l);
			g_free(l);
		}
	}
}

/*
 * "most slack": the kmalloc site whose over-request wastes the most, in
 * one line after the tables (a cache's padding is not the caller's to
 * fix). Among every site, not only those shown.
 */
static void most_slack(struct sa_emit *e, const struct sa_callsite_result *r)
{
	const struct sa_site *top = NULL;
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (s->kind == SA_KIND_KMALLOC && s->slack &&
		    (!top || s->slack > top->slack ||
		     (s->slack == top->slack &&
		      g_strcmp0(s->sym, top->sym) < 0)))
			top = s;
	}
	if (!top)
		return;
	fprintf(e->out, "\n# most slack: %s, %s of %s allocated in %"
		G_GUINT64_FORMAT " allocations (%.1f%%; %.1f%% of all kmalloc "
		"slack)\n", sa_esc(top->sym), H(top->slack),
		H(top->bytes_alloc), top->allocs, top->frag,
		r->total[SA_KIND_KMALLOC].slack ? 100.0 * top->slack /
		r->total[SA_KIND_KMALLOC].slack : 0.0);
}

void sa_text_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_callsite_result *r = result;
	FILE *f = e->out;
	int k;

	if (r->allocinfo) {
		sa_text_allocinfo_sites(e, r);
		return;
	}
	fprintf(f, "\n== call sites%s%s%s ==\n",
		r->by != SA_BY_CALLSITE ? " (by " : "",
		r->by != SA_BY_CALLSITE ? sa_group_by_name(r->by) : "",
		r->by != SA_BY_CALLSITE ? ")" : "");
	for (k = 0; k < SA_KIND_NR; k++)
		totals_line(e, sa_kind_name(k), &r->total[k]);
	fprintf(f, "# frees of untraced objects: %" G_GUINT64_FORMAT
		", kfree(NULL): %" G_GUINT64_FORMAT "\n# freed without a "
		"trace event: %" G_GUINT64_FORMAT " (not live)\n",
		r->unmatched_frees, r->null_frees, r->reused);
	for (k = 0; k < SA_KIND_NR; k++)
		cs_table(e, r, k);
	if (r->hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more rows left out "
			"(--top/--min-bytes)\n", r->hidden);
	if (r->by == SA_BY_CALLSITE)
		most_slack(e, r);
}

/* ---- json ---- */

void sa_json_totals(JsonBuilder *b, const struct sa_totals *t)
{
	sa_json_put_uint(b, "sites", t->sites);
	sa_json_put_uint(b, "allocs", t->allocs);
	sa_json_put_uint(b, "frees", t->frees);
	sa_json_put_uint(b, "bytes_alloc", t->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", t->bytes_req);
	sa_json_put_uint(b, "slack", t->slack);
	sa_json_put_pct(b, "frag_pct", t->frag);
	sa_json_put_uint(b, "live", t->live);
	sa_json_put_uint(b, "live_bytes", t->live_alloc);
	sa_json_put_uint(b, "live_req", t->live_req);
	sa_json_put_uint(b, "live_waste", t->live_waste);
	sa_json_put_pct(b, "live_frag_pct", t->live_frag);
	sa_json_put_uint(b, "pingpong", t->pingpong);
}

/* Charged to a memory cgroup, where the trace says. */
static void accounted(JsonBuilder *b, guint64 n, guint64 bytes)
{
	sa_json_put_uint(b, "accounted", n);
	sa_json_put_uint(b, "accounted_bytes", bytes);
}

void sa_json_site(JsonBuilder *b, const struct sa_site *s, bool acct)
{
	int i;

	json_builder_begin_object(b);
	sa_json_put_str(b, "kind", sa_kind_name(s->kind));
	sa_json_put_str(b, "site", s->sym);
	if (s->call_site) {
		char *a = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
					  s->call_site);

		sa_json_put_str(b, "address", a);
		g_free(a);
	}
	sa_json_put_str(b, "function", s->func);
	sa_json_put_str(b, "module", s->module);
	sa_json_put_str(b, "cache", s->cache);
	sa_json_put_str(b, "file", s->file);
	if (s->line)
		sa_json_put_int(b, "line", s->line);
	sa_json_put_uint(b, "allocs", s->allocs);
	sa_json_put_uint(b, "frees", s->frees);
	sa_json_put_uint(b, "bytes_alloc", s->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", s->bytes_req);
	sa_json_put_uint(b, "slack", s->slack);
	sa_json_put_pct(b, "frag_pct", s->frag);
	sa_json_put_uint(b, "live", s->live);
	sa_json_put_uint(b, "live_bytes", s->live_alloc);
	sa_json_put_uint(b, "live_req", s->live_req);
	sa_json_put_uint(b, "live_waste", s->live_waste);
	sa_json_put_pct(b, "live_frag_pct", s->live_frag);
	sa_json_put_uint(b, "pingpong", s->pingpong);
	sa_json_put_uint(b, "freed_untraced", s->freed_untraced);
	if (acct)
		accounted(b, s->accounted, s->accounted_bytes);
	sa_json_put_str(b, "gfp", s->gfp_str);
	json_builder_set_member_name(b, "live_age");
	json_builder_begin_object(b);
	for (i = 0; i < SA_AGE_BUCKETS; i++)
		sa_json_put_uint(b, sa_age_label(i), s->age[i]);
	json_builder_end_object(b);
	if (s->wrapper_hint) {
		json_builder_set_member_name(b, "wrapper");
		json_builder_add_boolean_value(b, TRUE);
	}
	/* attributed through a wrapper by the stacks: the wrapper, the caller */
	if (s->wrapper)
		sa_json_put_str(b, "via", s->wrapper);
	if (s->caller_sym)
		sa_json_put_str(b, "caller", s->caller_sym);
	if (s->frames && s->frames->n > 1) {
		json_builder_set_member_name(b, "frames");
		json_builder_begin_array(b);
		for (i = 0; i < (int)s->frames->n; i++) {
			char *a = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
						  s->frames->ip[i]);

			json_builder_add_string_value(b, a);
			g_free(a);
		}
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
}

void sa_json_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_callsite_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int k;

	if (r->allocinfo) {
		sa_json_allocinfo_sites(e, r);
		return;
	}
	json_builder_set_member_name(b, "callsite");
	json_builder_begin_object(b);
	sa_json_put_str(b, "by", sa_group_by_name(r->by));
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	for (k = 0; k < SA_KIND_NR; k++) {
		json_builder_set_member_name(b, sa_kind_name(k));
		json_builder_begin_object(b);
		sa_json_totals(b, &r->total[k]);
		if (r->accounted_known)
			accounted(b, r->total[k].accounted,
				  r->total[k].accounted_bytes);
		json_builder_end_object(b);
	}
	sa_json_put_uint(b, "unmatched_frees", r->unmatched_frees);
	sa_json_put_uint(b, "null_frees", r->null_frees);
	sa_json_put_uint(b, "reused_without_free", r->reused);
	if (r->attributed || r->attrib_not_in_stack ||
	    r->attrib_all_wrappers || r->wrapper_no_stack) {
		sa_json_put_uint(b, "attributed", r->attributed);
		sa_json_put_uint(b, "wrapper_stack_without_site",
				r->attrib_not_in_stack);
		sa_json_put_uint(b, "wrapper_stack_all_wrappers",
				r->attrib_all_wrappers);
		sa_json_put_uint(b, "wrapper_no_stack", r->wrapper_no_stack);
	}
	json_builder_end_object(b);
	sa_json_put_uint(b, "rows_hidden", r->hidden);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->shown->len; i++)
		sa_json_site(b, r->shown->pdata[i], r->accounted_known);
	json_builder_end_array(b);
	if (r->by == SA_BY_STACK)
		sa_json_stacks(b, r);
	json_builder_end_object(b);
}

/* ---- csv ---- */

/* the call-site table: memcg charges too (empty where the trace lacks them) */
static const char callsite_cols[] = SITE_COLS
	",accounted,accounted_bytes,file,line";

/* acct: 0, no accounted columns; 1, empty ones; 2, with their values */
void sa_csv_site_row(FILE *f, const char *section, const struct sa_site *s,
		    int acct)
{
	int i;

	fprintf(f, "%s,%s,", section, sa_kind_name(s->kind));
	sa_csv_str(f, s->sym);
	fputc(',', f);
	if (s->call_site)
		fprintf(f, "0x%" G_GINT64_MODIFIER "x", s->call_site);
	fputc(',', f);
	sa_csv_str(f, s->func);
	fputc(',', f);
	sa_csv_str(f, s->module);
	fputc(',', f);
	sa_csv_str(f, s->cache);
	fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%.2f,%" U ",%" U
		",%" U ",%" U ",%.2f,%" U ",", s->allocs, s->frees,
		s->bytes_alloc, s->bytes_req, s->slack, s->frag, s->live,
		s->live_alloc, s->live_req, s->live_waste, s->live_frag,
		s->pingpong);
	sa_csv_str(f, s->gfp_str);
	for (i = 0; i < SA_AGE_BUCKETS; i++)
		fprintf(f, ",%" U, s->age[i]);
	fprintf(f, ",%" U, s->freed_untraced);
	if (acct == 1)
		fputs(",,", f);
	else if (acct == 2)
		fprintf(f, ",%" U ",%" U, s->accounted, s->accounted_bytes);
	/* --vmlinux: source file:line; --build-tree: the object file */
	fputc(',', f);
	sa_csv_str(f, s->file);
	if (s->line > 0)
		fprintf(f, ",%d\n", s->line);
	else
		fputs(",\n", f);
}

void sa_csv_callsite(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_callsite_result *r = result;
	FILE *f = e->out;
	guint i;
	int k;

	if (r->allocinfo) {
		sa_csv_allocinfo_sites(e, site_cols, r);
		return;
	}
	fprintf(f, "\ncallsite_totals,kind,sites,allocs,frees,bytes_alloc,"
		"bytes_req,slack,frag_pct,live,live_bytes,live_waste,"
		"pingpong,unmatched_frees,null_frees,reused_without_free\n");
	for (k = 0; k < SA_KIND_NR; k++) {
		const struct sa_totals *t = &r->total[k];

		fprintf(f, "callsite_totals,%s,%" U ",%" U ",%" U ",%" U ",%"
			U ",%" U ",%.2f,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
			",%" U "\n", sa_kind_name(k), t->sites, t->allocs,
			t->frees, t->bytes_alloc, t->bytes_req, t->slack,
			t->frag, t->live, t->live_alloc, t->live_waste,
			t->pingpong, r->unmatched_frees, r->null_frees,
			r->reused);
	}
	fprintf(f, "\ncallsite,%s\n", callsite_cols);
	for (i = 0; i < r->shown->len; i++)
		sa_csv_site_row(f, "callsite", r->shown->pdata[i],
			 r->accounted_known ? 2 : 1);
}
