// SPDX-License-Identifier: GPL-2.0
/*
 * The call-site aggregator. It owns the map of live objects (pointer ->
 * allocation), which attributes each free to the call site that made the
 * allocation, and which the live, timeline and OOM sections reuse.
 */
#include <stdio.h>
#include <string.h>

#include "report/agg/callsite.h"
#include "util/inttable.h"
#include "report/flags.h"
#include "report/pipeline.h"
#include "report/tasks.h"
#include "symbols/attrib.h"
#include "symbols/symbols.h"

/* The last kmem event of one CPU: is the next kmalloc its repeat? */
struct cs_last {
	guint64 ptr, call_site, ts, gfp;
	guint8 ev;			/* enum sa_ev, or SA_EV_NR: none */
	gboolean have_gfp;
	gint8 accounted;		/* 1, 0, or -1: unknown */
};

struct cs_state {
	const struct sa_report_opts *opts;
	struct sa_inttable index[SA_KIND_NR];	/* key -> site index */
	GPtrArray *sites;		/* struct sa_site * */
	struct sa_livemap live;		/* ptr -> live object */
	GArray *last;			/* struct cs_last, by CPU */
	guint64 unmatched, nullf, reused, repeats;
	gboolean given;			/* sites now belong to the result */
	/* attribution through wrappers (report/report.h, sa_group_by) */
	struct sa_symbols *syms;	/* the trace's; NULL: no attribution */
	GHashTable *attr;		/* struct attr_key -> struct attr_val */
	struct sa_inttable chain_index[SA_KIND_NR];	/* chain -> site */
	guint64 attributed, not_in_stack, all_wrappers;
	/* memcg charges: the report (its trace's formats), gfp -> answer */
	struct sa_report *rep;
	GHashTable *acct;		/* (gfp << 1 | cache) -> 1 + (0 or 1) */
	bool acct_known;
	/* --by comm, pid, cgroup: who each event was for; else NULL */
	struct sa_tasks *tasks;
};


/* What the stack of one allocation at one call site gives. */
struct attr_key {
	guint64 call_site;
	const struct sa_stack *stack;
	int kind;
};

struct attr_val {
	guint32 idx;			/* the row, or NO_ROW: the call site's */
	enum sa_attrib_result res;
	bool wrapper;
};
#define NO_ROW	G_MAXUINT32

static guint attr_hash(gconstpointer p)
{
	const struct attr_key *k = p;

	return (guint)(k->call_site ^ (k->call_site >> 32)) * 31 +
	       g_direct_hash(k->stack) + k->kind;
}

static gboolean attr_equal(gconstpointer a, gconstpointer b)
{
	const struct attr_key *x = a, *y = b;

	return x->call_site == y->call_site && x->stack == y->stack &&
	       x->kind == y->kind;
}

static const guint64 age_limit[SA_AGE_BUCKETS - 1] = {
	1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
	10000000000ULL,
};

int sa_age_bucket(guint64 age_ns)
{
	int i;

	for (i = 0; i < SA_AGE_BUCKETS - 1; i++)
		if (age_ns < age_limit[i])
			return i;
	return SA_AGE_BUCKETS - 1;
}

const char *sa_age_label(int bucket)
{
	static const char *const labels[SA_AGE_BUCKETS] = {
		"<1ms", "<10ms", "<100ms", "<1s", "<10s", ">=10s",
	};

	return bucket >= 0 && bucket < SA_AGE_BUCKETS ? labels[bucket] : "?";
}

static double pct_waste(guint64 req, guint64 alloc)
{
	return alloc ? 100.0 - 100.0 * (double)req / (double)alloc : 0.0;
}

void sa_site_derive(struct sa_site *s)
{
	s->slack = s->bytes_alloc > s->bytes_req ?
		   s->bytes_alloc - s->bytes_req : 0;
	s->frag = pct_waste(s->bytes_req, s->bytes_alloc);
	s->live_waste = s->live_alloc > s->live_req ?
			s->live_alloc - s->live_req : 0;
	s->live_frag = pct_waste(s->live_req, s->live_alloc);
}

