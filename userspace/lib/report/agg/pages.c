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
#include "symbols/attrib.h"
#include "symbols/symbols.h"
#include "symbols/wrappers.h"

#define PFN_FAILED	G_MAXUINT64	/* mm_page_alloc of a failed allocation */

/* A block allocated in the trace and not freed yet (the key is pfn) */
struct pg_live {
	guint64 pfn;
	guint32 packed;		/* order << 8 | mt */
	guint32 site;		/* its row in sites + 1; 0: none */
};

/* A call site's row: the entry point's start and the caller's frame */
struct site_key {
	guint64 via, caller;
	guint32 how;
};

struct pg_state {
	struct sa_pages_result *res;
	GHashTable *live;	/* pfn -> struct pg_live * (key and value) */
	GHashTable *gfp;	/* gfp -> struct sa_pg_gfp * */
	GHashTable *tasks;	/* pid -> struct sa_pg_task * */
	/* by call site, when the trace has kernel stacks and symbols */
	struct sa_symbols *syms;
	struct sa_wrappers *machinery;
	GHashTable *attr;	/* interned stack (or NULL) -> row + 1 */
	GHashTable *rowof;	/* struct site_key -> row + 1 */
	GPtrArray *sites;	/* struct sa_pg_site * */
	guint32 no_stack;	/* the "(no kernel stack)" row + 1, or 0 */
};

static guint site_hash(gconstpointer p)
{
	const struct site_key *k = p;

	return g_int64_hash(&k->via) * 31 + g_int64_hash(&k->caller) + k->how;
}

static gboolean site_equal(gconstpointer a, gconstpointer b)
{
	const struct site_key *x = a, *y = b;

	return x->via == y->via && x->caller == y->caller && x->how == y->how;
}

static void site_free(gpointer p)
{
	struct sa_pg_site *s = p;

	g_free(s->sym);
	g_free(s->caller_sym);
	g_free(s);
}

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
	guint i;

	st->res = g_new0(struct sa_pages_result, 1);
	st->live = g_hash_table_new(g_int64_hash, g_int64_equal);
	st->gfp = g_hash_table_new(g_int64_hash, g_int64_equal);
	st->tasks = g_hash_table_new(g_direct_hash, g_direct_equal);
	st->syms = p && p->rep ? p->rep->syms : NULL;
	st->machinery = sa_wrappers_new_pages();
	for (i = 0; opts && opts->wrapper_names && opts->wrapper_names[i];
	     i++)
		sa_wrappers_add(st->machinery, opts->wrapper_names[i]);
	st->attr = g_hash_table_new(g_direct_hash, g_direct_equal);
	st->rowof = g_hash_table_new_full(site_hash, site_equal, g_free, NULL);
	st->sites = g_ptr_array_new_with_free_func(site_free);
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
	if (r->sites)
		g_ptr_array_free(r->sites, TRUE);
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
	g_hash_table_destroy(st->live);	/* keys are the values */
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
	sa_wrappers_free(st->machinery);
	g_hash_table_destroy(st->attr);
	g_hash_table_destroy(st->rowof);
	if (st->sites)
		g_ptr_array_free(st->sites, TRUE);
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

/* A live block leaves its site's live count (freed, or reallocated). */
static void live_site_drop(struct pg_state *st, const struct pg_live *l)
{
	struct sa_pg_site *s;
	guint64 pages;

	if (!l->site)
		return;
	s = st->sites->pdata[l->site - 1];
	pages = G_GUINT64_CONSTANT(1) << MIN(l->packed >> 8, 63);
	s->live_blocks--;
	s->live_pages -= MIN(s->live_pages, pages);
}

/* The row of a site, made on first use; its index + 1. */
static guint32 site_get(struct pg_state *st, enum sa_pg_site_how how,
			guint64 via, guint64 caller, const char *via_name)
{
	struct site_key key = { via, caller, how };
	struct sa_pg_site *s;
	gpointer v = g_hash_table_lookup(st->rowof, &key);

	if (v)
		return GPOINTER_TO_UINT(v);
	s = g_new0(struct sa_pg_site, 1);
	s->how = how;
	s->via_addr = via;
	s->addr = caller;
	s->via = via_name;
	g_ptr_array_add(st->sites, s);
	g_hash_table_insert(st->rowof, g_memdup2(&key, sizeof(key)),
			    GUINT_TO_POINTER(st->sites->len));
	return st->sites->len;
}

/*
 * The call site of a page allocation with stack (interned, or NULL):
 * the first frame past the page allocator, the large kmalloc and the
 * wrappers (sa_attrib_outer). Worked out once per stack.
 */
