// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim section (report/agg/reclaim.c) in text, JSON and CSV.
 *
 * text: under 80 columns (names cut to the width), times in ms, byte
 * counts scaled (K = 1024). json: one object under "sections", exact
 * numbers, times in ns, percentages with two decimals. csv: the tables
 * reclaim_summary, reclaim_task, kswapd, shrinker and lru, each with a
 * header row and its name as first column.
 */
#include "report/agg/reclaim.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))
#define MS(ns) ((double)(ns) / 1e6)
#define TOP_ROWS 10

/* ---- text ---- */

static void lat_line(FILE *f, const char *what, const struct sa_rc_lat *l,
		     guint64 unfinished)
{
	int b;

	fprintf(f, "# %s reclaim: %" U ", total %.3f ms, max %.3f ms, "
		"%s pages reclaimed", what, l->count, MS(l->sum_ns),
		MS(l->max_ns), H(l->reclaimed));
	if (unfinished)
		fprintf(f, ", %" U " unfinished", unfinished);
	fputc('\n', f);
	if (!l->count)
		return;
	fprintf(f, "#  ");
	for (b = 0; b < SA_LAT_BUCKETS; b++)
		fprintf(f, " %s:%" U, sa_lat_label(b), l->hist[b]);
	fputc('\n', f);
}

static void task_table(const struct sa_emit *e, const char *what,
		       const GPtrArray *tasks)
{
	FILE *f = e->out;
	guint i;

	if (!tasks->len)
		return;
	fprintf(f, "\n%s reclaim by task:\n%7s %6s %10s %10s %8s %s\n",
		what, "pid", "count", "total_ms", "max_ms", "pages", "comm");
	for (i = 0; i < tasks->len && i < TOP_ROWS; i++) {
		const struct sa_rc_task *t = tasks->pdata[i];

		fprintf(f, "%7d %6" U " %10.3f %10.3f %8s ", t->pid,
			t->lat.count, MS(t->lat.sum_ns), MS(t->lat.max_ns),
			H(t->lat.reclaimed));
		sa_text_tail_name(e, 46, t->comm);
	}
}

void sa_text_reclaim(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_reclaim_result *r = result;
	FILE *f = e->out;
	guint i;
	int k;

	fprintf(f, "\n== reclaim ==\n");
	for (k = 0; k < SA_RC_KINDS; k++)
		lat_line(f, sa_rc_kind_name(k), &r->total[k],
			 r->unfinished[k]);
	fprintf(f, "# pages written by reclaim: %" U "\n", r->writes);
	if (!r->lru_total.calls)
		fprintf(f, "# LRU: no inactive-list scans in the trace\n");
	for (k = 0; k < SA_RC_KINDS; k++)
		task_table(e, sa_rc_kind_name(k), r->tasks[k]);
	if (r->kswapd->len) {
		fprintf(f, "\nkswapd:\n%4s %8s %8s %8s %12s %9s\n", "node",
			"wakes", "sleeps", "requests", "busy_ms", "max_order");
		for (i = 0; i < r->kswapd->len; i++) {
			const struct sa_kswapd_node *n =
				&g_array_index(r->kswapd,
					       struct sa_kswapd_node, i);

			fprintf(f, "%4d %8" U " %8" U " %8" U " %12.3f %9d%s\n",
				n->nid, n->wakes, n->sleeps, n->requests,
				MS(n->busy_ns), n->max_order,
				n->awake_at_end ? " (awake at end)" : "");
		}
	}
	if (r->shrinkers->len) {
		fprintf(f, "\nShrinkers:\n%6s %10s %9s %8s %8s %s\n", "calls",
			"total_ms", "max_ms", "to_scan", "freed", "shrinker");
		for (i = 0; i < r->shrinkers->len && i < TOP_ROWS; i++) {
			const struct sa_shrinker *s = r->shrinkers->pdata[i];

			fprintf(f, "%6" U " %10.3f %9.3f %8s %8s ", s->calls,
				MS(s->sum_ns), MS(s->max_ns), H(s->to_scan),
				H(s->freed));
			sa_text_tail_name(e, 46, s->sym);
		}
	}
	if (r->lru_total.calls) {
		fprintf(f, "\nLRU (shrink_inactive): scanned vs reclaimed:\n"
			"%6s %9s %9s %6s %s\n", "calls", "scanned", "reclaimed",
			"eff%", "context / flags");
		for (i = 0; i <= r->lru->len; i++) {
			const struct sa_lru_row *l = i < r->lru->len ?
				r->lru->pdata[i] : &r->lru_total;

			fprintf(f, "%6" U " %9s %9s %6.1f ", l->calls,
				H(l->scanned), H(l->reclaimed), l->efficiency);
			sa_text_tail_name(e, 34, l->what);
		}
	}
}

