// SPDX-License-Identifier: GPL-2.0
/*
 * The oom section (report/agg/oom.c) in text, JSON and CSV.
 *
 * text: under 80 columns (names cut to the width), times in ms, byte
 * counts scaled (K = 1024). json: one object under "sections", exact
 * numbers, times in ns, percentages with two decimals. csv: the tables
 * oom_kill and oom_holder, each with a header row and its name as first
 * column.
 */
#include "report/agg/oom.h"
#include "emit/emit-mm.h"

#define U G_GUINT64_FORMAT
#define D G_GINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))
#define MS(ns) ((double)(ns) / 1e6)

/* ---- text ---- */

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

/* ---- json ---- */

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
	sa_json_begin_member(b, "reaping_ns", false);
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

	sa_json_begin_member(b, "oom", false);
	sa_json_put_int(b, "nr_kills", r->kills->len);
	sa_json_put_uint(b, "reclaim_retries", r->reclaim_retries);
	sa_json_put_uint(b, "compact_retries", r->compact_retries);
	sa_json_begin_member(b, "kills", true);
	for (i = 0; i < r->kills->len; i++)
		kill_json(b, r->kills->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* ---- csv ---- */

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