void sa_site_free(struct sa_site *s)
{
	if (!s)
		return;
	g_free(s->sym);
	g_free(s->caller_sym);
	g_free(s->path);
	g_free(s->leaf);
	g_free(s->gfp_str);
	g_free(s);
}

static void *cs_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct cs_state *st = g_new0(struct cs_state, 1);
	int k;

	st->opts = opts;
	for (k = 0; k < SA_KIND_NR; k++)
		sa_inttable_init(&st->index[k]);
	st->sites = g_ptr_array_new();
	sa_livemap_init(&st->live);
	st->last = g_array_new(FALSE, FALSE, sizeof(struct cs_last));
	st->syms = p && p->rep ? p->rep->syms : NULL;
	st->rep = p ? p->rep : NULL;
	st->acct = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					 NULL);
	st->attr = g_hash_table_new_full(attr_hash, attr_equal, g_free,
					 g_free);
	for (k = 0; k < SA_KIND_NR; k++)
		sa_inttable_init(&st->chain_index[k]);
	if (opts && sa_group_by_task(opts->by))
		st->tasks = sa_tasks_new(p && p->rep ? &p->rep->origin : NULL,
					 p && p->rep ? p->rep->tep : NULL);
	return st;
}

static void cs_destroy(void *state)
{
	struct cs_state *st = state;
	guint i;
	int k;

	for (k = 0; k < SA_KIND_NR; k++) {
		sa_inttable_clear(&st->index[k]);
		sa_inttable_clear(&st->chain_index[k]);
	}
	g_hash_table_destroy(st->attr);
	g_hash_table_destroy(st->acct);
	sa_tasks_free(st->tasks);
	/* once finished, the sites belong to the result */
	if (!st->given)
		for (i = 0; i < st->sites->len; i++)
			sa_site_free(st->sites->pdata[i]);
	g_ptr_array_free(st->sites, TRUE);
	sa_livemap_clear(&st->live);
	g_array_free(st->last, TRUE);
	g_free(st);
}

/* The grouping key of an allocation: its call site, or its cache. */
static const char *cache_of(const struct sa_rec *r, enum sa_kind kind)
{
	char buf[48];

	if (r->have & (1u << SA_KM_NAME) && r->v[SA_KM_NAME])
		return (const char *)(uintptr_t)r->v[SA_KM_NAME];
	/* no name in the event: name the size class */
	snprintf(buf, sizeof(buf), "%s-%u",
		 kind == SA_KIND_KMALLOC ? "kmalloc" : "cache",
		 (unsigned int)r->v[SA_KM_ALLOC]);
	return g_intern_string(buf);
}

static struct sa_site *site_new(struct cs_state *st, const struct sa_rec *r,
				enum sa_kind kind)
{
	struct sa_site *s = g_new0(struct sa_site, 1);

	s->kind = kind;
	s->call_site = r->v[SA_KM_CALL_SITE];
	if (r->have & (1u << SA_KM_NAME))
		s->cache = (const char *)(uintptr_t)r->v[SA_KM_NAME];
	g_ptr_array_add(st->sites, s);
	return s;
}

/*
 * The row of allocation r by its stack (report/report.h: sa_group_by),
 * or NO_ROW for the call site's own. Worked out once per call site and
 * stack (both interned).
 */
static guint32 attr_site(struct cs_state *st, const struct sa_rec *r,
			 enum sa_kind kind)
{
	struct attr_key key = { r->v[SA_KM_CALL_SITE], r->stack, kind };
	struct attr_val *v = g_hash_table_lookup(st->attr, &key);
	bool by_stack = st->opts->by == SA_BY_STACK;

