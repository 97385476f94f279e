// SPDX-License-Identifier: GPL-2.0
/* slabacct diff: loading either kind of input, matching and sorting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "report/agg/areas.h"
#include "report/agg/coverage.h"
#include "report/agg/callsite.h"
#include "report/diff.h"
#include "symbols/symbols.h"

static const char *const kind_tag[SA_DIFF_KIND_NR] = { "kmalloc", "cache",
							"any", "vmalloc",
							"percpu" };

/* The function of a site name: up to the '+' or the module. */
static char *func_of(const char *name)
{
	return g_strndup(name, strcspn(name, "+ "));
}

/* With keep_raw (a set of function names), those are not normalised. */
static char *key_of(const char *name, enum sa_diff_by by,
		    GHashTable *keep_raw)
{
	GString *s = g_string_new(NULL);
	const char *p = name, *mod = strstr(name, " [");

	if (by == SA_DIFF_BY_FUNCTION) {
		char *f = func_of(name), buf[256];

		if (keep_raw && g_hash_table_contains(keep_raw, f))
			g_string_append(s, f);
		else
			g_string_append(s, sa_sym_alloc_name(f, buf,
							     sizeof(buf)));
		g_free(f);
	} else {
		/* "func+0x1a/0x40 [mod]" -> "func+0x1a [mod]" */
		const char *slash = strchr(p, '/');
		const char *end = mod ? mod : p + strlen(p);

		g_string_append_len(s, p, (slash && slash < end ? slash : end)
				    - p);
	}
	if (mod)
		g_string_append(s, mod);
	return g_string_free(s, FALSE);
}

struct sa_delta sa_delta_u64(guint64 a, guint64 b)
{
	struct sa_delta d = { b >= a ? b - a : a - b, b < a };

	return d;
}

struct sa_delta sa_delta_s64(gint64 a, gint64 b)
{
	/* two's complement: the unsigned difference is exact modulo 2^64 */
	struct sa_delta d = { b >= a ? (guint64)b - (guint64)a :
			      (guint64)a - (guint64)b, b < a };

	return d;
}

gint64 sa_delta_clamp(struct sa_delta d)
{
	gint64 v = d.mag > G_MAXINT64 ? G_MAXINT64 : (gint64)d.mag;

	return d.neg ? -v : v;
}

static void sat_add(guint64 *sum, guint64 v)
{
	if (!g_uint64_checked_add(sum, *sum, v))
		*sum = G_MAXUINT64;
}

static void sat_add_s(gint64 *sum, gint64 v)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*sum = v < 0 ? G_MININT64 : G_MAXINT64;
}

/* Add v to sum, each counter saturating. */
static void vals_add(struct sa_diff_vals *sum, const struct sa_diff_vals *v)
{
	sat_add(&sum->allocs, v->allocs);
	sat_add(&sum->frees, v->frees);
	sat_add(&sum->bytes_alloc, v->bytes_alloc);
	sat_add(&sum->bytes_req, v->bytes_req);
	sat_add(&sum->slack, v->slack);
	sat_add_s(&sum->live, v->live);
	sat_add_s(&sum->live_bytes, v->live_bytes);
}

char *sa_diff_key(const char *name, enum sa_diff_by by)
{
	return key_of(name, by, NULL);
}

/*
 * The function names of one side that share their normalised name with
 * another of the same side (d_alloc and __d_alloc): those stay apart.
 */
static GHashTable *ambiguous(const char *const *names, guint n)
{
	GHashTable *first = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, g_free);
	GHashTable *keep = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	guint i;

	for (i = 0; i < n; i++) {
		char *f = func_of(names[i]), buf[256];
		const char *norm = sa_sym_alloc_name(f, buf, sizeof(buf));
		const char *had = g_hash_table_lookup(first, norm);

		if (!had) {
			g_hash_table_insert(first, g_strdup(norm), f);
			continue;
		}
		if (strcmp(had, f)) {
			g_hash_table_add(keep, g_strdup(had));
			g_hash_table_add(keep, f);
		} else {
			g_free(f);
		}
	}
	g_hash_table_destroy(first);
	return keep;
}

/* Add v to the row of key full ("KIND\tNAME", taken over) and the total. */
static void add_keyed(struct sa_diff_side *s, char *full,
		      const struct sa_diff_vals *v)
{
	struct sa_diff_vals *have = g_hash_table_lookup(s->rows, full);
	int kind = full[0] - '0';

	if (!have) {
		have = g_new0(struct sa_diff_vals, 1);
		g_hash_table_insert(s->rows, full, have);
	} else {
		g_free(full);
	}
	vals_add(have, v);
	/* the slab's (or allocinfo's) total, or the area's own */
	if (kind < SA_DIFF_KIND_VMALLOC)
		vals_add(&s->total, v);
	else
		vals_add(&s->area[kind - SA_DIFF_KIND_VMALLOC].total, v);
}

