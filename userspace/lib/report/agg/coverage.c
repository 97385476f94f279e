// SPDX-License-Identifier: GPL-2.0
/*
 * The coverage section (report/agg/coverage.h): the live slab objects of
 * the trace, by cache, against /proc/slabinfo at its end. It keeps its
 * own map of live objects, since a call-site row may allocate from many
 * caches (mempool_alloc_slab), and the rows may be grouped any way.
 * When the section is not asked for, only the header's totals are
 * computed, from the call-site aggregator's live objects, which follow
 * the same rules: no second map.
 */
#include <string.h>

#include "report/agg/callsite.h"
#include "report/agg/coverage.h"
#include "report/pipeline.h"
#include "snapshot/snapshot.h"
#include "procfs/slabinfo.h"
#include "util/livemap.h"

/* o->site of a live object: its cache's index in names, or these */
#define COV_KMALLOC	0	/* a kmalloc: its cache by its slot */
#define COV_UNNAMED	1	/* a kmem_cache_alloc without a name */
#define COV_NAMED	2

struct cov_state {
	struct sa_pipeline *p;
	bool asked;			/* the section, not the totals only */
	struct sa_livemap live;
	GHashTable *index;		/* interned name -> 1 + index */
	GPtrArray *names;		/* const char *, interned */
	bool named, unnamed;		/* cache allocations with, without */
};

bool sa_cov_is_kmalloc(const char *name)
{
	return g_str_has_prefix(name, "kmalloc-") ||
	       g_str_has_prefix(name, "dma-kmalloc-");
}

static void *cov_create(const struct sa_report_opts *opts,
			struct sa_pipeline *p)
{
	struct cov_state *st = g_new0(struct cov_state, 1);

	st->p = p;
	st->asked = p && p->rep &&
		    (p->rep->sections & SA_SECBIT(SA_SEC_COVERAGE));
	sa_livemap_init(&st->live);
	st->index = g_hash_table_new(g_direct_hash, g_direct_equal);
	st->names = g_ptr_array_new();
	g_ptr_array_add(st->names, NULL);
	g_ptr_array_add(st->names, NULL);
	return st;
}

static void cov_destroy(void *state)
{
	struct cov_state *st = state;

	sa_livemap_clear(&st->live);
	g_hash_table_destroy(st->index);
	g_ptr_array_free(st->names, TRUE);
	g_free(st);
}

static guint32 name_index(struct cov_state *st, const char *name)
{
	gpointer v = g_hash_table_lookup(st->index, name);

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	g_ptr_array_add(st->names, (gpointer)name);
	g_hash_table_insert(st->index, (gpointer)name,
			    GUINT_TO_POINTER(st->names->len));
	return st->names->len - 1;
}

static void cov_event(void *state, struct sa_rec *r)
{
	struct cov_state *st = state;
	guint64 ptr = r->v[SA_KM_PTR];
	struct sa_live_obj *o, gone;
	guint32 site = COV_KMALLOC;

	if (!st->asked || !(r->have & (1u << SA_KM_PTR)) || !ptr)
		return;
	if (r->ev == SA_EV_KFREE || r->ev == SA_EV_CACHE_FREE) {
		sa_livemap_take(&st->live, ptr, &gone);
		return;
	}
	if (r->ev == SA_EV_CACHE_ALLOC) {
		const char *name = (r->have & (1u << SA_KM_NAME)) ?
			(const char *)(uintptr_t)r->v[SA_KM_NAME] : NULL;

		if (name) {
			site = name_index(st, name);
			st->named = true;
		} else {
			site = COV_UNNAMED;
			st->unnamed = true;
		}
	}
	/*
	 * A pointer still live is allocated again: its object was freed
	 * untraced (or it is a large kmalloc traced twice): one object.
	 */
	o = sa_livemap_put(&st->live, ptr);
	memset(o, 0, sizeof(*o));
	o->ptr = ptr;
	o->site = site;
	o->bytes_alloc = r->v[SA_KM_ALLOC];
}

/* ---- finish: the rows ---- */