static guint32 site_of(struct pg_state *st, const struct sa_stack *stack)
{
	struct sa_sym sym = { 0 };
	guint64 via = 0, caller = 0, start;
	const char *via_name = NULL;
	char buf[128];
	gpointer v;
	guint32 idx;
	guint n = 0;

	/* a trace without stacks: one row, no lookup an event */
	if (!stack) {
		if (!st->no_stack)
			st->no_stack = site_get(st, SA_PG_SITE_NO_STACK, 0, 0,
						NULL);
		return st->no_stack;
	}
	v = g_hash_table_lookup(st->attr, stack);
	if (v)
		return GPOINTER_TO_UINT(v);
	if (sa_attrib_outer(st->syms, st->machinery, stack, &via, &caller, 1,
			    &n) == SA_ATTRIB_OK && n) {
		start = via;
		if (!sa_symbols_lookup(st->syms, via, &sym) && sym.func) {
			start = via - sym.off;
			via_name = g_intern_string(sa_sym_alloc_base(sym.func,
							buf, sizeof(buf)));
		}
		idx = site_get(st, SA_PG_SITE_CALLER, start, caller, via_name);
	} else {
		idx = site_get(st, SA_PG_SITE_NO_CALLER, 0, 0, NULL);
	}
	g_hash_table_insert(st->attr, (gpointer)stack, GUINT_TO_POINTER(idx));
	return idx;
}

static void on_alloc(struct pg_state *st, const struct sa_rec *r)
{
	struct sa_pages_result *res = st->res;
	guint64 pfn = r->v[SA_PG_PFN], order = r->v[SA_PG_ORDER];
	guint64 pages = G_GUINT64_CONSTANT(1) << (order < 63 ? order : 63);
	int row = order_row(order), col = mt_col(r->v[SA_PG_MT]);
	struct sa_pg_task *t;
	struct sa_pg_gfp *g;
	struct pg_live *l;
	guint32 site = 0;

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
	if (st->syms) {
		struct sa_pg_site *s;

		site = site_of(st, r->stack);
		s = st->sites->pdata[site - 1];
		s->blocks++;
		s->pages += pages;
		s->live_blocks++;
		s->live_pages += pages;
		if (r->stack)
			res->with_stack++;
	}
	/* a pfn allocated again without a free seen: keep the newer */
	l = g_hash_table_lookup(st->live, &pfn);
	if (l) {
		live_site_drop(st, l);
	} else {
		l = g_new(struct pg_live, 1);
		l->pfn = pfn;
		g_hash_table_add(st->live, l);
	}
	l->packed = (guint32)MIN(order, 255) << 8 | (guint32)col;
	l->site = site;
}

static void on_free(struct pg_state *st, const struct sa_rec *r)
{
	struct sa_pages_result *res = st->res;
	guint64 pfn = r->v[SA_PG_PFN];
	guint64 order = r->have & (1u << SA_PG_ORDER) ? r->v[SA_PG_ORDER] : 0;
	guint64 pages = G_GUINT64_CONSTANT(1) << (order < 63 ? order : 63);
	struct pg_live *l;

	res->frees++;
	res->pages_freed += pages;
	res->freed[order_row(order)].blocks++;
	res->freed[order_row(order)].pages += pages;
	task_get(st, r->pid)->freed_pages += pages;
	l = g_hash_table_lookup(st->live, &pfn);
	if (l) {
		live_site_drop(st, l);
		g_hash_table_remove(st->live, &pfn);
		g_free(l);
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

static gint by_site_pages(gconstpointer a, gconstpointer b)
{
	const struct sa_pg_site *x = *(struct sa_pg_site *const *)a;
	const struct sa_pg_site *y = *(struct sa_pg_site *const *)b;
	int c;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	if (x->live_pages != y->live_pages)
		return x->live_pages > y->live_pages ? -1 : 1;
	c = g_strcmp0(x->sym, y->sym);
	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* A row's names, once the trace's symbols are known. */
static void name_site(struct sa_symbols *syms, struct sa_pg_site *s)
{
	struct sa_sym sym = { 0 };

	switch (s->how) {
	case SA_PG_SITE_NO_STACK:
		s->sym = g_strdup("(no kernel stack)");
		return;
	case SA_PG_SITE_NO_CALLER:
		s->sym = g_strdup("(no caller in the stack)");
		return;
	default:
		break;
	}
	sa_symbols_lookup(syms, s->addr, &sym);
	s->caller_sym = sa_sym_format(&sym, s->addr);
	s->func = sym.func;
	s->module = sym.module;
	s->sym = g_strdup_printf("%s <- %s", s->via ? s->via : "?",
				 s->caller_sym);
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
	if (!res->have_alloc || !rep->stacks || !st->syms)
		res->by_site_why = !res->have_alloc ? "no mm_page_alloc events" :
			!rep->stacks ? "the trace has no kernel stacks "
			"(record --stacks=all)" : "the trace has no symbols";
	if (!res->have_alloc)
		sa_report_note(rep, "pages: the trace has no kmem:mm_page_alloc "
			       "events (record with -e page)");
	else if (res->by_site_why)
		sa_report_note(rep, "pages: by task, not by call site: "
			       "mm_page_alloc has no call_site and %s",
			       res->by_site_why);
	else
		sa_report_note(rep, "pages: by call site from kernel stacks: "
			       "%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			       " allocations had one", res->with_stack,
			       res->allocs);
	if (res->have_alloc && rep->stacks && st->syms) {
		for (i = 0; i < st->sites->len; i++)
			name_site(st->syms, st->sites->pdata[i]);
		g_ptr_array_sort(st->sites, by_site_pages);
		res->sites = g_steal_pointer(&st->sites);
	}
	if (res->have_alloc && !res->have_free)
		sa_report_note(rep, "pages: the trace has no mm_page_free "
			       "events: every page allocated looks live");
	g_hash_table_iter_init(&it, st->live);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		guint packed = ((struct pg_live *)k)->packed;
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