static void add_row(struct sa_diff_side *s, int kind, const char *name,
		    const struct sa_diff_vals *v, enum sa_diff_by by,
		    GHashTable *keep_raw)
{
	char *key = key_of(name, by, keep_raw);
	char *full = g_strdup_printf("%d\t%s", kind, key);

	g_free(key);
	if (by == SA_DIFF_BY_FUNCTION) {
		/* matched by the allocation name, shown by its own */
		if (!s->names)
			s->names = g_hash_table_new_full(g_str_hash,
							 g_str_equal, g_free,
							 g_free);
		if (!g_hash_table_contains(s->names, full)) {
			const char *mod = strstr(name, " [");
			char *f = func_of(name);

			g_hash_table_insert(s->names, g_strdup(full),
					    g_strconcat(f, mod, NULL));
			g_free(f);
		}
	}
	add_keyed(s, full, v);
}

void sa_diff_side_add_callsite(struct sa_diff_side *s,
			       const struct sa_callsite_result *r,
			       enum sa_diff_by by)
{
	const char **names = g_new(const char *, r->sites->len + 1);
	GHashTable *keep;
	guint i;

	for (i = 0; i < r->sites->len; i++)
		names[i] = ((const struct sa_site *)r->sites->pdata[i])->sym;
	keep = ambiguous(names, r->sites->len);
	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *x = r->sites->pdata[i];
		struct sa_diff_vals v = {
			x->allocs, x->frees, x->bytes_alloc, x->bytes_req,
			x->slack, x->live, x->live_alloc,
		};

		add_row(s, x->kind, x->sym, &v, by, keep);
	}
	g_hash_table_destroy(keep);
	g_free(names);
}

void sa_diff_side_add_areas(struct sa_diff_side *s,
			    const struct sa_area_result *r,
			    enum sa_diff_by by)
{
	int kind = r->kind == SA_AREA_PERCPU ? SA_DIFF_KIND_PERCPU :
		   SA_DIFF_KIND_VMALLOC;
	const char **names = g_new(const char *, r->rows->len + 1);
	GHashTable *keep;
	guint i;

	for (i = 0; i < r->rows->len; i++)
		names[i] = ((const struct sa_area_row *)r->rows->pdata[i])->sym;
	s->area[kind - SA_DIFF_KIND_VMALLOC].traced |= r->present;
	keep = ambiguous(names, r->rows->len);
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_area_row *x = r->rows->pdata[i];
		struct sa_diff_vals v = {
			x->allocs, x->frees, x->bytes, 0, 0, x->live,
			x->live_bytes,
		};

		add_row(s, kind, x->sym, &v, by, keep);
	}
	g_hash_table_destroy(keep);
	g_free(names);
}

void sa_diff_side_add_coverage(struct sa_diff_side *s,
			       const struct sa_coverage_result *r)
{
	if (!r || !r->have_slabinfo)
		return;
	s->cov.known = true;
	s->cov.traced_bytes = r->total.traced_bytes;
	s->cov.slab_bytes = r->total.slab_bytes;
	s->cov.rest_bytes = r->total.rest_bytes;
	s->cov.traced_objs = r->total.traced_objs;
	s->cov.slab_objs = r->total.slab_objs;
	s->cov.rest_objs = r->total.rest_objs;
}

void sa_diff_side_add_rows(struct sa_diff_side *s, guint n,
			   const int *kinds, const char *const *names,
			   const struct sa_diff_vals *vals, enum sa_diff_by by)
{
	GHashTable *keep = ambiguous(names, n);
	guint i;

	for (i = 0; i < n; i++)
		add_row(s, kinds[i], names[i], &vals[i], by, keep);
	g_hash_table_destroy(keep);
}

