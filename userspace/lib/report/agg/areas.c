// SPDX-License-Identifier: GPL-2.0
/*
 * The vmalloc and percpu aggregators (report/agg/areas.h).
 */
#include <string.h>

#include "report/agg/areas.h"
#include "report/pipeline.h"
#include "symbols/attrib.h"
#include "symbols/symbols.h"
#include "util/inttable.h"

struct area_live {
	guint32 row;
	guint64 bytes;
};

struct area_state {
	enum sa_area_kind kind;
	const struct sa_report_opts *opts;
	struct sa_symbols *syms;	/* the trace's; NULL: no attribution */
	struct sa_wrappers *machinery;	/* the allocation wrappers, vmalloc's
					 * and percpu's, and --wrapper's */
	GHashTable *rowof;		/* (how, a, b) -> row index + 1 */
	GHashTable *attr;		/* (site, stack) -> row index + 1 */
	GPtrArray *rows;		/* struct sa_area_row * */
	GHashTable *live;		/* address -> struct area_live */
	struct sa_area_result *res;	/* the totals, filled as we go */
	bool frees_seen;
	bool given;
};

/* The key of a row: how it was found and two addresses. */
struct row_key {
	guint64 a, b;
	guint32 how;
};

static guint row_hash(gconstpointer p)
{
	const struct row_key *k = p;

	return (guint)(k->a ^ (k->a >> 29) ^ (k->b * 31) ^ (k->b >> 33)) +
	       k->how;
}

static gboolean row_equal(gconstpointer x, gconstpointer y)
{
	const struct row_key *a = x, *b = y;

	return a->a == b->a && a->b == b->b && a->how == b->how;
}

struct attr_key {
	guint64 site;
	const struct sa_stack *stack;
};

static guint attr_hash(gconstpointer p)
{
	const struct attr_key *k = p;

	return (guint)(k->site ^ (k->site >> 32)) * 31 +
	       g_direct_hash(k->stack);
}

static gboolean attr_equal(gconstpointer x, gconstpointer y)
{
	const struct attr_key *a = x, *b = y;

	return a->site == b->site && a->stack == b->stack;
}

/* Counters from hostile input saturate rather than wrap. */
static guint64 sat_add(guint64 a, guint64 b)
{
	return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

const char *sa_area_name(enum sa_area_kind kind)
{
	return kind == SA_AREA_PERCPU ? "percpu" : "vmalloc";
}

const char *sa_area_how_name(enum sa_area_how how)
{
	static const char *const n[] = {
		[SA_AREA_SITE] = "site", [SA_AREA_CALLER] = "caller",
		[SA_AREA_VIA] = "via", [SA_AREA_NO_STACK] = "no_stack",
		[SA_AREA_NO_CALLER] = "no_caller",
	};

	return how <= SA_AREA_NO_CALLER ? n[how] : "?";
}

static void row_free(struct sa_area_row *r)
{
	if (!r)
		return;
	g_free(r->sym);
	g_free(r->caller_sym);
	g_free(r);
}

static void *area_create(enum sa_area_kind kind,
			 const struct sa_report_opts *opts,
			 struct sa_pipeline *p)
{
	struct area_state *st = g_new0(struct area_state, 1);
	guint i;

	st->kind = kind;
	st->opts = opts;
	st->syms = p && p->rep ? p->rep->syms : NULL;
	st->machinery = sa_wrappers_new_area();
	for (i = 0; opts && opts->wrapper_names &&
	     opts->wrapper_names[i]; i++)
		sa_wrappers_add(st->machinery, opts->wrapper_names[i]);
	st->rowof = g_hash_table_new_full(row_hash, row_equal, g_free, NULL);
	st->attr = g_hash_table_new_full(attr_hash, attr_equal, g_free, NULL);
	st->rows = g_ptr_array_new();
	st->live = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					 g_free);
	st->res = g_new0(struct sa_area_result, 1);
	st->res->kind = kind;
	return st;
}

static void *vmalloc_create(const struct sa_report_opts *opts,
			    struct sa_pipeline *p)
{
	return area_create(SA_AREA_VMALLOC, opts, p);
}

static void *percpu_create(const struct sa_report_opts *opts,
			   struct sa_pipeline *p)
{
	return area_create(SA_AREA_PERCPU, opts, p);
}

