// SPDX-License-Identifier: GPL-2.0
/*
 * CSV output of the pages, reclaim, compaction and oom sections: one
 * table per kind of row, each with a header row and the table's name as
 * its first column (listed in emit/emit-mm.h). Column names are stable.
 */
#include "report/agg/compaction.h"
#include "report/agg/oom.h"
#include "report/agg/pages.h"
#include "report/agg/reclaim.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define D G_GINT64_FORMAT

/* ---- pages ---- */

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

/* ---- reclaim ---- */

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

/* ---- compaction ---- */

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

/* ---- oom ---- */

static void opt_int(FILE *f, bool have, gint64 v)
{
	if (have)
		fprintf(f, ",%" D, v);
	else
		fputc(',', f);
}

void sa_csv_oom(struct sa_emit *e, const struct sa_report *rep,
		const void *result)
{
	const struct sa_oom_result *r = result;
	FILE *f = e->out;
	guint i, j;
	int s;

	fprintf(f, "\noom_kill,kill,ts_ns,rel_ns,victim_pid,victim_comm,"
		"anon_rss_kb,file_rss_kb,shmem_rss_kb,oom_score_adj,"
		"trigger_pid,trigger_comm,trigger_order,trigger_gfp,"
		"reclaim_retries,compact_retries,wake_reaper_ns,"
		"start_task_reaping_ns,finish_task_reaping_ns,"
		"skip_task_reaping_ns\n");
	for (i = 0; i < r->kills->len; i++) {
		const struct sa_oom_kill *k = r->kills->pdata[i];

		fprintf(f, "oom_kill,%u,%" U ",%" U ",%d,", i + 1, k->ts,
			k->rel_ns, k->victim_pid);
		sa_csv_str(f, k->victim_comm);
		opt_int(f, k->have_rss, k->anon_rss_kb);
		opt_int(f, k->have_rss, k->file_rss_kb);
		opt_int(f, k->have_rss, k->shmem_rss_kb);
		opt_int(f, k->have_score_adj, k->score_adj);
		fprintf(f, ",%d,", k->trigger_pid);
		sa_csv_str(f, k->trigger_comm);
		opt_int(f, k->trigger_order >= 0, k->trigger_order);
		fputc(',', f);
		sa_csv_str(f, k->trigger_gfp);
		fprintf(f, ",%" U ",%" U, k->reclaim_retries,
			k->compact_retries);
		for (s = 0; s < SA_OOM_STEPS; s++)
			opt_int(f, k->step_ns[s] >= 0, k->step_ns[s]);
		fputc('\n', f);
	}
	fprintf(f, "\noom_holder,kill,rank,site,kind,live,live_bytes\n");
	for (i = 0; i < r->kills->len; i++) {
		const struct sa_oom_kill *k = r->kills->pdata[i];

		for (j = 0; k->holders_known && j < k->holders->len; j++) {
			const struct sa_oom_holder *h = k->holders->pdata[j];

			fprintf(f, "oom_holder,%u,%u,", i + 1, j + 1);
			sa_csv_str(f, h->sym);
			fprintf(f, ",%s,%" U ",%" U "\n", h->kind, h->live,
				h->live_bytes);
		}
	}
}