int sa_diff_side_load_trace(struct sa_diff_side *s, const char *path,
		      const struct sa_diff_opts *o, GError **err)
{
	struct sa_report_opts ro = { .threads = o->threads,
				     .progress = o->progress,
				     .progress_data = o->progress_data };
	int cs = SA_SEC_CALLSITE;
	struct sa_callsite_result *r;
	struct sa_report *rep;

	rep = sa_report_read(path, 1u << cs | SA_SECBIT(SA_SEC_VMALLOC) |
			     SA_SECBIT(SA_SEC_PERCPU) |
			     SA_SECBIT(SA_SEC_COVERAGE), &ro, err);
	if (!rep)
		return -1;
	s->source = "trace";
	s->kernel = g_strdup(rep->origin.kernel_release);
	s->lost_known = rep->origin.lost_known;
	s->lost = rep->origin.lost_total;
	s->truncated = g_strdup(rep->origin.truncated);
	s->truncated_ns = rep->origin.truncated_ns;
	s->truncated_at_known = rep->origin.truncated_at_known;
	s->snapshot = g_strdup(rep->origin.snapshot_end ?
			       rep->origin.snapshot_end :
			       rep->origin.snapshot_start);
	r = rep->result[cs];
	sa_diff_side_add_callsite(s, r, o->by);
	/* a trace without their events has no such rows */
	sa_diff_side_add_areas(s, rep->result[SA_SEC_VMALLOC], o->by);
	sa_diff_side_add_areas(s, rep->result[SA_SEC_PERCPU], o->by);
	sa_diff_side_add_coverage(s, rep->result[SA_SEC_COVERAGE]);
	sa_report_free(rep);
	return 0;
}

int sa_diff_side_load_account(struct sa_diff_side *s, const char *path,
			const struct sa_diff_opts *o, GError **err)
{
	struct sa_account *a = sa_account_load(path, err);
	const char **names;
	GHashTable *keep;
	size_t i;

	if (!a)
		return -1;	/* the error names file, line, column */
	s->source = "account";
	/* the layout of a truncated trace's report keeps the mark */
	s->truncated = g_strdup(a->trace_truncated);
	s->truncated_ns = a->trace_truncated_ns;
	s->truncated_at_known = a->trace_truncated_at_known;
	s->account = g_new0(struct sa_account_head, 1);
	sa_account_head_of(a, s->account);
	names = g_new(const char *, a->n_rows + 1);
	for (i = 0; i < a->n_rows; i++)
		names[i] = a->rows[i].caller;
	keep = ambiguous(names, a->n_rows);
	g_free(names);
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *x = &a->rows[i];
		struct sa_diff_vals v = {
			x->allocs, x->frees, x->total, x->req, x->slack,
			x->objs, x->live,
		};

		add_row(s, x->kind == SA_ACCOUNT_CACHE, x->caller, &v, o->by,
			keep);
	}
	g_hash_table_destroy(keep);
	sa_account_free(a);
	return 0;
}

/*
 * A /proc/allocinfo snapshot: a site is FILE:LINE and its function, shown
 * "func file:line [module]"; by function, "func [module]" as for the
 * other inputs. Its values are live ones only.
 */
int sa_diff_side_load_allocinfo(struct sa_diff_side *s, const char *path,
				const struct sa_diff_opts *o, GError **err)
{
	struct sa_allocinfo *ai = sa_allocinfo_load(path, err);
	const char **names;
	GHashTable *keep;
	size_t i;

	if (!ai)
		return -1;	/* the error names file, line, column */
	s->source = "allocinfo";
	s->allocinfo = g_new0(struct sa_allocinfo_head, 1);
	sa_allocinfo_head_of(ai, s->allocinfo);
	names = g_new(const char *, ai->n_rows + 1);
	for (i = 0; i < ai->n_rows; i++)
		names[i] = ai->rows[i].function;
	keep = ambiguous(names, ai->n_rows);
	g_free(names);
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *x = &ai->rows[i];
		struct sa_diff_vals v = { .live = x->calls,
					  .live_bytes = x->bytes };
		char *mod = x->module ? g_strdup_printf(" [%s]", x->module) :
			    g_strdup("");
		char *name;

		if (!x->calls && !x->bytes) {
			g_free(mod);
			continue;	/* nothing live: not a row */
		}
		if (o->by == SA_DIFF_BY_FUNCTION) {
			name = g_strconcat(x->function, mod, NULL);
			add_row(s, SA_DIFF_KIND_ANY, name, &v, o->by, keep);
		} else {
			name = g_strdup_printf("%s %s:%u%s", x->function,
					       x->file, x->line, mod);
			add_keyed(s, g_strdup_printf("%d\t%s",
						     SA_DIFF_KIND_ANY, name),
				  &v);
		}
		g_free(name);
		g_free(mod);
	}
	g_hash_table_destroy(keep);
	sa_allocinfo_free(ai);
	return 0;
}

