// SPDX-License-Identifier: GPL-2.0
/*
 * The pages aggregator: see agg/pages.h. Pages allocated in the trace
 * are kept in a pfn -> (order, migratetype) map until freed; what is left at
 * the end is the live pages.
 */
#include <event-parse.h>

#include "report/agg/pages.h"
#include "report/pipeline.h"
#include "report/flags.h"
#include "snapshot/snapshot.h"

#define PFN_FAILED	G_MAXUINT64	/* mm_page_alloc of a failed allocation */

struct pg_state {
	struct sa_pages_result *res;
	GHashTable *live;	/* pfn -> order << 8 | mt, + 1 */
	GHashTable *gfp;	/* gfp -> struct sa_pg_gfp * */
	GHashTable *tasks;	/* pid -> struct sa_pg_task * */
};

const char *sa_migratetype_name(int mt)
{
	static const char *const names[SA_PG_MTS] = {
		"Unmovable", "Movable", "Reclaimable", "HighAtomic", "other",
	};

	return names[mt >= 0 && mt < SA_PG_MTS ? mt : SA_PG_MTS - 1];
}

const char *sa_order_label(int row)
{
	static const char *const labels[SA_PG_ORDERS] = {
		"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ">=10",
	};

	return labels[row >= 0 && row < SA_PG_ORDERS ? row : SA_PG_ORDERS - 1];
}

static int order_row(guint64 order)
{
	return order >= SA_PG_ORDERS - 1 ? SA_PG_ORDERS - 1 : (int)order;
}

static int mt_col(guint64 mt)
{
	gint64 m = (gint32)mt;

	return m < 0 || m >= SA_PG_MTS - 1 ? SA_PG_MTS - 1 : (int)m;
}

static void *pg_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct pg_state *st = g_new0(struct pg_state, 1);

	st->res = g_new0(struct sa_pages_result, 1);
	st->live = g_hash_table_new(g_int64_hash, g_int64_equal);
	st->gfp = g_hash_table_new(g_int64_hash, g_int64_equal);
	st->tasks = g_hash_table_new(g_direct_hash, g_direct_equal);
	return st;
}

static void pg_free_result(void *result)
{
	struct sa_pages_result *r = result;

	if (!r)
		return;
	if (r->gfp) {
		guint i;

		for (i = 0; i < r->gfp->len; i++)
			g_free(((struct sa_pg_gfp *)r->gfp->pdata[i])->str);
		g_ptr_array_free(r->gfp, TRUE);
	}
	if (r->tasks)
		g_ptr_array_free(r->tasks, TRUE);
	if (r->frag_start)
		g_array_free(r->frag_start, TRUE);
	if (r->frag_end)
		g_array_free(r->frag_end, TRUE);
	g_free(r);
}

static void pg_destroy(void *state)
{
	struct pg_state *st = state;
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, st->live);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_free(k);
	g_hash_table_destroy(st->live);
	/* the rows belong to the result once finished */
	if (st->res) {
		g_hash_table_iter_init(&it, st->gfp);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_free(v);
		g_hash_table_iter_init(&it, st->tasks);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_free(v);
		pg_free_result(st->res);
	}
	g_hash_table_destroy(st->gfp);
	g_hash_table_destroy(st->tasks);
	g_free(st);
}

static struct sa_pg_task *task_get(struct pg_state *st, gint32 pid)
{
	gpointer key = GINT_TO_POINTER(pid);
	struct sa_pg_task *t = g_hash_table_lookup(st->tasks, key);

	if (!t) {
		t = g_new0(struct sa_pg_task, 1);
		t->pid = pid;
		g_hash_table_insert(st->tasks, key, t);
	}
	return t;
}