static void area_destroy(void *state)
{
	struct area_state *st = state;
	guint i;

	if (!st->given) {
		for (i = 0; i < st->rows->len; i++)
			row_free(st->rows->pdata[i]);
		g_free(st->res);
	}
	g_ptr_array_free(st->rows, TRUE);
	g_hash_table_destroy(st->rowof);
	g_hash_table_destroy(st->attr);
	g_hash_table_destroy(st->live);
	sa_wrappers_free(st->machinery);
	g_free(st);
}

/* The row of (how, a, b), made if new. */
static guint32 row_get(struct area_state *st, enum sa_area_how how,
		       guint64 a, guint64 b, const char *via)
{
	struct row_key key = { a, b, how };
	gpointer v = g_hash_table_lookup(st->rowof, &key);
	struct sa_area_row *r;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	r = g_new0(struct sa_area_row, 1);
	r->how = how;
	r->addr = how == SA_AREA_VIA ? a : b ? b : a;
	r->via = via;
	g_ptr_array_add(st->rows, r);
	g_hash_table_insert(st->rowof, g_memdup2(&key, sizeof(key)),
			    GUINT_TO_POINTER(st->rows->len));
	return st->rows->len - 1;
}

/* The allocation name of the function at addr, interned, or NULL. */
static const char *alloc_name(struct sa_symbols *syms, guint64 addr,
			      guint64 *start)
{
	struct sa_sym sym = { 0 };
	char buf[128];

	*start = addr;
	if (!syms || sa_symbols_lookup(syms, addr, &sym) || !sym.func)
		return NULL;
	*start = addr - sym.off;
	return g_intern_string(sa_sym_alloc_name(sym.func, buf, sizeof(buf)));
}

/*
 * The row of an allocation (or failed attempt) at call site site (0: the
 * event has none) with stack stack. Worked out once per site and stack
 * (both interned).
 */
static guint32 row_of(struct area_state *st, guint64 site,
		      const struct sa_stack *stack, bool *attributed)
{
	struct attr_key key = { site, stack };
	bool by_wrapper = st->opts && st->opts->by == SA_BY_WRAPPER;
	enum sa_attrib_result res = SA_ATTRIB_NONE;
	guint64 via = 0, start, caller = 0;
	const char *via_name = NULL;
	gpointer v;
	guint32 idx;
	guint n = 0;

	v = g_hash_table_lookup(st->attr, &key);
	if (v) {
		idx = GPOINTER_TO_UINT(v) >> 1;
		*attributed = GPOINTER_TO_UINT(v) & 1;
		return idx;
	}
	/* --by wrapper: percpu's rows are its call sites */
	if (st->syms && stack && !(by_wrapper && st->kind == SA_AREA_PERCPU)) {
		if (st->kind == SA_AREA_VMALLOC) {
			res = sa_attrib_outer(st->syms, st->machinery, stack,
					      &via, &caller, 1, &n);
		} else {
			res = sa_attrib_frames(st->syms, st->machinery, site,
					       stack, false, &caller, 1, &n);
			via = site;
		}
	}
	if (res == SA_ATTRIB_OK || (by_wrapper && via)) {
		via_name = alloc_name(st->syms, via, &start);
		if (by_wrapper)
			idx = row_get(st, SA_AREA_VIA, start, 0, via_name);
		else
			idx = row_get(st, SA_AREA_CALLER, start, caller,
				      via_name);
	} else if (st->kind == SA_AREA_PERCPU) {
		idx = row_get(st, SA_AREA_SITE, site, 0, NULL);
	} else if (!stack) {
		idx = row_get(st, SA_AREA_NO_STACK, 0, 0, NULL);
	} else {
		idx = row_get(st, SA_AREA_NO_CALLER, 0, 0, NULL);
	}
	*attributed = res == SA_ATTRIB_OK && !by_wrapper;
	/* rows fit in 31 bits: one per event at most, and a trace's events
	 * are counted in far fewer */
	g_hash_table_insert(st->attr, g_memdup2(&key, sizeof(key)),
			    GUINT_TO_POINTER(idx << 1 | *attributed));
	return idx;
}

