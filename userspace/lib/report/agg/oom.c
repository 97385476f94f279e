// SPDX-License-Identifier: GPL-2.0
/*
 * The OOM aggregator: see report/agg/oom.h. A kill is an oom:mark_victim; the
 * reaper's events are matched to the latest kill of their pid. The live
 * call sites are read from the callsite aggregator's state at the moment
 * of the kill (sa_callsite_top_live), so they are what held the memory
 * then, not at the end of the trace.
 */
#include <event-parse.h>

#include "report/agg/oom.h"
#include "report/agg/reclaim.h"
#include "report/flags.h"
#include "report/pipeline.h"

struct trig {
	gint64 order;			/* -1: no direct reclaim seen */
	guint64 gfp;
	guint64 reclaim_retries, compact_retries;
};

struct oom_state {
	struct sa_pipeline *p;
	struct sa_oom_result *res;
	GHashTable *trig;		/* pid -> struct trig */
	GHashTable *trig_gfp;		/* kill -> gfp value, rendered later */
};

const char *sa_oom_step_name(int step)
{
	static const char *const names[SA_OOM_STEPS] = {
		"wake_reaper", "start_task_reaping", "finish_task_reaping",
		"skip_task_reaping",
	};

	return step >= 0 && step < SA_OOM_STEPS ? names[step] : "?";
}

static void holder_free(gpointer p)
{
	struct sa_oom_holder *h = p;

	g_free(h->sym);
	g_free(h);
}

static void kill_free(gpointer p)
{
	struct sa_oom_kill *k = p;

	g_free(k->trigger_gfp);
	if (k->holders)
		g_ptr_array_free(k->holders, TRUE);
	g_free(k);
}

static void *oom_create(const struct sa_report_opts *opts,
			struct sa_pipeline *p)
{
	struct oom_state *st = g_new0(struct oom_state, 1);

	st->p = p;
	st->res = g_new0(struct sa_oom_result, 1);
	st->res->kills = g_ptr_array_new_with_free_func(kill_free);
	st->trig = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);
	st->trig_gfp = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					     NULL, g_free);
	return st;
}

static void oom_free_result(void *result)
{
	struct sa_oom_result *r = result;

	if (!r)
		return;
	g_ptr_array_free(r->kills, TRUE);
	g_free(r);
}

static void oom_destroy(void *state)
{
	struct oom_state *st = state;

	g_hash_table_destroy(st->trig);
	g_hash_table_destroy(st->trig_gfp);
	oom_free_result(st->res);
	g_free(st);
}

static struct trig *trig_get(struct oom_state *st, gint32 pid)
{
	gpointer key = GINT_TO_POINTER(pid);
	struct trig *t = g_hash_table_lookup(st->trig, key);

	if (!t) {
		t = g_new0(struct trig, 1);
		t->order = -1;
		g_hash_table_insert(st->trig, key, t);
	}
	return t;
}

static void on_victim(struct oom_state *st, const struct sa_rec *r)
{
	struct sa_oom_kill *k = g_new0(struct sa_oom_kill, 1);
	struct trig *t = trig_get(st, r->pid);
	void *cs = st->p ? sa_pipeline_state(st->p, SA_SEC_CALLSITE) :
		   NULL;
	int i;

	k->ts = r->ts;
	k->victim_pid = (gint32)r->v[SA_OV_PID];
	if (r->have & (1u << SA_OV_COMM))
		k->victim_comm = (const char *)(uintptr_t)r->v[SA_OV_COMM];
	k->have_rss = r->have & (1u << SA_OV_ANON_RSS);
	k->anon_rss_kb = r->v[SA_OV_ANON_RSS];
	k->file_rss_kb = r->v[SA_OV_FILE_RSS];
	k->shmem_rss_kb = r->v[SA_OV_SHMEM_RSS];
	k->have_score_adj = r->have & (1u << SA_OV_SCORE_ADJ);
	k->score_adj = (gint16)r->v[SA_OV_SCORE_ADJ];
	k->trigger_pid = r->pid;
	k->trigger_order = t->order;
	if (t->order >= 0)
		g_hash_table_insert(st->trig_gfp, k,
				    g_memdup2(&t->gfp, sizeof(t->gfp)));
	k->reclaim_retries = t->reclaim_retries;
	k->compact_retries = t->compact_retries;
	t->reclaim_retries = t->compact_retries = 0;
	for (i = 0; i < SA_OOM_STEPS; i++)
		k->step_ns[i] = -1;
	k->holders = g_ptr_array_new_with_free_func(holder_free);
	if (cs) {
		GPtrArray *top = sa_callsite_top_live(cs, SA_OOM_TOP);
		guint j;

		for (j = 0; j < top->len; j++) {
			const struct sa_site *s = top->pdata[j];
			struct sa_oom_holder *h = g_new0(struct sa_oom_holder,
							 1);

			h->site = s;
			h->live = s->live;
			h->live_bytes = s->live_alloc;
			g_ptr_array_add(k->holders, h);
		}
		g_ptr_array_free(top, TRUE);
	}
	g_ptr_array_add(st->res->kills, k);
}