static void on_alloc(struct pg_state *st, const struct sa_rec *r)
{
	struct sa_pages_result *res = st->res;
	guint64 pfn = r->v[SA_PG_PFN], order = r->v[SA_PG_ORDER];
	guint64 pages = G_GUINT64_CONSTANT(1) << (order < 63 ? order : 63);
	int row = order_row(order), col = mt_col(r->v[SA_PG_MT]);
	struct sa_pg_task *t;
	struct sa_pg_gfp *g;
	guint64 *key;

	if (pfn == PFN_FAILED) {
		res->failed++;
		return;
	}
	res->allocs++;
	res->pages_alloc += pages;
	res->alloc[row][col].blocks++;
	res->alloc[row][col].pages += pages;
	t = task_get(st, r->pid);
	t->blocks++;
	t->pages += pages;
	if (r->have & (1u << SA_PG_GFP)) {
		g = g_hash_table_lookup(st->gfp, &r->v[SA_PG_GFP]);
		if (!g) {
			g = g_new0(struct sa_pg_gfp, 1);
			g->gfp = r->v[SA_PG_GFP];
			g_hash_table_insert(st->gfp, &g->gfp, g);
		}
		g->blocks++;
		g->pages += pages;
	}
	key = g_new(guint64, 1);
	*key = pfn;
	/* a pfn allocated again without a free seen: keep the newer */
	g_hash_table_replace(st->live, key, GUINT_TO_POINTER(
		((guint)MIN(order, 255) << 8 | (guint)col) + 1));
}

static void on_free(struct pg_state *st, const struct sa_rec *r)
{
	struct sa_pages_result *res = st->res;
	guint64 pfn = r->v[SA_PG_PFN];
	guint64 order = r->have & (1u << SA_PG_ORDER) ? r->v[SA_PG_ORDER] : 0;
	guint64 pages = G_GUINT64_CONSTANT(1) << (order < 63 ? order : 63);
	gpointer key, v;

	res->frees++;
	res->pages_freed += pages;
	res->freed[order_row(order)].blocks++;
	res->freed[order_row(order)].pages += pages;
	task_get(st, r->pid)->freed_pages += pages;
	if (g_hash_table_lookup_extended(st->live, &pfn, &key, &v)) {
		g_hash_table_remove(st->live, &pfn);
		g_free(key);
	} else {
		res->frees_unmatched++;
	}
}

static void on_extfrag(struct pg_state *st, const struct sa_rec *r)
{
	struct sa_pages_result *res = st->res;
	int a = mt_col(r->v[SA_XF_ALLOC_MT]), f = mt_col(r->v[SA_XF_FALLBACK_MT]);

	res->fallbacks++;
	res->fallback_mt[a][f]++;
	if (r->v[SA_XF_CHANGE_OWNERSHIP]) {
		res->steals++;
		res->steal_mt[a][f]++;
	}
}

static void pg_event(void *state, struct sa_rec *r)
{
	struct pg_state *st = state;

	switch (r->ev) {
	case SA_EV_PAGE_ALLOC:
		on_alloc(st, r);
		break;
	case SA_EV_PAGE_FREE:
		on_free(st, r);
		break;
	case SA_EV_PAGE_FREE_BATCHED:
		st->res->frees_batched++;
		break;
	case SA_EV_PAGE_EXTFRAG:
		on_extfrag(st, r);
		break;
	default:
		break;
	}
}

/* The index of every zone of a buddyinfo text. */
static GArray *frag_of(const char *snapshot_json, const char **why)
{
	struct sa_snapshot *snap;
	GError *err = NULL;
	GArray *zones, *out;
	guint i;
	int j;

	snap = sa_snapshot_from_json(snapshot_json, "the system snapshot",
				     &err);
	if (!snap) {
		*why = "its system snapshot could not be read";
		g_clear_error(&err);
		return NULL;
	}
	if (!snap->text[SA_SRC_BUDDYINFO]) {
		*why = "its system snapshot has no /proc/buddyinfo";
		sa_snapshot_free(snap);
		return NULL;
	}
	zones = sa_buddyinfo_parse(snap->text[SA_SRC_BUDDYINFO], &err);
	sa_snapshot_free(snap);
	if (!zones) {
		*why = "its /proc/buddyinfo could not be parsed";
		g_clear_error(&err);
		return NULL;
	}
	out = g_array_new(FALSE, TRUE, sizeof(struct sa_pg_frag));
	for (i = 0; i < zones->len; i++) {
		const struct sa_buddy_zone *z = &g_array_index(zones,
						struct sa_buddy_zone, i);
		struct sa_pg_frag f = { 0 };

		f.node = z->node;
		g_strlcpy(f.zone, z->zone, sizeof(f.zone));
		f.nr_orders = z->nr_orders;
		f.free_pages = sa_buddy_free_pages(z);
		for (j = 0; j < z->nr_orders && j < SA_BUDDY_MAX_ORDERS; j++) {
			f.unusable[j] = sa_buddy_unusable(z, j);
			f.unusable_milli[j] = sa_buddy_unusable_milli(z, j);
		}
		g_array_append_val(out, f);
	}
	g_array_free(zones, TRUE);
	return out;
}

