// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim aggregator: see report/agg/reclaim.h. Begin/end events are paired
 * by pid (a task runs one reclaim and one shrinker at a time); kswapd's
 * wake and sleep by node.
 */
#include <string.h>

#include <event-parse.h>

#include "report/agg/reclaim.h"
#include "report/flags.h"
#include "symbols/symbols.h"

struct pending {
	guint64 ts;
	guint64 a, b;		/* shrinker: shr, shrink, to_scan */
	guint64 c;
};

struct rc_state {
	struct sa_reclaim_result *res;
	GHashTable *begun[SA_RC_KINDS];	/* pid -> struct pending * */
	GHashTable *tasks[SA_RC_KINDS];	/* pid -> struct sa_rc_task * */
	GHashTable *shr_begun;		/* pid -> struct pending * */
	GHashTable *shrinkers;		/* shrink addr -> struct sa_shrinker */
	GHashTable *lru_flags;		/* flags -> struct sa_lru_row * */
	struct sa_lru_row ctx[3];	/* direct, memcg, kswapd/other */
	struct sa_kswapd_node node[SA_KSWAPD_NODES];
	guint64 wake_ts[SA_KSWAPD_NODES];
	bool seen[SA_KSWAPD_NODES];
	guint64 last_ts;
};

int sa_lat_bucket(guint64 ns)
{
	guint64 lim = 10000;	/* 10 us */
	int b;

	for (b = 0; b < SA_LAT_BUCKETS - 1; b++, lim *= 10)
		if (ns < lim)
			return b;
	return SA_LAT_BUCKETS - 1;
}

const char *sa_lat_label(int bucket)
{
	static const char *const labels[SA_LAT_BUCKETS] = {
		"<10us", "<100us", "<1ms", "<10ms", "<100ms", "<1s", ">=1s",
	};

	return labels[bucket >= 0 && bucket < SA_LAT_BUCKETS ? bucket : 0];
}

const char *sa_rc_kind_name(int kind)
{
	return kind == SA_RC_DIRECT ? "direct" : "memcg";
}

static void *rc_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct rc_state *st = g_new0(struct rc_state, 1);
	int k;

	st->res = g_new0(struct sa_reclaim_result, 1);
	for (k = 0; k < SA_RC_KINDS; k++) {
		st->begun[k] = g_hash_table_new_full(g_direct_hash,
						     g_direct_equal, NULL,
						     g_free);
		st->tasks[k] = g_hash_table_new_full(g_direct_hash,
						     g_direct_equal, NULL,
						     g_free);
	}
	st->shr_begun = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					      NULL, g_free);
	st->shrinkers = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					      NULL, g_free);
	st->lru_flags = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					      g_free, g_free);
	return st;
}

static void lru_row_free(gpointer p)
{
	struct sa_lru_row *l = p;

	g_free(l->what);
	g_free(l);
}

static void shrinker_free(gpointer p)
{
	struct sa_shrinker *s = p;

	g_free(s->sym);
	g_free(s);
}

static void rc_free_result(void *result)
{
	struct sa_reclaim_result *r = result;
	int k;

	if (!r)
		return;
	for (k = 0; k < SA_RC_KINDS; k++)
		if (r->tasks[k])
			g_ptr_array_free(r->tasks[k], TRUE);
	if (r->kswapd)
		g_array_free(r->kswapd, TRUE);
	if (r->shrinkers)
		g_ptr_array_free(r->shrinkers, TRUE);
	if (r->lru)
		g_ptr_array_free(r->lru, TRUE);
	g_free(r->lru_total.what);
	g_free(r);
}

static void rc_destroy(void *state)
{
	struct rc_state *st = state;
	int k;

	for (k = 0; k < SA_RC_KINDS; k++) {
		g_hash_table_destroy(st->begun[k]);
		g_hash_table_destroy(st->tasks[k]);
	}
	g_hash_table_destroy(st->shr_begun);
	g_hash_table_destroy(st->shrinkers);
	g_hash_table_destroy(st->lru_flags);
	rc_free_result(st->res);
	g_free(st);
}

static void lat_add(struct sa_rc_lat *l, guint64 ns, guint64 reclaimed)
{
	l->count++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	l->hist[sa_lat_bucket(ns)]++;
	l->reclaimed += reclaimed;
}

static void rc_begin(struct rc_state *st, int kind, const struct sa_rec *r)
{
	struct pending *p = g_new0(struct pending, 1);

	p->ts = r->ts;
	g_hash_table_replace(st->begun[kind], GINT_TO_POINTER(r->pid), p);
}

