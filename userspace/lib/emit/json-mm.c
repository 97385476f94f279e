// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of the pages, reclaim, compaction and oom sections, through
 * json-glib: one object per section under "sections", exact numbers,
 * times in ns, percentages with two decimals.
 */
#include <math.h>

#include "report/agg/compaction.h"
#include "report/agg/oom.h"
#include "report/agg/pages.h"
#include "report/agg/reclaim.h"
#include "emit/emit-mm.h"


static void m_bool(JsonBuilder *b, const char *k, bool v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_boolean_value(b, v);
}

static void begin(JsonBuilder *b, const char *k, bool array)
{
	json_builder_set_member_name(b, k);
	if (array)
		json_builder_begin_array(b);
	else
		json_builder_begin_object(b);
}

/* ---- pages ---- */

/* [{order, migratetype, blocks, pages}] of the non-empty cells */
static void cells(JsonBuilder *b, const char *k,
		  const struct sa_pg_cell (*c)[SA_PG_MTS])
{
	int o, m;

	begin(b, k, true);
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
		begin(b, "unusable", true);
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

	begin(b, "pages", false);
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
	begin(b, "freed", true);
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
	begin(b, "gfp", true);
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
	begin(b, "tasks", true);
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
	sa_json_put_str(b, "by_callsite", "not available: mm_page_alloc "
			"carries no call site");
	begin(b, "extfrag", false);
	sa_json_put_uint(b, "fallbacks", r->fallbacks);
	sa_json_put_uint(b, "steals", r->steals);
	begin(b, "by_migratetype", true);
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
	begin(b, "unusable_index", false);
	frag(b, "start", r->frag_start);
	frag(b, "end", r->frag_end);
	if (!r->frag_start && !r->frag_end)
		sa_json_put_str(b, "not_available", r->frag_why);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

/* ---- reclaim ---- */

static void lat(JsonBuilder *b, const struct sa_rc_lat *l)
{
	int i;

	sa_json_put_uint(b, "count", l->count);
	sa_json_put_uint(b, "sum_ns", l->sum_ns);
	sa_json_put_uint(b, "max_ns", l->max_ns);
	sa_json_put_uint(b, "reclaimed_pages", l->reclaimed);
	begin(b, "histogram", false);
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

	begin(b, "reclaim", false);
	for (k = 0; k < SA_RC_KINDS; k++) {
		begin(b, sa_rc_kind_name(k), false);
		m_bool(b, "in_trace", k == SA_RC_DIRECT ? r->have_direct :
		       r->have_memcg);
		lat(b, &r->total[k]);
		sa_json_put_uint(b, "unfinished", r->unfinished[k]);
		begin(b, "tasks", true);
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
	begin(b, "kswapd", true);
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
	begin(b, "shrinkers", true);
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
	begin(b, "lru", true);
	for (i = 0; i < r->lru->len; i++)
		lru_row(b, r->lru->pdata[i]);
	json_builder_end_array(b);
	sa_json_put_uint(b, "pages_written", r->writes);
	json_builder_end_object(b);
}

/* ---- compaction ---- */

void sa_json_compaction(struct sa_emit *e, const struct sa_report *rep,
			const void *result)
{
	const struct sa_compaction_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int o;

	begin(b, "compaction", false);
	sa_json_put_uint(b, "runs", r->runs);
	sa_json_put_uint(b, "sum_ns", r->sum_ns);
	sa_json_put_uint(b, "max_ns", r->max_ns);
	sa_json_put_uint(b, "unfinished", r->unfinished);
	for (o = 0; o < 2; o++) {
		begin(b, o ? "sync" : "async", false);
		sa_json_put_uint(b, "runs", r->mode[o].runs);
		sa_json_put_uint(b, "sum_ns", r->mode[o].sum_ns);
		sa_json_put_uint(b, "max_ns", r->mode[o].max_ns);
		json_builder_end_object(b);
	}
	begin(b, "outcomes", true);
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
	begin(b, "deferrals_by_order", true);
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

/* ---- oom ---- */

static void kill_json(JsonBuilder *b, const struct sa_oom_kill *k)
{
	guint i;
	int s;

	json_builder_begin_object(b);
	sa_json_put_uint(b, "ts_ns", k->ts);
	sa_json_put_uint(b, "rel_ns", k->rel_ns);
	sa_json_put_int(b, "victim_pid", k->victim_pid);
	sa_json_put_str(b, "victim_comm", k->victim_comm);
	if (k->have_rss) {
		sa_json_put_uint(b, "anon_rss_kb", k->anon_rss_kb);
		sa_json_put_uint(b, "file_rss_kb", k->file_rss_kb);
		sa_json_put_uint(b, "shmem_rss_kb", k->shmem_rss_kb);
	}
	if (k->have_score_adj)
		sa_json_put_int(b, "oom_score_adj", k->score_adj);
	sa_json_put_int(b, "trigger_pid", k->trigger_pid);
	sa_json_put_str(b, "trigger_comm", k->trigger_comm);
	json_builder_set_member_name(b, "trigger_order");
	if (k->trigger_order >= 0)
		json_builder_add_int_value(b, k->trigger_order);
	else
		json_builder_add_null_value(b);
	sa_json_put_str(b, "trigger_gfp", k->trigger_gfp);
	sa_json_put_uint(b, "reclaim_retries", k->reclaim_retries);
	sa_json_put_uint(b, "compact_retries", k->compact_retries);
	begin(b, "reaping_ns", false);
	for (s = 0; s < SA_OOM_STEPS; s++) {
		json_builder_set_member_name(b, sa_oom_step_name(s));
		if (k->step_ns[s] >= 0)
			json_builder_add_int_value(b, k->step_ns[s]);
		else
			json_builder_add_null_value(b);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "top_live_callsites");
	if (!k->holders_known) {
		json_builder_add_null_value(b);
		json_builder_end_object(b);
		return;
	}
	json_builder_begin_array(b);
	for (i = 0; i < k->holders->len; i++) {
		const struct sa_oom_holder *h = k->holders->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "site", h->sym);
		sa_json_put_str(b, "kind", h->kind);
		sa_json_put_uint(b, "live", h->live);
		sa_json_put_uint(b, "live_bytes", h->live_bytes);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void sa_json_oom(struct sa_emit *e, const struct sa_report *rep,
		 const void *result)
{
	const struct sa_oom_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	begin(b, "oom", false);
	sa_json_put_int(b, "nr_kills", r->kills->len);
	sa_json_put_uint(b, "reclaim_retries", r->reclaim_retries);
	sa_json_put_uint(b, "compact_retries", r->compact_retries);
	begin(b, "kills", true);
	for (i = 0; i < r->kills->len; i++)
		kill_json(b, r->kills->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}