	if (!v) {
		guint64 fr[SA_ATTRIB_MAX_DEPTH + 1];
		struct sa_sym sym = { 0 };
		guint n = 0, depth = 1;
		guint32 *idx;
		bool found;

		if (by_stack)
			depth = st->opts->stack_depth > 0 ?
				MIN(st->opts->stack_depth,
				    SA_ATTRIB_MAX_DEPTH) : 4;
		v = g_new0(struct attr_val, 1);
		v->idx = NO_ROW;
		v->wrapper = sa_attrib_is_wrapper(st->syms,
						  st->opts->wrappers,
						  key.call_site);
		v->res = sa_attrib_frames(st->syms, st->opts->wrappers,
					  key.call_site, r->stack, by_stack,
					  fr + 1, depth, &n);
		if (v->res == SA_ATTRIB_OK) {
			const struct sa_stack *chain;
			struct sa_site *s;

			/* a wrapper's row is the wrapper's, whatever the
			 * call site in it */
			fr[0] = key.call_site;
			if (v->wrapper &&
			    !sa_symbols_lookup(st->syms, key.call_site, &sym))
				fr[0] = key.call_site - sym.off;
			chain = sa_stack_intern(fr, n + 1);
			idx = sa_inttable_put(&st->chain_index[kind],
					      (uintptr_t)chain, &found);
			if (!found) {
				char buf[128];

				*idx = st->sites->len;
				s = site_new(st, r, kind);
				s->frames = sa_stack_intern(fr + 1, n);
				if (v->wrapper)
					s->wrapper = g_intern_string(
						sa_sym_alloc_name(sym.func,
							buf, sizeof(buf)));
			}
			v->idx = *idx;
		}
		g_hash_table_insert(st->attr, g_memdup2(&key, sizeof(key)), v);
	}
	if (v->wrapper) {
		if (v->res == SA_ATTRIB_OK)
			st->attributed++;
		else if (v->res == SA_ATTRIB_NOT_IN_STACK)
			st->not_in_stack++;
		else if (v->res == SA_ATTRIB_ALL_WRAPPERS)
			st->all_wrappers++;
	}
	return v->idx;
}

static guint32 site_get(struct cs_state *st, const struct sa_rec *r,
			enum sa_kind kind)
{
	const char *cache = NULL;
	guint32 *idx;
	guint64 key;
	struct sa_site *s;
	bool found;

	if (r->stack && st->syms && st->opts &&
	    (st->opts->by == SA_BY_CALLSITE || st->opts->by == SA_BY_STACK)) {
		guint32 i = attr_site(st, r, kind);

		if (i != NO_ROW)
			return i;
	}
	if (st->tasks) {
		/* a task's or a cgroup's row: the label is the key */
		const char *row = sa_tasks_row(st->tasks,
				sa_group_by_task_key(st->opts->by), r);

		idx = sa_inttable_put(&st->index[kind], (uintptr_t)row, &found);
		if (found)
			return *idx;
		*idx = st->sites->len;
		s = site_new(st, r, kind);
		s->call_site = 0;
		s->cache = NULL;
		s->sym = g_strdup(row);
		return st->sites->len - 1;
	}
	if (st->opts && st->opts->by == SA_BY_CACHE) {
		cache = cache_of(r, kind);
		key = (uintptr_t)cache;
	} else {
		key = r->v[SA_KM_CALL_SITE];
	}
	idx = sa_inttable_put(&st->index[kind], key, &found);
	if (found)
		return *idx;
	*idx = st->sites->len;
	s = site_new(st, r, kind);
	if (cache) {
		s->cache = cache;
		s->call_site = 0;
	}
	return st->sites->len - 1;
}

static void gfp_count(struct sa_site *s, guint64 gfp)
{
	int i;

	for (i = 0; i < SA_GFP_SLOTS; i++) {
		if (s->gfp_n[i] && s->gfp_v[i] == gfp) {
			s->gfp_n[i]++;
			return;
		}
		if (!s->gfp_n[i]) {
			s->gfp_v[i] = gfp;
			s->gfp_n[i] = 1;
			return;
		}
	}
}

/* Take back one gfp_count of s (the slots stay without holes). */
static void gfp_uncount(struct sa_site *s, guint64 gfp)
{
	int i;

	for (i = 0; i < SA_GFP_SLOTS && s->gfp_n[i]; i++) {
		if (s->gfp_v[i] != gfp)
			continue;
		if (--s->gfp_n[i])
			return;
		for (; i < SA_GFP_SLOTS - 1; i++) {
			s->gfp_v[i] = s->gfp_v[i + 1];
			s->gfp_n[i] = s->gfp_n[i + 1];
		}
		s->gfp_v[i] = 0;
		s->gfp_n[i] = 0;
		return;
	}
}