static void live_add(struct area_state *st, guint64 addr, guint32 idx,
		     guint64 bytes)
{
	struct sa_area_result *res = st->res;
	struct sa_area_row *r = st->rows->pdata[idx];
	struct area_live *old = g_hash_table_lookup(st->live, &addr);
	struct area_live *l;

	if (old) {
		/* allocated again: its free was not traced */
		struct sa_area_row *o = st->rows->pdata[old->row];

		o->live--;
		o->live_bytes -= MIN(o->live_bytes, old->bytes);
		o->freed_untraced++;
		res->freed_untraced++;
		old->row = idx;
		old->bytes = bytes;
	} else {
		l = g_new(struct area_live, 1);
		l->row = idx;
		l->bytes = bytes;
		g_hash_table_insert(st->live, g_memdup2(&addr, sizeof(addr)),
				    l);
	}
	r->live++;
	r->live_bytes = sat_add(r->live_bytes, bytes);
}

static void area_alloc(struct area_state *st, const struct sa_rec *rec,
		       guint64 site, guint64 addr, guint64 bytes, bool failed)
{
	struct sa_area_result *res = st->res;
	struct sa_area_row *r;
	bool attributed;
	guint32 idx;

	idx = row_of(st, site, rec->stack, &attributed);
	r = st->rows->pdata[idx];
	if (failed) {
		r->failed++;
		res->failed++;
		return;
	}
	r->allocs++;
	r->bytes = sat_add(r->bytes, bytes);
	if (attributed)
		res->attributed++;
	if (st->kind == SA_AREA_VMALLOC && !rec->stack)
		res->no_stack++;
	live_add(st, addr, idx, bytes);
}

static void area_free(struct area_state *st, guint64 addr)
{
	struct area_live *l = g_hash_table_lookup(st->live, &addr);
	struct sa_area_row *r;

	st->frees_seen = true;
	if (!l) {
		st->res->unmatched_frees++;
		return;
	}
	r = st->rows->pdata[l->row];
	r->frees++;
	r->freed_bytes = sat_add(r->freed_bytes, l->bytes);
	r->live--;
	r->live_bytes -= MIN(r->live_bytes, l->bytes);
	g_hash_table_remove(st->live, &addr);
}

#define HAVE(r, i)	((r)->have & (1u << (i)))

static void area_event(void *state, struct sa_rec *r)
{
	struct area_state *st = state;
	guint64 bytes;

	switch (r->ev) {
	case SA_EV_VMAP_ALLOC:
		if (!HAVE(r, SA_VA_ADDR) || !HAVE(r, SA_VA_SIZE))
			return;
		area_alloc(st, r, 0, r->v[SA_VA_ADDR], r->v[SA_VA_SIZE],
			   HAVE(r, SA_VA_FAILED) && r->v[SA_VA_FAILED]);
		break;
	case SA_EV_VMAP_FREE:
		if (HAVE(r, SA_VF_START))
			area_free(st, r->v[SA_VF_START]);
		break;
	case SA_EV_PCPU_ALLOC:
		if (!HAVE(r, SA_PA_PTR) || !HAVE(r, SA_PA_SIZE))
			return;
		if (HAVE(r, SA_PA_BYTES)) {
			bytes = r->v[SA_PA_BYTES];
		} else {
			bytes = r->v[SA_PA_SIZE];
			st->res->per_cpu_bytes = true;
		}
		area_alloc(st, r, HAVE(r, SA_PA_CALL_SITE) ?
			   r->v[SA_PA_CALL_SITE] : 0, r->v[SA_PA_PTR], bytes,
			   false);
		break;
	case SA_EV_PCPU_FREE:
		if (HAVE(r, SA_PF_PTR))
			area_free(st, r->v[SA_PF_PTR]);
		break;
	case SA_EV_PCPU_FAIL:
		st->res->failed++;
		if (HAVE(r, SA_PX_SIZE))
			st->res->failed_bytes = sat_add(st->res->failed_bytes,
							r->v[SA_PX_SIZE]);
		break;
	default:
		break;
	}
}

/* The row's names, once the trace's symbols are known. */
static void name_row(struct sa_symbols *syms, struct sa_area_row *r)
{
	struct sa_sym sym = { 0 };
	char *f;

	switch (r->how) {
	case SA_AREA_NO_STACK:
		r->sym = g_strdup("(no kernel stack)");
		return;
	case SA_AREA_NO_CALLER:
		r->sym = g_strdup("(no caller in the stack)");
		return;
	case SA_AREA_VIA:
		r->sym = g_strdup(r->via ? r->via : "?");
		return;
	default:
		break;
	}
	if (syms)
		sa_symbols_lookup(syms, r->addr, &sym);
	f = sa_sym_format(&sym, r->addr);
	r->func = sym.func;
	r->module = sym.module;
	r->file = sym.file;
	r->line = sym.line;
	if (r->how == SA_AREA_CALLER) {
		r->caller_sym = f;
		r->sym = g_strdup_printf("%s <- %s", r->via ? r->via : "?", f);
	} else {
		r->sym = f;
	}
}