static void on_step(struct oom_state *st, const struct sa_rec *r, int step)
{
	GPtrArray *kills = st->res->kills;
	gint32 pid = (gint32)r->v[SA_OR_PID];
	guint i;

	for (i = kills->len; i-- > 0;) {
		struct sa_oom_kill *k = kills->pdata[i];

		if (k->victim_pid != pid)
			continue;
		if (k->step_ns[step] < 0)
			k->step_ns[step] = r->ts > k->ts ? r->ts - k->ts : 0;
		return;
	}
}

static void oom_event(void *state, struct sa_rec *r)
{
	struct oom_state *st = state;
	struct trig *t;

	switch (r->ev) {
	case SA_EV_DIRECT_BEGIN:
		t = trig_get(st, r->pid);
		t->order = (gint32)r->v[SA_RC_ORDER];
		t->gfp = r->v[SA_RC_GFP];
		break;
	case SA_EV_OOM_RECLAIM_RETRY:
		trig_get(st, r->pid)->reclaim_retries++;
		st->res->reclaim_retries++;
		break;
	case SA_EV_OOM_COMPACT_RETRY:
		trig_get(st, r->pid)->compact_retries++;
		st->res->compact_retries++;
		break;
	case SA_EV_OOM_VICTIM:
		on_victim(st, r);
		break;
	case SA_EV_OOM_WAKE_REAPER:
		on_step(st, r, SA_OOM_WAKE_REAPER);
		break;
	case SA_EV_OOM_START_REAP:
		on_step(st, r, SA_OOM_START_REAP);
		break;
	case SA_EV_OOM_FINISH_REAP:
		on_step(st, r, SA_OOM_FINISH_REAP);
		break;
	case SA_EV_OOM_SKIP_REAP:
		on_step(st, r, SA_OOM_SKIP_REAP);
		break;
	default:
		break;
	}
}

static const char *comm_of(struct sa_report *rep, gint32 pid)
{
	const char *c = rep->tep ? tep_data_comm_from_pid(rep->tep, pid) :
			NULL;

	return g_intern_string(c ? c : "<...>");
}

static void *oom_finish(void *state, struct sa_report *rep)
{
	struct oom_state *st = state;
	struct sa_oom_result *res = st->res;
	bool kmem = rep->ev_present[SA_EV_KMALLOC] ||
		    rep->ev_present[SA_EV_CACHE_ALLOC];
	guint i, j;

	res->have_victim = rep->ev_present[SA_EV_OOM_VICTIM];
	res->have_reaper = rep->ev_present[SA_EV_OOM_WAKE_REAPER] ||
			   rep->ev_present[SA_EV_OOM_START_REAP];
	if (!res->have_victim)
		sa_report_note(rep, "oom: the trace has no oom:mark_victim "
			       "events (record with -e oom)");
	else if (!kmem)
		sa_report_note(rep, "oom: the top live call sites at a kill "
			       "are not available: the trace has no kmem "
			       "allocations (record with -e kmem,oom)");
	for (i = 0; i < res->kills->len; i++) {
		struct sa_oom_kill *k = res->kills->pdata[i];
		guint64 *gfp = g_hash_table_lookup(st->trig_gfp, k);

		k->rel_ns = k->ts > rep->first_ts ? k->ts - rep->first_ts : 0;
		if (!k->victim_comm)
			k->victim_comm = comm_of(rep, k->victim_pid);
		k->trigger_comm = comm_of(rep, k->trigger_pid);
		if (gfp)
			k->trigger_gfp = sa_report_flags(rep,
							 SA_EV_DIRECT_BEGIN,
							 SA_RC_GFP, *gfp);
		k->holders_known = kmem;
		for (j = 0; j < k->holders->len; j++) {
			struct sa_oom_holder *h = k->holders->pdata[j];

			h->sym = g_strdup(h->site->sym);
			h->kind = h->site->kind == SA_KIND_KMALLOC ?
				  "kmalloc" : "cache";
		}
	}
	st->res = NULL;
	return res;
}

const struct sa_agg sa_agg_oom = {
	.events = SA_EVBIT(SA_EV_OOM_VICTIM) | SA_EVBIT(SA_EV_OOM_WAKE_REAPER) |
		  SA_EVBIT(SA_EV_OOM_START_REAP) |
		  SA_EVBIT(SA_EV_OOM_FINISH_REAP) |
		  SA_EVBIT(SA_EV_OOM_SKIP_REAP) |
		  SA_EVBIT(SA_EV_OOM_RECLAIM_RETRY) |
		  SA_EVBIT(SA_EV_OOM_COMPACT_RETRY) |
		  SA_EVBIT(SA_EV_DIRECT_BEGIN),
	.create = oom_create,
	.event = oom_event,
	.finish = oom_finish,
	.destroy = oom_destroy,
	.free_result = oom_free_result,
};