/* The last kmem event of CPU cpu (a slot with ev SA_EV_NR if none). */
static struct cs_last *last_of(struct cs_state *st, guint16 cpu)
{
	if (cpu >= st->last->len) {
		guint i = st->last->len;

		g_array_set_size(st->last, cpu + 1);
		for (; i < st->last->len; i++)
			g_array_index(st->last, struct cs_last, i).ev = SA_EV_NR;
	}
	return &g_array_index(st->last, struct cs_last, cpu);
}

/* Object o of site s is gone (freed, or its pointer reused). */
static inline void live_drop(struct sa_site *s, const struct sa_live_obj *o)
{
	s->live--;
	s->live_alloc -= o->bytes_alloc;
	s->live_req -= o->bytes_req;
}

/*
 * Whether allocation r repeats the live object o, allocated by the last
 * kmem event of r's CPU: a large kmalloc traced twice (see
 * report/agg/callsite.h).
 */
static bool is_repeat(const struct cs_last *l, const struct sa_rec *r,
		      const struct sa_live_obj *o, guint32 req, guint32 alloc)
{
	return r->ev == SA_EV_KMALLOC && l->ev == SA_EV_KMALLOC &&
	       l->ptr == r->v[SA_KM_PTR] && o->ptr == l->ptr &&
	       o->ts == l->ts && l->call_site != r->v[SA_KM_CALL_SITE] &&
	       o->bytes_req == req && o->bytes_alloc == alloc;
}

/*
 * Whether allocation r was charged to a memory cgroup: its "accounted"
 * field, else what the event's print format says for its gfp_flags
 * (asked once per value); -1 when the trace does not say.
 */
static int accounted(struct cs_state *st, const struct sa_rec *r)
{
	guint64 key;
	gpointer v;
	char *text;
	int a = -1;

	if (r->have & (1u << SA_KM_ACCOUNTED))
		return !!r->v[SA_KM_ACCOUNTED];
	if (!(r->have & (1u << SA_KM_GFP)) || !st->rep || !st->rep->tep)
		return -1;
	key = r->v[SA_KM_GFP] << 1 | (r->ev == SA_EV_CACHE_ALLOC);
	v = g_hash_table_lookup(st->acct, &key);
	if (v)
		return GPOINTER_TO_INT(v) - 2;
	text = sa_report_print_label(st->rep, r->ev, SA_KM_GFP,
				     r->v[SA_KM_GFP], "accounted");
	if (text && !strcmp(text, "true"))
		a = 1;
	else if (text && !strcmp(text, "false"))
		a = 0;
	g_free(text);
	g_hash_table_insert(st->acct, g_memdup2(&key, sizeof(key)),
			    GINT_TO_POINTER(a + 2));
	return a;
}

/* Count allocation r (of req, alloc; acct: accounted()) at site s. */
static void site_add(struct sa_site *s, const struct sa_rec *r, guint32 req,
		     guint32 alloc, int acct)
{
	if (acct > 0) {
		s->accounted++;
		s->accounted_bytes += alloc;
	}
	s->allocs++;
	s->bytes_alloc += alloc;
	s->bytes_req += req;
	if (r->have & (1u << SA_KM_REQ))
		s->have_req = TRUE;
	if (r->have & (1u << SA_KM_GFP))
		gfp_count(s, r->v[SA_KM_GFP]);
}

static void on_alloc(struct cs_state *st, struct sa_rec *r,
		     enum sa_kind kind, struct cs_last *l)
{
	guint64 ptr = r->v[SA_KM_PTR];
	/* without bytes_req nothing can be said about slack: req = alloc */
	guint32 alloc = r->v[SA_KM_ALLOC];
	guint32 req = r->have & (1u << SA_KM_REQ) ? r->v[SA_KM_REQ] : alloc;
	struct sa_live_obj *o;
	struct sa_site *s;
	guint32 idx;
	int acct;