int sa_diff_check_sides(const struct sa_diff *d, GError **err)
{
	const struct sa_diff_side *A = &d->side[0], *B = &d->side[1];

	if (!A->allocinfo == !B->allocinfo)
		return 0;
	g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
		    "%s is a /proc/allocinfo snapshot and %s is not: "
		    "allocinfo counts what is live per source line, of every "
		    "allocator, a %s counts allocations per call address; "
		    "compare allocinfo with allocinfo",
		    A->allocinfo ? A->file : B->file,
		    A->allocinfo ? B->file : A->file,
		    !strcmp((A->allocinfo ? B : A)->source, "trace") ?
		    "trace" : "/proc/slab_account snapshot");
	return -1;
}

void sa_diff_side_clear(struct sa_diff_side *s)
{
	g_free(s->file);
	g_free(s->kernel);
	g_free(s->truncated);
	g_free(s->snapshot);
	g_free(s->account);
	g_free(s->allocinfo);
	if (s->rows)
		g_hash_table_destroy(s->rows);
	if (s->names)
		g_hash_table_destroy(s->names);
	memset(s, 0, sizeof(*s));
}

static guint64 sort_value(const struct sa_diff_row *r, enum sa_diff_sort k)
{
	return (k == SA_DIFF_SORT_SLACK ? r->d_slack :
		k == SA_DIFF_SORT_ALLOCS ? r->d_allocs :
		k == SA_DIFF_SORT_LIVE ? r->d_live_bytes :
		k == SA_DIFF_SORT_LIVE_COUNT ? r->d_live : r->d_bytes).mag;
}

static gint by_change(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct sa_diff_row *x = a, *y = b;
	enum sa_diff_sort k = GPOINTER_TO_INT(data);
	guint64 vx = sort_value(x, k), vy = sort_value(y, k);
	int c;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if ((c = strcmp(x->site, y->site)))
		return c;
	return x->kind - y->kind;
}

/* The name a side shows for key: as it was in that side's input. */
const char *sa_diff_side_name(const struct sa_diff_side *s, const char *key)
{
	const char *n = s->names ? g_hash_table_lookup(s->names, key) : NULL;

	return n ? n : key + 2;
}
#define shown_name sa_diff_side_name

static void add_diff_row(struct sa_diff *d, const char *key,
			 const struct sa_diff_vals *a,
			 const struct sa_diff_vals *b)
{
	static const struct sa_diff_vals zero;
	struct sa_diff_row r = { 0 };
	const char *na = shown_name(&d->side[0], key);
	const char *nb = shown_name(&d->side[1], key);

	r.kind = key[0] - '0';
	/* a function renamed across kernels: both names */
	r.site = !a ? g_strdup(nb) : !b || !strcmp(na, nb) ? g_strdup(na) :
		 g_strdup_printf("%s -> %s", na, nb);
	r.a = a ? *a : zero;
	r.b = b ? *b : zero;
	r.d_bytes = sa_delta_u64(r.a.bytes_alloc, r.b.bytes_alloc);
	r.d_slack = sa_delta_u64(r.a.slack, r.b.slack);
	r.d_allocs = sa_delta_u64(r.a.allocs, r.b.allocs);
	r.d_live_bytes = sa_delta_s64(r.a.live_bytes, r.b.live_bytes);
	r.d_live = sa_delta_s64(r.a.live, r.b.live);
	r.status = !a ? SA_DIFF_NEW : !b ? SA_DIFF_GONE :
		   memcmp(a, b, sizeof(*a)) ? SA_DIFF_CHANGED : SA_DIFF_SAME;
	switch (r.status) {
	case SA_DIFF_NEW:
		d->n_new++;
		break;
	case SA_DIFF_GONE:
		d->n_gone++;
		break;
	case SA_DIFF_CHANGED:
		d->n_changed++;
		break;
	default:
		d->n_same++;
		break;
	}
	g_array_append_val(d->rows, r);
}