static gint by_bytes(gconstpointer a, gconstpointer b)
{
	const struct sa_area_row *x = *(const struct sa_area_row *const *)a;
	const struct sa_area_row *y = *(const struct sa_area_row *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->allocs != y->allocs)
		return x->allocs > y->allocs ? -1 : 1;
	if (x->failed != y->failed)
		return x->failed > y->failed ? -1 : 1;
	return strcmp(x->sym, y->sym);
}

static void notes(struct sa_report *rep, const struct sa_area_result *res)
{
	const char *name = sa_area_name(res->kind);

	if (!res->present) {
		sa_report_note(rep, "%s: the trace has no %s event (record "
			       "-e %s, on a kernel that has it)", name,
			       res->kind == SA_AREA_PERCPU ?
			       "percpu:percpu_alloc_percpu" :
			       "vmalloc:alloc_vmap_area", name);
		return;
	}
	if (!res->have_free)
		sa_report_note(rep, "%s: the trace has no %s event: every "
			       "allocation is counted as live", name,
			       res->kind == SA_AREA_PERCPU ?
			       "percpu:percpu_free_percpu" :
			       "vmalloc:free_vmap_area_noflush");
	if (res->no_stack)
		sa_report_note(rep, "vmalloc: %" G_GUINT64_FORMAT " allocations "
			       "had no kernel stack, and alloc_vmap_area has "
			       "no call site: one row, '(no kernel stack)'. "
			       "Record with --stacks to attribute them to "
			       "their callers", res->no_stack);
	if (res->per_cpu_bytes)
		sa_report_note(rep, "percpu: the events have no bytes_alloc: "
			       "bytes are the size per CPU");
	if (res->unmatched_frees)
		sa_report_note(rep, "%s: %" G_GUINT64_FORMAT " frees of memory "
			       "allocated before the trace", name,
			       res->unmatched_frees);
}

static void *area_finish(void *state, struct sa_report *rep)
{
	struct area_state *st = state;
	struct sa_area_result *res = st->res;
	guint i;

	/* in the trace's formats, or records of it came (unit tests) */
	res->present = rep->ev_present[st->kind == SA_AREA_VMALLOC ?
				       SA_EV_VMAP_ALLOC : SA_EV_PCPU_ALLOC] ||
		       st->rows->len;
	res->have_free = rep->ev_present[st->kind == SA_AREA_VMALLOC ?
					 SA_EV_VMAP_FREE : SA_EV_PCPU_FREE] ||
			 st->frees_seen;
	res->stacks = rep->stacks > 0;
	res->rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
	for (i = 0; i < st->rows->len; i++) {
		struct sa_area_row *r = st->rows->pdata[i];

		name_row(rep->syms, r);
		res->allocs = sat_add(res->allocs, r->allocs);
		res->bytes = sat_add(res->bytes, r->bytes);
		res->frees = sat_add(res->frees, r->frees);
		res->freed_bytes = sat_add(res->freed_bytes, r->freed_bytes);
		res->live = sat_add(res->live, r->live);
		res->live_bytes = sat_add(res->live_bytes, r->live_bytes);
		g_ptr_array_add(res->rows, r);
	}
	g_ptr_array_sort(res->rows, by_bytes);
	notes(rep, res);
	st->given = true;
	return res;
}

static void area_free_result(void *result)
{
	struct sa_area_result *res = result;

	if (!res)
		return;
	if (res->rows)
		g_ptr_array_free(res->rows, TRUE);
	g_free(res);
}

const struct sa_agg sa_agg_vmalloc = {
	.events = SA_EVBIT(SA_EV_VMAP_ALLOC) | SA_EVBIT(SA_EV_VMAP_FREE),
	.create = vmalloc_create,
	.event = area_event,
	.finish = area_finish,
	.destroy = area_destroy,
	.free_result = area_free_result,
};

const struct sa_agg sa_agg_percpu = {
	.events = SA_EVBIT(SA_EV_PCPU_ALLOC) | SA_EVBIT(SA_EV_PCPU_FREE) |
		  SA_EVBIT(SA_EV_PCPU_FAIL),
	.create = percpu_create,
	.event = area_event,
	.finish = area_finish,
	.destroy = area_destroy,
	.free_result = area_free_result,
};