	if (!ptr)
		return;		/* a failed allocation */
	acct = accounted(st, r);
	if (acct >= 0)
		st->acct_known = true;
	idx = site_get(st, r, kind);
	s = st->sites->pdata[idx];
	o = sa_livemap_put(&st->live, ptr);
	if (o->ptr && is_repeat(l, r, o, req, alloc)) {
		/* one allocation: take it from the first event's site */
		struct sa_site *first = st->sites->pdata[o->site];

		first->allocs--;
		first->bytes_alloc -= alloc;
		first->bytes_req -= req;
		if (l->have_gfp)
			gfp_uncount(first, l->gfp);
		if (l->accounted > 0) {
			first->accounted--;
			first->accounted_bytes -= alloc;
		}
		live_drop(first, o);
		r->flags |= SA_REC_REPEAT;
		st->repeats++;
	} else if (o->ptr) {
		/* its object was freed without a trace event */
		struct sa_site *old = st->sites->pdata[o->site];

		st->reused++;
		old->freed_untraced++;
		live_drop(old, o);
		r->freed_alloc = o->bytes_alloc;
	}
	site_add(s, r, req, alloc, acct);
	l->accounted = acct;
	o->ptr = ptr;
	o->ts = r->ts;
	o->site = idx;
	o->bytes_req = req;
	o->bytes_alloc = alloc;
	o->pid = r->pid;
	o->cpu = r->cpu;
	s->live++;
	s->live_alloc += o->bytes_alloc;
	s->live_req += o->bytes_req;
}

static void on_free(struct cs_state *st, struct sa_rec *r)
{
	guint64 ptr = r->v[SA_KM_PTR];
	struct sa_live_obj o;
	struct sa_site *s;

	if (!(r->have & (1u << SA_KM_PTR)))
		return;
	if (!ptr) {
		st->nullf++;
		return;
	}
	if (!sa_livemap_take(&st->live, ptr, &o)) {
		st->unmatched++;
		return;
	}
	s = st->sites->pdata[o.site];
	s->frees++;
	/* older kernels name the cache only when an object is freed */
	if (!s->cache && s->kind == SA_KIND_CACHE && !st->tasks &&
	    (r->have & (1u << SA_KM_NAME)) && r->v[SA_KM_NAME])
		s->cache = (const char *)(uintptr_t)r->v[SA_KM_NAME];
	if (o.cpu != r->cpu)
		s->pingpong++;
	r->freed_alloc = o.bytes_alloc;
	live_drop(s, &o);
}

static void cs_event(void *state, struct sa_rec *r)
{
	struct cs_state *st = state;
	struct cs_last *l = last_of(st, r->cpu);

	switch (r->ev) {
	case SA_EV_KMALLOC:
		on_alloc(st, r, SA_KIND_KMALLOC, l);
		break;
	case SA_EV_CACHE_ALLOC:
		on_alloc(st, r, SA_KIND_CACHE, l);
		break;
	case SA_EV_KFREE:
	case SA_EV_CACHE_FREE:
		on_free(st, r);
		break;
	case SA_EV_FORK:
	case SA_EV_EXEC:
		if (st->tasks)
			sa_tasks_event(st->tasks, r);
		return;
	default:
		return;
	}
	l->ev = r->ev;
	l->ptr = r->v[SA_KM_PTR];
	l->call_site = r->v[SA_KM_CALL_SITE];
	l->ts = r->ts;
	l->have_gfp = !!(r->have & (1u << SA_KM_GFP));
	l->gfp = r->v[SA_KM_GFP];
	if (r->ev != SA_EV_KMALLOC && r->ev != SA_EV_CACHE_ALLOC)
		l->accounted = -1;
}

void sa_callsite_foreach_live(void *state, sa_live_fn fn, void *data)
{
	struct cs_state *st = state;

	sa_livemap_foreach(&st->live, fn, data);
}

struct sa_site *sa_callsite_site(void *state, guint32 idx)
{
	struct cs_state *st = state;

	return idx < st->sites->len ? st->sites->pdata[idx] : NULL;
}

