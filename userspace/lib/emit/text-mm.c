// SPDX-License-Identifier: GPL-2.0
/*
 * Text output of the pages, reclaim, compaction and oom sections, under
 * 80 columns (names are cut to the width). Times are in ms, byte counts
 * scaled (K = 1024) as in the other sections.
 */
#include "report/agg/compaction.h"
#include "report/agg/oom.h"
#include "report/agg/pages.h"
#include "report/agg/reclaim.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))
#define MS(ns) ((double)(ns) / 1e6)
#define TOP_ROWS 10

/* ---- pages ---- */

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

/* ---- reclaim ---- */

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

/* ---- compaction ---- */

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

/* ---- oom ---- */

static void kill_text(const struct sa_emit *e, guint n,
		      const struct sa_oom_kill *k)
{
	FILE *f = e->out;
	guint i;
	int s;

	fprintf(f, "\nkill %u at %" U ".%06" U " s: victim pid %d (%s)\n",
		n, k->rel_ns / 1000000000, k->rel_ns % 1000000000 / 1000,
		k->victim_pid, sa_esc(k->victim_comm));
	if (k->have_rss)
		fprintf(f, "  rss: anon %" U " kB, file %" U " kB, shmem %" U
			" kB", k->anon_rss_kb, k->file_rss_kb,
			k->shmem_rss_kb);
	if (k->have_score_adj)
		fprintf(f, "%soom_score_adj %" G_GINT64_FORMAT,
			k->have_rss ? ", " : "  ", k->score_adj);
	if (k->have_rss || k->have_score_adj)
		fputc('\n', f);
	fprintf(f, "  triggered by pid %d (%s)", k->trigger_pid,
		sa_esc(k->trigger_comm));
	if (k->trigger_order >= 0)
		fprintf(f, ": order %" G_GINT64_FORMAT " allocation",
			k->trigger_order);
	fprintf(f, "\n  retries before the kill: %" U " reclaim, %" U
		" compaction\n", k->reclaim_retries, k->compact_retries);
	if (k->trigger_gfp) {
		fprintf(f, "  gfp: ");
		sa_text_tail_name(e, 7, k->trigger_gfp);
	}
	fprintf(f, "  reaping:");
	for (s = 0; s < SA_OOM_STEPS; s++)
		if (k->step_ns[s] >= 0)
			fprintf(f, "%s %s +%.3f ms", s ? "," : "",
				sa_oom_step_name(s), MS(k->step_ns[s]));
	if (k->step_ns[SA_OOM_WAKE_REAPER] < 0 &&
	    k->step_ns[SA_OOM_START_REAP] < 0 &&
	    k->step_ns[SA_OOM_SKIP_REAP] < 0)
		fprintf(f, " no reaper events for this victim");
	fputc('\n', f);
	if (!k->holders_known) {
		fprintf(f, "  top live call sites: not available (no kmem "
			"allocations in the trace)\n");
		return;
	}
	fprintf(f, "  top live call sites then:\n  %8s %7s %-7s %s\n",
		"live_b", "objs", "kind", "site");
	for (i = 0; i < k->holders->len; i++) {
		const struct sa_oom_holder *h = k->holders->pdata[i];

		fprintf(f, "  %8s %7" U " %-7s ", H(h->live_bytes), h->live,
			h->kind);
		sa_text_tail_name(e, 27, h->sym ? h->sym : "?");
		if (h->site)
			sa_text_where(e, 10, h->site->file, h->site->line);
	}
}

void sa_text_oom(struct sa_emit *e, const struct sa_report *rep,
		 const void *result)
{
	const struct sa_oom_result *r = result;
	guint i;

	fprintf(e->out, "\n== oom ==\n# kills: %u, reclaim retries: %" U
		", compaction retries: %" U "\n", r->kills->len,
		r->reclaim_retries, r->compact_retries);
	for (i = 0; i < r->kills->len; i++)
		kill_text(e, i + 1, r->kills->pdata[i]);
}