static void rc_end(struct rc_state *st, int kind, const struct sa_rec *r)
{
	gpointer key = GINT_TO_POINTER(r->pid);
	struct pending *p = g_hash_table_lookup(st->begun[kind], key);
	struct sa_rc_task *t;
	guint64 ns;

	if (!p)
		return;		/* begun before the trace */
	ns = r->ts > p->ts ? r->ts - p->ts : 0;
	g_hash_table_remove(st->begun[kind], key);
	t = g_hash_table_lookup(st->tasks[kind], key);
	if (!t) {
		t = g_new0(struct sa_rc_task, 1);
		t->pid = r->pid;
		g_hash_table_insert(st->tasks[kind], key, t);
	}
	lat_add(&t->lat, ns, r->v[SA_RC_RECLAIMED]);
	lat_add(&st->res->total[kind], ns, r->v[SA_RC_RECLAIMED]);
}

static int node_of(const struct sa_rec *r)
{
	guint64 nid = r->v[SA_KS_NID];

	return nid < SA_KSWAPD_NODES ? (int)nid : -1;
}

static void ks_event(struct rc_state *st, const struct sa_rec *r)
{
	int n = node_of(r);
	struct sa_kswapd_node *k;

	if (n < 0)
		return;
	k = &st->node[n];
	st->seen[n] = true;
	switch (r->ev) {
	case SA_EV_KSWAPD_WAKE:
		k->wakes++;
		if ((int)r->v[SA_KS_ORDER] > k->max_order)
			k->max_order = (int)r->v[SA_KS_ORDER];
		if (!k->awake_at_end) {
			k->awake_at_end = true;
			st->wake_ts[n] = r->ts;
		}
		break;
	case SA_EV_KSWAPD_SLEEP:
		k->sleeps++;
		if (k->awake_at_end && r->ts > st->wake_ts[n])
			k->busy_ns += r->ts - st->wake_ts[n];
		k->awake_at_end = false;
		break;
	case SA_EV_WAKEUP_KSWAPD:
		k->requests++;
		break;
	default:
		break;
	}
}

static void shrink_start(struct rc_state *st, const struct sa_rec *r)
{
	struct pending *p = g_new0(struct pending, 1);

	p->ts = r->ts;
	p->a = r->v[SA_SS_SHR];
	p->b = r->v[SA_SS_SHRINK];
	p->c = r->v[SA_SS_TOTAL_SCAN];
	g_hash_table_replace(st->shr_begun, GINT_TO_POINTER(r->pid), p);
}

static void shrink_end(struct rc_state *st, const struct sa_rec *r)
{
	gpointer key = GINT_TO_POINTER(r->pid);
	struct pending *p = g_hash_table_lookup(st->shr_begun, key);
	struct sa_shrinker *s;
	guint64 ns;

	if (!p || p->a != r->v[SA_SE_SHR])
		return;
	ns = r->ts > p->ts ? r->ts - p->ts : 0;
	s = g_hash_table_lookup(st->shrinkers, &p->b);
	if (!s) {
		s = g_new0(struct sa_shrinker, 1);
		s->shrink = p->b;
		g_hash_table_insert(st->shrinkers, &s->shrink, s);
	}
	s->calls++;
	s->sum_ns += ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->to_scan += p->c;
	/* retval is the objects freed; negative values are errors */
	if ((gint32)r->v[SA_SE_RETVAL] > 0)
		s->freed += (gint32)r->v[SA_SE_RETVAL];
	g_hash_table_remove(st->shr_begun, key);
}

static void lru_add(struct sa_lru_row *l, const struct sa_rec *r)
{
	l->calls++;
	l->scanned += r->v[SA_LRU_SCANNED];
	l->reclaimed += r->v[SA_LRU_RECLAIMED];
}

static void lru_event(struct rc_state *st, const struct sa_rec *r)
{
	gpointer key = GINT_TO_POINTER(r->pid);
	guint64 flags = r->v[SA_LRU_FLAGS];
	struct sa_lru_row *l;
	int ctx = g_hash_table_contains(st->begun[SA_RC_DIRECT], key) ? 0 :
		  g_hash_table_contains(st->begun[SA_RC_MEMCG], key) ? 1 : 2;

	lru_add(&st->ctx[ctx], r);
	lru_add(&st->res->lru_total, r);
	l = g_hash_table_lookup(st->lru_flags, &flags);
	if (!l) {
		guint64 *k = g_new(guint64, 1);

		*k = flags;
		l = g_new0(struct sa_lru_row, 1);
		g_hash_table_insert(st->lru_flags, k, l);
	}
	lru_add(l, r);
}