static gint by_live_alloc(gconstpointer a, gconstpointer b)
{
	const struct sa_site *x = *(struct sa_site *const *)a;
	const struct sa_site *y = *(struct sa_site *const *)b;

	if (x->live_alloc != y->live_alloc)
		return x->live_alloc > y->live_alloc ? -1 : 1;
	return x->call_site < y->call_site ? -1 : x->call_site > y->call_site;
}

GPtrArray *sa_callsite_top_live(void *state, guint n)
{
	struct cs_state *st = state;
	GPtrArray *a = g_ptr_array_new();
	guint i;

	for (i = 0; i < st->sites->len; i++)
		if (((struct sa_site *)st->sites->pdata[i])->live)
			g_ptr_array_add(a, st->sites->pdata[i]);
	g_ptr_array_sort(a, by_live_alloc);
	if (a->len > n)
		g_ptr_array_set_size(a, n);
	return a;
}

struct age_ctx {
	struct cs_state *st;
	guint64 end;
};

static void age_one(const struct sa_live_obj *o, void *data)
{
	struct age_ctx *c = data;
	struct sa_site *s = c->st->sites->pdata[o->site];

	s->age[sa_age_bucket(c->end > o->ts ? c->end - o->ts : 0)]++;
}

static void totals_add(struct sa_totals *t, const struct sa_site *s)
{
	t->sites++;
	t->allocs += s->allocs;
	t->frees += s->frees;
	t->bytes_alloc += s->bytes_alloc;
	t->bytes_req += s->bytes_req;
	t->slack += s->slack;
	t->live += s->live;
	t->live_alloc += s->live_alloc;
	t->live_req += s->live_req;
	t->live_waste += s->live_waste;
	t->pingpong += s->pingpong;
	t->accounted += s->accounted;
	t->accounted_bytes += s->accounted_bytes;
}

void sa_callsite_totals(struct sa_callsite_result *res)
{
	guint i;
	int k;

	memset(res->total, 0, sizeof(res->total));
	for (i = 0; i < res->sites->len; i++) {
		const struct sa_site *s = res->sites->pdata[i];

		totals_add(&res->total[s->kind], s);
	}
	for (k = 0; k < SA_KIND_NR; k++) {
		struct sa_totals *t = &res->total[k];

		t->frag = pct_waste(t->bytes_req, t->bytes_alloc);
		t->live_frag = pct_waste(t->live_req, t->live_alloc);
	}
}

static gint by_untraced(gconstpointer a, gconstpointer b)
{
	const struct sa_site *x = *(struct sa_site *const *)a;
	const struct sa_site *y = *(struct sa_site *const *)b;

	if (x->freed_untraced != y->freed_untraced)
		return x->freed_untraced > y->freed_untraced ? -1 : 1;
	return g_strcmp0(x->sym, y->sym);
}

/* A note with the sites whose objects were freed without an event. */
static void note_untraced(struct sa_report *rep, GPtrArray *sites,
			  guint64 n)
{
	GPtrArray *a = g_ptr_array_new();
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < sites->len; i++)
		if (((struct sa_site *)sites->pdata[i])->freed_untraced)
			g_ptr_array_add(a, sites->pdata[i]);
	g_ptr_array_sort(a, by_untraced);
	for (i = 0; i < a->len && i < 3; i++) {
		const struct sa_site *x = a->pdata[i];

		g_string_append_printf(s, "%s%s (%" G_GUINT64_FORMAT ")",
				       i ? ", " : "", x->sym,
				       x->freed_untraced);
	}
	if (a->len > 3)
		g_string_append_printf(s, " and %u more sites", a->len - 3);
	sa_report_note(rep, "%" G_GUINT64_FORMAT " objects were freed without "
		       "a trace event (their pointer was allocated again with "
		       "no free traced: kmem_cache_free_bulk, kfree_bulk, "
		       "batched RCU frees, or a task the recording left out); "
		       "they are not counted as live: %s", n, s->str);
	g_string_free(s, TRUE);
	g_ptr_array_free(a, TRUE);
}

/*
 * The names of a row attributed by its stack: "kvmalloc_node <-
 * caller+0xoff" (with --by stack, more frames after it), the caller's
 * symbol and its place, which subsystems and the treemap group by; and
 * the file:line of its addresses, in res.
 */