struct cov_build {
	struct sa_coverage_result *res;
	struct cov_state *st;
	GHashTable *rows;		/* key (g_strdup) -> struct sa_cov_row */
};

static struct sa_cov_row *row_of(struct cov_build *b, const char *cache,
				 bool kmalloc, guint64 slot)
{
	char *key = kmalloc ? g_strdup_printf("kmalloc-*-%" G_GUINT64_FORMAT,
					      slot) : g_strdup(cache);
	struct sa_cov_row *x = g_hash_table_lookup(b->rows, key);

	if (x) {
		g_free(key);
		return x;
	}
	x = g_new0(struct sa_cov_row, 1);
	x->cache = g_strdup(key);
	x->kmalloc = kmalloc;
	x->slot = slot;
	g_hash_table_insert(b->rows, key, x);
	return x;
}

static void one_live(const struct sa_live_obj *o, void *data)
{
	struct cov_build *b = data;
	struct sa_coverage_result *res = b->res;
	const char *name = o->site >= COV_NAMED ?
		b->st->names->pdata[o->site] : NULL;
	struct sa_cov_row *x = NULL;

	if (o->site == COV_KMALLOC && o->bytes_alloc > res->kmalloc_max) {
		res->large_objs++;
		res->large_bytes += o->bytes_alloc;
		return;
	}
	res->total.traced_objs++;
	res->total.traced_bytes += o->bytes_alloc;
	if (o->site == COV_UNNAMED) {
		res->unnamed_objs++;
		res->unnamed_bytes += o->bytes_alloc;
		return;
	}
	if (!res->per_cache)
		return;
	if (o->site == COV_KMALLOC || sa_cov_is_kmalloc(name))
		x = row_of(b, NULL, true, o->bytes_alloc);
	else
		x = row_of(b, name, false, o->bytes_alloc);
	x->traced_objs++;
	x->traced_bytes += o->bytes_alloc;
}

/* The totals only, from the call-site aggregator's live objects. */
struct cs_live {
	struct sa_coverage_result *res;
	void *cs;
};

static void one_cs_live(const struct sa_live_obj *o, void *data)
{
	struct cs_live *c = data;
	const struct sa_site *s = sa_callsite_site(c->cs, o->site);

	if ((!s || s->kind == SA_KIND_KMALLOC) &&
	    o->bytes_alloc > c->res->kmalloc_max) {
		c->res->large_objs++;
		c->res->large_bytes += o->bytes_alloc;
		return;
	}
	c->res->total.traced_objs++;
	c->res->total.traced_bytes += o->bytes_alloc;
}

static void rest_of(struct sa_cov_row *x)
{
	x->rest_objs = (gint64)x->slab_objs - (gint64)x->traced_objs;
	x->rest_bytes = (gint64)x->slab_bytes - (gint64)x->traced_bytes;
}

static gint by_rest(gconstpointer a, gconstpointer b)
{
	const struct sa_cov_row *x = *(struct sa_cov_row *const *)a;
	const struct sa_cov_row *y = *(struct sa_cov_row *const *)b;

	if (x->rest_bytes != y->rest_bytes)
		return x->rest_bytes > y->rest_bytes ? -1 : 1;
	if (x->slab_bytes != y->slab_bytes)
		return x->slab_bytes > y->slab_bytes ? -1 : 1;
	return strcmp(x->cache, y->cache);
}

/* The slabinfo at the end of the trace, or NULL with res->why. */
static struct sa_slab_table *end_slabinfo(const struct sa_report *rep,
					  struct sa_coverage_result *res)
{
	struct sa_slab_table *t = NULL;
	struct sa_snapshot *snap;