void sa_diff_compute_rows(struct sa_diff *d, const struct sa_diff_opts *o)
{
	struct sa_diff_side *A = &d->side[0], *B = &d->side[1];
	enum sa_diff_sort sort;
	GHashTableIter it;
	gpointer k, v;
	int i;

	d->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_diff_row));
	g_hash_table_iter_init(&it, A->rows);
	while (g_hash_table_iter_next(&it, &k, &v))
		add_diff_row(d, k, v, g_hash_table_lookup(B->rows, k));
	g_hash_table_iter_init(&it, B->rows);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (!g_hash_table_contains(A->rows, k))
			add_diff_row(d, k, NULL, v);
	d->d_bytes = sa_delta_u64(A->total.bytes_alloc, B->total.bytes_alloc);
	d->d_slack = sa_delta_u64(A->total.slack, B->total.slack);
	d->d_allocs = sa_delta_u64(A->total.allocs, B->total.allocs);
	d->d_live_bytes = sa_delta_s64(A->total.live_bytes,
				       B->total.live_bytes);
	d->d_live = sa_delta_s64(A->total.live, B->total.live);
	for (i = 0; i < SA_DIFF_AREA_NR; i++) {
		const struct sa_diff_vals *a = &A->area[i].total;
		const struct sa_diff_vals *b = &B->area[i].total;

		d->area[i].shown = A->area[i].traced || B->area[i].traced;
		d->area[i].d_bytes = sa_delta_u64(a->bytes_alloc,
						  b->bytes_alloc);
		d->area[i].d_allocs = sa_delta_u64(a->allocs, b->allocs);
		d->area[i].d_frees = sa_delta_u64(a->frees, b->frees);
		d->area[i].d_live_bytes = sa_delta_s64(a->live_bytes,
						       b->live_bytes);
		d->area[i].d_live = sa_delta_s64(a->live, b->live);
	}
	d->cov.shown = A->cov.known && B->cov.known;
	d->cov.d_traced = sa_delta_u64(A->cov.traced_bytes,
				       B->cov.traced_bytes);
	d->cov.d_slab = sa_delta_u64(A->cov.slab_bytes, B->cov.slab_bytes);
	d->cov.d_rest = sa_delta_s64(A->cov.rest_bytes, B->cov.rest_bytes);
	d->allocinfo = A->allocinfo && B->allocinfo;
	sort = o ? o->sort : SA_DIFF_SORT_BYTES;
	/* allocinfo has live figures only: its bytes are live bytes, its
	 * allocations live ones */
	if (d->allocinfo)
		sort = sort == SA_DIFF_SORT_ALLOCS ? SA_DIFF_SORT_LIVE_COUNT :
		       SA_DIFF_SORT_LIVE;
	g_array_sort_with_data(d->rows, by_change, GINT_TO_POINTER(sort));
}

void sa_diff_view(struct sa_diff *d, const struct sa_diff_opts *o)
{
	guint i, kept;

	/* leave out the unchanged rows (unless all) and those past top */
	for (i = 0, kept = 0; i < d->rows->len; i++) {
		struct sa_diff_row *r = &g_array_index(d->rows,
						       struct sa_diff_row, i);

		if ((r->status == SA_DIFF_SAME && !(o && o->all)) ||
		    (o && o->top && kept >= o->top)) {
			g_free(r->site);
			d->hidden++;
			continue;
		}
		g_array_index(d->rows, struct sa_diff_row, kept++) = *r;
	}
	g_array_set_size(d->rows, kept);
}

void sa_diff_compute(struct sa_diff *d, const struct sa_diff_opts *o)
{
	sa_diff_compute_rows(d, o);
	sa_diff_view(d, o);
}

void sa_diff_clear(struct sa_diff *d)
{
	guint i;

	for (i = 0; d->rows && i < d->rows->len; i++)
		g_free(g_array_index(d->rows, struct sa_diff_row, i).site);
	if (d->rows)
		g_array_free(d->rows, TRUE);
	sa_diff_side_clear(&d->side[0]);
	sa_diff_side_clear(&d->side[1]);
	memset(d, 0, sizeof(*d));
}

int sa_diff_sort_parse(const char *s, enum sa_diff_sort *sort)
{
	static const char *const names[] = { "bytes", "slack", "allocs",
					     "live" };
	unsigned int i;

	for (i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(s, names[i])) {
			*sort = i;
			return 0;
		}
	return -1;
}

const char *sa_diff_kind_short(int kind)
{
	static const char *const tag[SA_DIFF_KIND_NR] = { "kmall", "cache",
							  "any", "vmall",
							  "pcpu" };

	return tag[kind >= 0 && kind < SA_DIFF_KIND_NR ? kind : 0];
}

const char *sa_diff_kind_name(int kind)
{
	return kind_tag[kind >= 0 && kind < SA_DIFF_KIND_NR ? kind : 0];
}

const char *sa_diff_area_name(enum sa_diff_area a)
{
	return sa_diff_kind_name(sa_diff_area_kind(a));
}

int sa_diff_area_kind(enum sa_diff_area a)
{
	return a == SA_DIFF_AREA_PERCPU ? SA_DIFF_KIND_PERCPU :
	       SA_DIFF_KIND_VMALLOC;
}