static void name_attributed(struct sa_symbols *syms, struct sa_site *s,
			    struct sa_callsite_result *res)
{
	GString *name = g_string_new(NULL), *path = g_string_new(NULL);
	struct sa_sym sym = { 0 };
	char *cs = NULL;
	guint32 i;

	if (s->wrapper) {
		g_string_append(name, s->wrapper);
	} else {
		sa_symbols_lookup(syms, s->call_site, &sym);
		cs = sa_sym_format(&sym, s->call_site);
		g_string_append(name, cs);
		sa_callsite_frame_src_put(res, s->call_site, &sym);
	}
	for (i = 0; i < s->frames->n; i++) {
		char *f, *fn;

		memset(&sym, 0, sizeof(sym));
		sa_symbols_lookup(syms, s->frames->ip[i], &sym);
		f = sa_sym_format(&sym, s->frames->ip[i]);
		g_string_append_printf(name, " <- %s", f);
		sa_callsite_frame_src_put(res, s->frames->ip[i], &sym);
		/* outermost first: each frame goes in front, no ';' in it */
		fn = g_strdelimit(g_strdup(sym.func ? sym.func : f), ";", '_');
		if (i)
			g_string_prepend_c(path, ';');
		g_string_prepend(path, fn);
		g_free(fn);
		if (!i) {
			s->caller_sym = f;
			s->func = sym.func;
			s->module = sym.module;
			s->file = sym.file;
			s->line = sym.line;
		} else {
			g_free(f);
		}
	}
	s->sym = g_string_free(name, FALSE);
	s->path = g_string_free(path, FALSE);
	s->leaf = s->wrapper ? g_strdup_printf("%s <- %s", s->wrapper,
					       s->caller_sym ? s->caller_sym :
					       "?") : cs;
	if (s->wrapper)
		g_free(cs);
}

/* What attribution through the stacks did, as notes. */
static void note_attrib(struct sa_report *rep,
			const struct sa_callsite_result *res)
{
	if (res->attributed)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " allocations at an "
			       "allocation wrapper's call site were attributed "
			       "to their caller by their kernel stack "
			       "(\"wrapper <- caller\" rows; --by wrapper: "
			       "the wrappers' own rows)", res->attributed);
	if (res->attrib_not_in_stack)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " allocations at a "
			       "wrapper's call site had a kernel stack without "
			       "that call site: left at the wrapper",
			       res->attrib_not_in_stack);
	if (res->attrib_all_wrappers)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " allocations at a "
			       "wrapper's call site had only wrappers beyond it "
			       "in their kernel stack: left at the wrapper",
			       res->attrib_all_wrappers);
	if (res->wrapper_no_stack)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " allocations at a "
			       "wrapper's call site had no kernel stack: left "
			       "at the wrapper", res->wrapper_no_stack);
}