static void rc_event(void *state, struct sa_rec *r)
{
	struct rc_state *st = state;

	st->last_ts = r->ts;
	switch (r->ev) {
	case SA_EV_DIRECT_BEGIN:
		rc_begin(st, SA_RC_DIRECT, r);
		break;
	case SA_EV_DIRECT_END:
		rc_end(st, SA_RC_DIRECT, r);
		break;
	case SA_EV_MEMCG_BEGIN:
		rc_begin(st, SA_RC_MEMCG, r);
		break;
	case SA_EV_MEMCG_END:
		rc_end(st, SA_RC_MEMCG, r);
		break;
	case SA_EV_KSWAPD_WAKE:
	case SA_EV_KSWAPD_SLEEP:
	case SA_EV_WAKEUP_KSWAPD:
		ks_event(st, r);
		break;
	case SA_EV_SHRINK_START:
		shrink_start(st, r);
		break;
	case SA_EV_SHRINK_END:
		shrink_end(st, r);
		break;
	case SA_EV_LRU_INACTIVE:
		lru_event(st, r);
		break;
	case SA_EV_RECLAIM_WRITE:
		st->res->writes++;
		break;
	default:
		break;
	}
}

static void lru_derive(struct sa_lru_row *l)
{
	l->efficiency = l->scanned ? 100.0 * l->reclaimed / l->scanned : 0;
}

static gint by_sum(gconstpointer a, gconstpointer b)
{
	const struct sa_rc_task *x = *(struct sa_rc_task *const *)a;
	const struct sa_rc_task *y = *(struct sa_rc_task *const *)b;

	if (x->lat.sum_ns != y->lat.sum_ns)
		return x->lat.sum_ns > y->lat.sum_ns ? -1 : 1;
	return x->pid - y->pid;
}

static gint by_time(gconstpointer a, gconstpointer b)
{
	const struct sa_shrinker *x = *(struct sa_shrinker *const *)a;
	const struct sa_shrinker *y = *(struct sa_shrinker *const *)b;

	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	return x->shrink < y->shrink ? -1 : x->shrink > y->shrink;
}

static gint by_scanned(gconstpointer a, gconstpointer b)
{
	const struct sa_lru_row *x = *(struct sa_lru_row *const *)a;
	const struct sa_lru_row *y = *(struct sa_lru_row *const *)b;

	if (x->scanned != y->scanned)
		return x->scanned > y->scanned ? -1 : 1;
	return strcmp(x->what, y->what);
}

static char *shrinker_name(struct sa_report *rep, guint64 addr)
{
	struct sa_sym sym;

	if (rep->syms && !sa_symbols_lookup(rep->syms, addr, &sym))
		return sa_sym_format(&sym, addr);
	return g_strdup_printf("0x%" G_GINT64_MODIFIER "x", addr);
}

static void finish_notes(struct sa_report *rep, struct sa_reclaim_result *r)
{
	r->have_direct = rep->ev_present[SA_EV_DIRECT_BEGIN] &&
			 rep->ev_present[SA_EV_DIRECT_END];
	r->have_memcg = rep->ev_present[SA_EV_MEMCG_BEGIN] &&
			rep->ev_present[SA_EV_MEMCG_END];
	r->have_kswapd = rep->ev_present[SA_EV_KSWAPD_WAKE] &&
			 rep->ev_present[SA_EV_KSWAPD_SLEEP];
	r->have_shrink = rep->ev_present[SA_EV_SHRINK_START] &&
			 rep->ev_present[SA_EV_SHRINK_END];
	r->have_lru = rep->ev_present[SA_EV_LRU_INACTIVE];
	if (!r->have_direct && !r->have_kswapd && !r->have_shrink &&
	    !r->have_lru && !r->have_memcg) {
		sa_report_note(rep, "reclaim: the trace has no vmscan events "
			       "(record with -e vmscan)");
		return;
	}
	if (!r->have_direct)
		sa_report_note(rep, "reclaim: direct reclaim latency not "
			       "computed: the trace lacks "
			       "mm_vmscan_direct_reclaim_begin/end");
	if (!r->have_kswapd)
		sa_report_note(rep, "reclaim: kswapd busy time not computed: "
			       "the trace lacks mm_vmscan_kswapd_wake/sleep");
	if (!r->have_shrink)
		sa_report_note(rep, "reclaim: shrinker time not computed: the "
			       "trace lacks mm_shrink_slab_start/end");
	if (!r->have_lru)
		sa_report_note(rep, "reclaim: LRU efficiency not computed: "
			       "the trace lacks mm_vmscan_lru_shrink_inactive");
}