static gint by_gfp_pages(gconstpointer a, gconstpointer b)
{
	const struct sa_pg_gfp *x = *(struct sa_pg_gfp *const *)a;
	const struct sa_pg_gfp *y = *(struct sa_pg_gfp *const *)b;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	return x->gfp < y->gfp ? -1 : x->gfp > y->gfp;
}

static gint by_task_pages(gconstpointer a, gconstpointer b)
{
	const struct sa_pg_task *x = *(struct sa_pg_task *const *)a;
	const struct sa_pg_task *y = *(struct sa_pg_task *const *)b;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	return x->pid - y->pid;
}

static GPtrArray *values_of(GHashTable *h)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_ptr_array_add(a, v);
	g_hash_table_steal_all(h);
	return a;
}

static void *pg_finish(void *state, struct sa_report *rep)
{
	struct pg_state *st = state;
	struct sa_pages_result *res = st->res;
	const struct sa_trace_origin *o = &rep->origin;
	GHashTableIter it;
	gpointer k, v;
	guint i;

	res->have_alloc = rep->ev_present[SA_EV_PAGE_ALLOC];
	res->have_free = rep->ev_present[SA_EV_PAGE_FREE];
	res->have_extfrag = rep->ev_present[SA_EV_PAGE_EXTFRAG];
	if (!res->have_alloc)
		sa_report_note(rep, "pages: the trace has no kmem:mm_page_alloc "
			       "events (record with -e page)");
	else
		sa_report_note(rep, "pages: by task, not by call site: "
			       "mm_page_alloc has no call_site");
	if (res->have_alloc && !res->have_free)
		sa_report_note(rep, "pages: the trace has no mm_page_free "
			       "events: every page allocated looks live");
	g_hash_table_iter_init(&it, st->live);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		guint packed = GPOINTER_TO_UINT(v) - 1;
		guint order = packed >> 8;
		guint64 pages = G_GUINT64_CONSTANT(1) << MIN(order, 63);
		struct sa_pg_cell *c = &res->live[order_row(order)][packed & 0xff];

		c->blocks++;
		c->pages += pages;
		res->live_blocks++;
		res->live_pages += pages;
	}
	res->gfp = values_of(st->gfp);
	g_ptr_array_set_free_func(res->gfp, g_free);
	g_ptr_array_sort(res->gfp, by_gfp_pages);
	for (i = 0; i < res->gfp->len; i++) {
		struct sa_pg_gfp *g = res->gfp->pdata[i];

		g->str = sa_report_flags(rep, SA_EV_PAGE_ALLOC, SA_PG_GFP,
					 g->gfp);
	}
	res->tasks = values_of(st->tasks);
	g_ptr_array_sort(res->tasks, by_task_pages);
	for (i = 0; i < res->tasks->len; i++) {
		struct sa_pg_task *t = res->tasks->pdata[i];
		const char *comm = rep->tep ?
			tep_data_comm_from_pid(rep->tep, t->pid) : NULL;

		t->comm = g_intern_string(comm ? comm : "<...>");
	}
	if (o->snapshot_start)
		res->frag_start = frag_of(o->snapshot_start, &res->frag_why);
	if (o->snapshot_end)
		res->frag_end = frag_of(o->snapshot_end, &res->frag_why);
	if (!o->snapshot_start && !o->snapshot_end)
		res->frag_why = "the trace carries no /proc/buddyinfo snapshot";
	if (!res->frag_start && !res->frag_end)
		sa_report_note(rep, "pages: unusable free space index not "
			       "available in this trace: %s", res->frag_why);
	st->res = NULL;
	return res;
}

const struct sa_agg sa_agg_pages = {
	.events = SA_EVBIT(SA_EV_PAGE_ALLOC) | SA_EVBIT(SA_EV_PAGE_FREE) |
		  SA_EVBIT(SA_EV_PAGE_FREE_BATCHED) |
		  SA_EVBIT(SA_EV_PAGE_EXTFRAG),
	.create = pg_create,
	.event = pg_event,
	.finish = pg_finish,
	.destroy = pg_destroy,
	.free_result = pg_free_result,
};