static void *cs_finish(void *state, struct sa_report *rep)
{
	struct cs_state *st = state;
	struct sa_callsite_result *res = g_new0(struct sa_callsite_result, 1);
	struct age_ctx ac = { st, rep->last_ts };
	guint64 wrapper_no_stack = 0;
	bool no_req = false;
	guint i;
	int j;

	sa_callsite_foreach_live(st, age_one, &ac);
	res->sites = g_ptr_array_new_with_free_func((GDestroyNotify)
						    sa_site_free);
	for (i = 0; i < st->sites->len; i++) {
		struct sa_site *s = st->sites->pdata[i];
		struct sa_sym sym = { 0 };

		/*
		 * A site whose every allocation was the allocator's first
		 * event of a repeat has none left: no row. No live object
		 * refers to it.
		 */
		if (!s->allocs) {
			sa_site_free(s);
			st->sites->pdata[i] = NULL;
			continue;
		}
		g_ptr_array_add(res->sites, s);
		sa_site_derive(s);
		if (s->frames && rep->syms) {
			name_attributed(rep->syms, s, res);
		} else if (s->call_site && rep->syms) {
			sa_symbols_lookup(rep->syms, s->call_site, &sym);
			s->func = sym.func;
			s->module = sym.module;
			s->file = sym.file;
			s->line = sym.line;
			s->wrapper_hint = sa_sym_wrapper_hint(sym.func);
			if (s->wrapper_hint && st->syms && rep->stacks)
				wrapper_no_stack += s->allocs;
		}
		if (!s->sym && (!s->cache || s->call_site))
			s->sym = sa_sym_format(&sym, s->call_site);
		else if (!s->sym)
			s->sym = g_strdup(s->cache);
		for (j = 0; j < SA_GFP_SLOTS; j++)
			if (s->gfp_n[j] > s->gfp_n[0]) {
				guint64 tv = s->gfp_v[0], tn = s->gfp_n[0];

				s->gfp_v[0] = s->gfp_v[j];
				s->gfp_n[0] = s->gfp_n[j];
				s->gfp_v[j] = tv;
				s->gfp_n[j] = tn;
			}
		s->gfp = s->gfp_v[0];
		if (s->gfp_n[0])
			s->gfp_str = sa_report_flags(rep, s->kind ==
						     SA_KIND_KMALLOC ?
						     SA_EV_KMALLOC :
						     SA_EV_CACHE_ALLOC,
						     SA_KM_GFP, s->gfp);
		if (!s->have_req && s->allocs)
			no_req = true;
	}
	sa_callsite_totals(res);
	if (no_req)
		sa_report_note(rep, "some allocation events have no bytes_req: "
			       "their slack is counted as 0");
	if (st->reused)
		note_untraced(rep, res->sites, st->reused);
	res->unmatched_frees = st->unmatched;
	res->null_frees = st->nullf;
	res->reused = st->reused;
	res->repeats = st->repeats;
	res->attributed = st->attributed;
	res->attrib_not_in_stack = st->not_in_stack;
	res->attrib_all_wrappers = st->all_wrappers;
	res->wrapper_no_stack = wrapper_no_stack;
	res->accounted_known = st->acct_known;
	note_attrib(rep, res);
	rep->kmalloc_repeats_known = true;
	rep->kmalloc_repeats = st->repeats;
	if (st->repeats)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " large kmallocs "
			       "were traced twice (the allocator's own event, "
			       "then the caller's, as 6.10+ kernels do): each "
			       "is one allocation, counted at its caller",
			       st->repeats);
	res->by = st->opts ? st->opts->by : SA_BY_CALLSITE;
	if (st->tasks) {
		GPtrArray *n = sa_tasks_notes(st->tasks,
				sa_group_by_task_key(res->by));

		for (i = 0; i < n->len; i++)
			sa_report_note(rep, "%s", (char *)n->pdata[i]);
		g_ptr_array_unref(n);
	}
	/* the objects stay with the state (for the live section) */
	res->shown = g_ptr_array_new();
	for (i = 0; i < res->sites->len; i++)
		g_ptr_array_add(res->shown, res->sites->pdata[i]);
	st->given = TRUE;
	return res;
}

static void cs_free_result(void *result)
{
	struct sa_callsite_result *res = result;

	g_ptr_array_free(res->shown, TRUE);
	g_ptr_array_free(res->sites, TRUE);
	sa_inttable_clear(&res->frame_idx);
	if (res->frame_src)
		g_array_free(res->frame_src, TRUE);
	g_free(res);
}

const struct sa_agg sa_agg_callsite = {
	.events = SA_EVBIT(SA_EV_KMALLOC) | SA_EVBIT(SA_EV_CACHE_ALLOC) |
		  SA_EVBIT(SA_EV_KFREE) | SA_EVBIT(SA_EV_CACHE_FREE) |
		  SA_EVBIT(SA_EV_FORK) | SA_EVBIT(SA_EV_EXEC),
	.create = cs_create,
	.event = cs_event,
	.finish = cs_finish,
	.destroy = cs_destroy,
	.free_result = cs_free_result,
};

const char *sa_kind_name(int kind)
{
	static const char *const names[] = SLAB_ACCOUNT_KIND_NAMES;

	return names[kind == SA_KIND_KMALLOC ? SA_KIND_KMALLOC : SA_KIND_CACHE];
}