static void *rc_finish(void *state, struct sa_report *rep)
{
	static const char *const ctx_names[] = {
		"direct", "memcg", "kswapd/other",
	};
	struct rc_state *st = state;
	struct sa_reclaim_result *res = st->res;
	GHashTableIter it;
	gpointer k, v;
	guint i;
	int n;

	finish_notes(rep, res);
	for (n = 0; n < SA_RC_KINDS; n++) {
		res->unfinished[n] = g_hash_table_size(st->begun[n]);
		res->tasks[n] = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_iter_init(&it, st->tasks[n]);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			struct sa_rc_task *t = v;
			const char *comm = rep->tep ?
				tep_data_comm_from_pid(rep->tep, t->pid) :
				NULL;

			t->comm = g_intern_string(comm ? comm : "<...>");
			g_ptr_array_add(res->tasks[n], t);
		}
		g_hash_table_steal_all(st->tasks[n]);
		g_ptr_array_sort(res->tasks[n], by_sum);
	}
	res->kswapd = g_array_new(FALSE, TRUE, sizeof(struct sa_kswapd_node));
	for (n = 0; n < SA_KSWAPD_NODES; n++) {
		struct sa_kswapd_node *kn = &st->node[n];

		if (!st->seen[n])
			continue;
		kn->nid = n;
		if (kn->awake_at_end && st->last_ts > st->wake_ts[n])
			kn->busy_ns += st->last_ts - st->wake_ts[n];
		g_array_append_val(res->kswapd, *kn);
	}
	res->shrinkers = g_ptr_array_new_with_free_func(shrinker_free);
	g_hash_table_iter_init(&it, st->shrinkers);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct sa_shrinker *s = v;

		s->sym = shrinker_name(rep, s->shrink);
		g_ptr_array_add(res->shrinkers, s);
	}
	g_hash_table_steal_all(st->shrinkers);
	g_ptr_array_sort(res->shrinkers, by_time);
	res->lru = g_ptr_array_new_with_free_func(lru_row_free);
	for (n = 0; n < 3; n++) {
		struct sa_lru_row *l;

		if (!st->ctx[n].calls)
			continue;
		l = g_memdup2(&st->ctx[n], sizeof(*l));
		l->what = g_strdup(ctx_names[n]);
		lru_derive(l);
		g_ptr_array_add(res->lru, l);
	}
	i = res->lru->len;
	g_hash_table_iter_init(&it, st->lru_flags);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct sa_lru_row *l = v;

		l->what = sa_report_flags(rep, SA_EV_LRU_INACTIVE,
					  SA_LRU_FLAGS, *(guint64 *)k);
		lru_derive(l);
		g_ptr_array_add(res->lru, l);
		g_hash_table_iter_steal(&it);
		g_free(k);
	}
	/* contexts first, then the flag rows by pages scanned */
	if (res->lru->len > i) {
		GPtrArray *tail = g_ptr_array_new();
		guint j;

		for (j = i; j < res->lru->len; j++)
			g_ptr_array_add(tail, res->lru->pdata[j]);
		g_ptr_array_sort(tail, by_scanned);
		for (j = 0; j < tail->len; j++)
			res->lru->pdata[i + j] = tail->pdata[j];
		g_ptr_array_free(tail, TRUE);
	}
	res->lru_total.what = g_strdup("total");
	lru_derive(&res->lru_total);
	st->res = NULL;
	return res;
}

const struct sa_agg sa_agg_reclaim = {
	.events = SA_EVBIT(SA_EV_DIRECT_BEGIN) | SA_EVBIT(SA_EV_DIRECT_END) |
		  SA_EVBIT(SA_EV_KSWAPD_WAKE) | SA_EVBIT(SA_EV_KSWAPD_SLEEP) |
		  SA_EVBIT(SA_EV_WAKEUP_KSWAPD) |
		  SA_EVBIT(SA_EV_SHRINK_START) | SA_EVBIT(SA_EV_SHRINK_END) |
		  SA_EVBIT(SA_EV_LRU_INACTIVE) | SA_EVBIT(SA_EV_MEMCG_BEGIN) |
		  SA_EVBIT(SA_EV_MEMCG_END) | SA_EVBIT(SA_EV_RECLAIM_WRITE),
	.create = rc_create,
	.event = rc_event,
	.finish = rc_finish,
	.destroy = rc_destroy,
	.free_result = rc_free_result,
};