/* ---- json ---- */

static void m_bool(JsonBuilder *b, const char *k, bool v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_boolean_value(b, v);
}

static void lat(JsonBuilder *b, const struct sa_rc_lat *l)
{
	int i;

	sa_json_put_uint(b, "count", l->count);
	sa_json_put_uint(b, "sum_ns", l->sum_ns);
	sa_json_put_uint(b, "max_ns", l->max_ns);
	sa_json_put_uint(b, "reclaimed_pages", l->reclaimed);
	sa_json_begin_member(b, "histogram", false);
	for (i = 0; i < SA_LAT_BUCKETS; i++)
		sa_json_put_uint(b, sa_lat_label(i), l->hist[i]);
	json_builder_end_object(b);
}

static void lru_row(JsonBuilder *b, const struct sa_lru_row *l)
{
	json_builder_begin_object(b);
	sa_json_put_str(b, "what", l->what);
	sa_json_put_uint(b, "calls", l->calls);
	sa_json_put_uint(b, "scanned", l->scanned);
	sa_json_put_uint(b, "reclaimed", l->reclaimed);
	sa_json_put_pct(b, "efficiency_pct", l->efficiency);
	json_builder_end_object(b);
}

void sa_json_reclaim(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_reclaim_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int k;

	sa_json_begin_member(b, "reclaim", false);
	for (k = 0; k < SA_RC_KINDS; k++) {
		sa_json_begin_member(b, sa_rc_kind_name(k), false);
		m_bool(b, "in_trace", k == SA_RC_DIRECT ? r->have_direct :
		       r->have_memcg);
		lat(b, &r->total[k]);
		sa_json_put_uint(b, "unfinished", r->unfinished[k]);
		sa_json_begin_member(b, "tasks", true);
		for (i = 0; i < r->tasks[k]->len; i++) {
			const struct sa_rc_task *t = r->tasks[k]->pdata[i];

			json_builder_begin_object(b);
			sa_json_put_int(b, "pid", t->pid);
			sa_json_put_str(b, "comm", t->comm);
			lat(b, &t->lat);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	sa_json_begin_member(b, "kswapd", true);
	for (i = 0; i < r->kswapd->len; i++) {
		const struct sa_kswapd_node *n = &g_array_index(r->kswapd,
						struct sa_kswapd_node, i);

		json_builder_begin_object(b);
		sa_json_put_int(b, "node", n->nid);
		sa_json_put_uint(b, "wakes", n->wakes);
		sa_json_put_uint(b, "sleeps", n->sleeps);
		sa_json_put_uint(b, "requests", n->requests);
		sa_json_put_uint(b, "busy_ns", n->busy_ns);
		sa_json_put_int(b, "max_order", n->max_order);
		m_bool(b, "awake_at_end", n->awake_at_end);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_begin_member(b, "shrinkers", true);
	for (i = 0; i < r->shrinkers->len; i++) {
		const struct sa_shrinker *s = r->shrinkers->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "shrinker", s->sym);
		sa_json_put_uint(b, "calls", s->calls);
		sa_json_put_uint(b, "sum_ns", s->sum_ns);
		sa_json_put_uint(b, "max_ns", s->max_ns);
		sa_json_put_uint(b, "to_scan", s->to_scan);
		sa_json_put_uint(b, "freed", s->freed);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "lru_total");
	lru_row(b, &r->lru_total);
	sa_json_begin_member(b, "lru", true);
	for (i = 0; i < r->lru->len; i++)
		lru_row(b, r->lru->pdata[i]);
	json_builder_end_array(b);
	sa_json_put_uint(b, "pages_written", r->writes);
	json_builder_end_object(b);
}

/* ---- csv ---- */

static const char lat_cols[] = "count,sum_ns,max_ns,reclaimed_pages,"
	"lt_10us,lt_100us,lt_1ms,lt_10ms,lt_100ms,lt_1s,ge_1s";

static void lat_cells(FILE *f, const struct sa_rc_lat *l)
{
	int i;

	fprintf(f, "%" U ",%" U ",%" U ",%" U, l->count, l->sum_ns,
		l->max_ns, l->reclaimed);
	for (i = 0; i < SA_LAT_BUCKETS; i++)
		fprintf(f, ",%" U, l->hist[i]);
	fputc('\n', f);
}

void sa_csv_reclaim(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_reclaim_result *r = result;
	FILE *f = e->out;
	guint i;
	int k;

	fprintf(f, "\nreclaim_summary,kind,unfinished,pages_written,%s\n",
		lat_cols);
	for (k = 0; k < SA_RC_KINDS; k++) {
		fprintf(f, "reclaim_summary,%s,%" U ",%" U ",",
			sa_rc_kind_name(k), r->unfinished[k], r->writes);
		lat_cells(f, &r->total[k]);
	}
	fprintf(f, "\nreclaim_task,kind,pid,comm,%s\n", lat_cols);
	for (k = 0; k < SA_RC_KINDS; k++)
		for (i = 0; i < r->tasks[k]->len; i++) {
			const struct sa_rc_task *t = r->tasks[k]->pdata[i];

			fprintf(f, "reclaim_task,%s,%d,", sa_rc_kind_name(k),
				t->pid);
			sa_csv_str(f, t->comm);
			fputc(',', f);
			lat_cells(f, &t->lat);
		}
	fprintf(f, "\nkswapd,node,wakes,sleeps,requests,busy_ns,max_order,"
		"awake_at_end\n");
	for (i = 0; i < r->kswapd->len; i++) {
		const struct sa_kswapd_node *n = &g_array_index(r->kswapd,
						struct sa_kswapd_node, i);

		fprintf(f, "kswapd,%d,%" U ",%" U ",%" U ",%" U ",%d,%d\n",
			n->nid, n->wakes, n->sleeps, n->requests, n->busy_ns,
			n->max_order, n->awake_at_end);
	}
	fprintf(f, "\nshrinker,shrinker,calls,sum_ns,max_ns,to_scan,freed\n");
	for (i = 0; i < r->shrinkers->len; i++) {
		const struct sa_shrinker *s = r->shrinkers->pdata[i];

		fputs("shrinker,", f);
		sa_csv_str(f, s->sym);
		fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U "\n", s->calls,
			s->sum_ns, s->max_ns, s->to_scan, s->freed);
	}
	fprintf(f, "\nlru,what,calls,scanned,reclaimed,efficiency_pct\n");
	for (i = 0; i <= r->lru->len; i++) {
		const struct sa_lru_row *l = i < r->lru->len ?
			r->lru->pdata[i] : &r->lru_total;

		fputs("lru,", f);
		sa_csv_str(f, l->what);
		fprintf(f, ",%" U ",%" U ",%" U ",%.2f\n", l->calls,
			l->scanned, l->reclaimed, l->efficiency);
	}
}
