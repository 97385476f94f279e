// SPDX-License-Identifier: GPL-2.0
/*
 * The live section. It reads no events itself: the call-site aggregator
 * keeps the map of live objects, and this section is computed from it
 * when the trace ends.
 */
#include <event-parse.h>

#include "report/agg/live.h"

struct live_state {
	struct sa_pipeline *p;
	const struct sa_report_opts *opts;
};

static void *live_create(const struct sa_report_opts *opts,
			 struct sa_pipeline *p)
{
	struct live_state *st = g_new0(struct live_state, 1);

	st->p = p;
	st->opts = opts;
	return st;
}

static void live_destroy(void *state)
{
	g_free(state);
}

struct obj_ctx {
	struct sa_live_result *res;
	struct sa_report *rep;
	void *cs;
};

static void one_obj(const struct sa_live_obj *o, void *data)
{
	struct obj_ctx *c = data;
	guint64 end = c->rep->last_ts;
	struct sa_live_row row;
	const char *comm = NULL;

	row.ptr = o->ptr;
	row.age_ns = end > o->ts ? end - o->ts : 0;
	row.bytes_req = o->bytes_req;
	row.bytes_alloc = o->bytes_alloc;
	row.pid = o->pid;
	if (c->rep->tep)
		comm = tep_data_comm_from_pid(c->rep->tep, o->pid);
	row.comm = g_intern_string(comm ? comm : "<...>");
	row.site = sa_callsite_site(c->cs, o->site);
	g_array_append_val(c->res->objects, row);
}

static gint by_age(gconstpointer a, gconstpointer b)
{
	const struct sa_live_row *x = a, *y = b;

	if (x->age_ns != y->age_ns)
		return x->age_ns > y->age_ns ? -1 : 1;
	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static gint by_live(gconstpointer a, gconstpointer b)
{
	const struct sa_site *x = *(struct sa_site *const *)a;
	const struct sa_site *y = *(struct sa_site *const *)b;

	if (x->live_alloc != y->live_alloc)
		return x->live_alloc > y->live_alloc ? -1 : 1;
	if (x->live != y->live)
		return x->live > y->live ? -1 : 1;
	return g_strcmp0(x->sym, y->sym);
}

static void *live_finish(void *state, struct sa_report *rep)
{
	struct live_state *st = state;
	struct sa_live_result *res = g_new0(struct sa_live_result, 1);
	int cs_idx = SA_SEC_CALLSITE;
	struct sa_callsite_result *cr = rep->result[cs_idx];
	guint i;
	int b;

	res->sites = g_ptr_array_new();
	for (i = 0; cr && i < cr->sites->len; i++) {
		struct sa_site *s = cr->sites->pdata[i];

		if (!s->live)
			continue;
		g_ptr_array_add(res->sites, s);
		res->total.sites++;
		res->total.live += s->live;
		res->total.live_alloc += s->live_alloc;
		res->total.live_req += s->live_req;
		res->total.live_waste += s->live_waste;
		for (b = 0; b < SA_AGE_BUCKETS; b++)
			res->age[b] += s->age[b];
	}
	res->freed_untraced = cr ? cr->reused : 0;
	res->total.live_frag = res->total.live_alloc ?
		100.0 - 100.0 * (double)res->total.live_req /
		(double)res->total.live_alloc : 0.0;
	g_ptr_array_sort(res->sites, by_live);
	if (st->opts && st->opts->objects) {
		struct obj_ctx c = { res, rep,
				     sa_pipeline_state(st->p,
						       SA_SEC_CALLSITE) };

		res->objects = g_array_new(FALSE, FALSE,
					   sizeof(struct sa_live_row));
		sa_callsite_foreach_live(c.cs, one_obj, &c);
		g_array_sort(res->objects, by_age);
	}
	return res;
}

static void live_free_result(void *result)
{
	struct sa_live_result *res = result;

	g_ptr_array_free(res->sites, TRUE);
	if (res->objects)
		g_array_free(res->objects, TRUE);
	g_free(res);
}

const struct sa_agg sa_agg_live = {
	.events = 0,
	.create = live_create,
	.finish = live_finish,
	.destroy = live_destroy,
	.free_result = live_free_result,
};
