// SPDX-License-Identifier: GPL-2.0
/*
 * The compaction aggregator: see report/agg/compaction.h. A run is a
 * mm_compaction_begin and the next mm_compaction_end of the same task;
 * its outcome is the end's status, named through the event's own print
 * format (the values differ between kernels).
 */
#include "report/agg/compaction.h"
#include "report/flags.h"

struct cp_state {
	struct sa_compaction_result *res;
	GHashTable *begun;		/* pid -> begin ts + 1 */
	GHashTable *outcomes;		/* status -> struct sa_cp_outcome */
};

static void outcome_free(gpointer p)
{
	struct sa_cp_outcome *o = p;

	g_free(o->name);
	g_free(o);
}

static void *cp_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct cp_state *st = g_new0(struct cp_state, 1);

	st->res = g_new0(struct sa_compaction_result, 1);
	st->begun = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					  g_free);
	st->outcomes = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					     NULL, outcome_free);
	return st;
}

static void cp_free_result(void *result)
{
	struct sa_compaction_result *r = result;

	if (!r)
		return;
	if (r->outcomes)
		g_ptr_array_free(r->outcomes, TRUE);
	g_free(r);
}

static void cp_destroy(void *state)
{
	struct cp_state *st = state;

	g_hash_table_destroy(st->begun);
	g_hash_table_destroy(st->outcomes);
	cp_free_result(st->res);
	g_free(st);
}

static int order_row(guint64 order)
{
	gint64 o = (gint32)order;

	return o < 0 ? 0 : o >= SA_CP_ORDERS - 1 ? SA_CP_ORDERS - 1 : (int)o;
}

static void cp_end(struct cp_state *st, const struct sa_rec *r)
{
	struct sa_compaction_result *res = st->res;
	gpointer key = GINT_TO_POINTER(r->pid);
	guint64 *begin = g_hash_table_lookup(st->begun, key);
	gint64 status = (gint32)r->v[SA_CP_STATUS];
	struct sa_cp_outcome *o;
	struct sa_cp_mode *m;
	guint64 ns;

	if (!begin)
		return;		/* begun before the trace */
	ns = r->ts > *begin ? r->ts - *begin : 0;
	g_hash_table_remove(st->begun, key);
	m = &res->mode[r->v[SA_CP_SYNC] ? 1 : 0];
	m->runs++;
	m->sum_ns += ns;
	if (ns > m->max_ns)
		m->max_ns = ns;
	res->runs++;
	res->sum_ns += ns;
	if (ns > res->max_ns)
		res->max_ns = ns;
	if (!(r->have & (1u << SA_CP_STATUS)))
		return;
	o = g_hash_table_lookup(st->outcomes, &status);
	if (!o) {
		o = g_new0(struct sa_cp_outcome, 1);
		o->status = status;
		g_hash_table_insert(st->outcomes, &o->status, o);
	}
	o->runs++;
}

static void cp_event(void *state, struct sa_rec *r)
{
	struct cp_state *st = state;
	struct sa_compaction_result *res = st->res;
	guint64 *ts;

	switch (r->ev) {
	case SA_EV_COMPACT_BEGIN:
		ts = g_new(guint64, 1);
		*ts = r->ts;
		g_hash_table_replace(st->begun, GINT_TO_POINTER(r->pid), ts);
		break;
	case SA_EV_COMPACT_END:
		cp_end(st, r);
		break;
	case SA_EV_COMPACT_MIGRATE:
		res->migrate_calls++;
		res->migrated += r->v[SA_CP_MIGRATED];
		res->failed += r->v[SA_CP_FAILED];
		break;
	case SA_EV_COMPACT_DEFER:
		res->defer[order_row(r->v[SA_CD_ORDER])]++;
		res->defer_total++;
		break;
	case SA_EV_COMPACT_DEFERRED:
		res->deferred[order_row(r->v[SA_CD_ORDER])]++;
		res->deferred_total++;
		break;
	case SA_EV_COMPACT_DEFER_RESET:
		res->defer_reset[order_row(r->v[SA_CD_ORDER])]++;
		res->defer_reset_total++;
		break;
	default:
		break;
	}
}

static gint by_runs(gconstpointer a, gconstpointer b)
{
	const struct sa_cp_outcome *x = *(struct sa_cp_outcome *const *)a;
	const struct sa_cp_outcome *y = *(struct sa_cp_outcome *const *)b;

	if (x->runs != y->runs)
		return x->runs > y->runs ? -1 : 1;
	return x->status < y->status ? -1 : x->status > y->status;
}

static void *cp_finish(void *state, struct sa_report *rep)
{
	struct cp_state *st = state;
	struct sa_compaction_result *res = st->res;
	GHashTableIter it;
	gpointer k, v;

	res->have_runs = rep->ev_present[SA_EV_COMPACT_BEGIN] &&
			 rep->ev_present[SA_EV_COMPACT_END];
	res->have_migrate = rep->ev_present[SA_EV_COMPACT_MIGRATE];
	res->have_defer = rep->ev_present[SA_EV_COMPACT_DEFER] ||
			  rep->ev_present[SA_EV_COMPACT_DEFERRED];
	if (!res->have_runs && !res->have_migrate && !res->have_defer)
		sa_report_note(rep, "compaction: the trace has no compaction "
			       "events (record with -e compaction)");
	else if (!res->have_runs)
		sa_report_note(rep, "compaction: runs and their time not "
			       "computed: the trace lacks "
			       "mm_compaction_begin/end");
	res->unfinished = g_hash_table_size(st->begun);
	res->outcomes = g_ptr_array_new_with_free_func(outcome_free);
	g_hash_table_iter_init(&it, st->outcomes);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct sa_cp_outcome *o = v;
		char *name = sa_report_flags(rep, SA_EV_COMPACT_END,
					     SA_CP_STATUS, (guint64)o->status);

		/* unrendered: the number itself */
		if (g_str_has_prefix(name, "0x")) {
			g_free(name);
			name = g_strdup_printf("status %" G_GINT64_FORMAT,
					       o->status);
		}
		o->name = name;
		g_ptr_array_add(res->outcomes, o);
	}
	g_hash_table_steal_all(st->outcomes);
	g_ptr_array_sort(res->outcomes, by_runs);
	res->success = res->migrated + res->failed ?
		100.0 * res->migrated / (res->migrated + res->failed) : 0;
	st->res = NULL;
	return res;
}

const struct sa_agg sa_agg_compaction = {
	.events = SA_EVBIT(SA_EV_COMPACT_BEGIN) | SA_EVBIT(SA_EV_COMPACT_END) |
		  SA_EVBIT(SA_EV_COMPACT_MIGRATE) |
		  SA_EVBIT(SA_EV_COMPACT_DEFER) |
		  SA_EVBIT(SA_EV_COMPACT_DEFERRED) |
		  SA_EVBIT(SA_EV_COMPACT_DEFER_RESET),
	.create = cp_create,
	.event = cp_event,
	.finish = cp_finish,
	.destroy = cp_destroy,
	.free_result = cp_free_result,
};