	if (!rep->origin.snapshot_end) {
		res->why = "the trace carries no system snapshot at its end "
			   "(recorded with --no-snapshot, or not by slabacct)";
		return NULL;
	}
	snap = sa_snapshot_from_json(rep->origin.snapshot_end,
				     "the system snapshot at the end", NULL);
	if (!snap) {
		res->why = "its system snapshot at the end cannot be read";
		return NULL;
	}
	if (snap->text[SA_SRC_SLABINFO])
		t = sa_slab_parse_proc(snap->text[SA_SRC_SLABINFO],
				       snap->page_size > 0 ? snap->page_size :
				       4096, NULL);
	if (!t)
		res->why = snap->text[SA_SRC_SLABINFO] ?
			   "its /proc/slabinfo cannot be parsed" :
			   "its system snapshot has no /proc/slabinfo "
			   "(not readable where it was recorded)";
	sa_snapshot_free(snap);
	return t;
}

static void free_row(gpointer p)
{
	struct sa_cov_row *x = p;

	g_free(x->cache);
	g_free(x);
}

static void *cov_finish(void *state, struct sa_report *rep)
{
	struct cov_state *st = state;
	struct sa_coverage_result *res = g_new0(struct sa_coverage_result, 1);
	struct cov_build b = { res, st, NULL };
	bool asked = rep->sections & SA_SECBIT(SA_SEC_COVERAGE);
	struct sa_slab_table *t;
	GHashTableIter it;
	gpointer v;
	guint i;

	res->rows = g_ptr_array_new_with_free_func(free_row);
	res->total.cache = g_strdup("total");
	t = end_slabinfo(rep, res);
	if (!t) {
		if (asked)
			sa_report_note(rep, "coverage: %s", res->why);
		return res;
	}
	res->have_slabinfo = true;
	res->per_cache = st->named && !st->unnamed;
	b.rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (i = 0; i < t->caches->len; i++) {
		const struct sa_slab_cache *c = t->caches->pdata[i];
		bool km = sa_cov_is_kmalloc(c->name);
		struct sa_cov_row *x;

		if (km && c->object_size > res->kmalloc_max)
			res->kmalloc_max = c->object_size;
		res->total.caches++;
		res->total.slab_objs += c->active_objs;
		res->total.slab_bytes += c->active_objs * c->object_size;
		if (!res->per_cache)
			continue;
		x = row_of(&b, c->name, km, c->object_size);
		x->caches++;
		x->slab_objs += c->active_objs;
		x->slab_bytes += c->active_objs * c->object_size;
	}
	sa_slab_table_free(t);
	if (!st->asked) {
		struct cs_live c = { res, sa_pipeline_state(st->p,
							    SA_SEC_CALLSITE) };

		res->per_cache = false;
		if (c.cs)
			sa_callsite_foreach_live(c.cs, one_cs_live, &c);
	} else {
		sa_livemap_foreach(&st->live, one_live, &b);
	}
	rest_of(&res->total);
	g_hash_table_iter_init(&it, b.rows);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct sa_cov_row *x = v;

		rest_of(x);
		g_ptr_array_add(res->rows, x);
	}
	g_hash_table_destroy(b.rows);
	g_ptr_array_sort(res->rows, by_rest);
	if (!asked)
		return res;
	if (!res->per_cache)
		sa_report_note(rep, "coverage: in total only: %s",
			       st->unnamed ? "kmem_cache_alloc events do not "
			       "name their cache on this kernel" :
			       "the trace has no named cache allocation");
	if (rep->origin.filter)
		sa_report_note(rep, "coverage: the recording was filtered "
			       "(%s): the trace explains only what passed "
			       "the filter", rep->origin.filter);
	return res;
}

static void cov_free_result(void *result)
{
	struct sa_coverage_result *res = result;

	g_ptr_array_free(res->rows, TRUE);
	g_free(res->total.cache);
	g_free(res);
}

const struct sa_agg sa_agg_coverage = {
	.events = SA_EVBIT(SA_EV_KMALLOC) | SA_EVBIT(SA_EV_CACHE_ALLOC) |
		  SA_EVBIT(SA_EV_KFREE) | SA_EVBIT(SA_EV_CACHE_FREE),
	.create = cov_create,
	.event = cov_event,
	.finish = cov_finish,
	.destroy = cov_destroy,
	.free_result = cov_free_result,
};
