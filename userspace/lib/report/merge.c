// SPDX-License-Identifier: GPL-2.0
/* slabacct merge: runs into one table of sites with their spread. */
#include <stdlib.h>
#include <string.h>

#include "report/merge.h"

static const char *const measure_names[SA_MERGE_NR] = {
	[SA_MERGE_ALLOCS] = "allocs",
	[SA_MERGE_FREES] = "frees",
	[SA_MERGE_BYTES] = "bytes_alloc",
	[SA_MERGE_REQ] = "bytes_req",
	[SA_MERGE_SLACK] = "slack",
	[SA_MERGE_LIVE] = "live",
	[SA_MERGE_LIVE_BYTES] = "live_bytes",
};

const char *sa_merge_cov_name(int c)
{
	static const char *const n[SA_MERGE_COV_NR] = {
		"traced_bytes", "slab_bytes", "rest_bytes",
	};

	return c >= 0 && c < SA_MERGE_COV_NR ? n[c] : NULL;
}

const char *sa_merge_measure_name(int m)
{
	return m >= 0 && m < SA_MERGE_NR ? measure_names[m] : "?";
}

/* A site's values in the runs that have it. */
struct acc {
	int kind;
	char *name;
	GArray *vals;			/* guint64[SA_MERGE_NR] per run */
};

static void acc_free(gpointer p)
{
	struct acc *a = p;

	g_free(a->name);
	g_array_free(a->vals, TRUE);
	g_free(a);
}

static void vals_of(const struct sa_diff_vals *v, guint64 out[SA_MERGE_NR])
{
	out[SA_MERGE_ALLOCS] = v->allocs;
	out[SA_MERGE_FREES] = v->frees;
	out[SA_MERGE_BYTES] = v->bytes_alloc;
	out[SA_MERGE_REQ] = v->bytes_req;
	out[SA_MERGE_SLACK] = v->slack;
	out[SA_MERGE_LIVE] = v->live > 0 ? (guint64)v->live : 0;
	out[SA_MERGE_LIVE_BYTES] = v->live_bytes > 0 ?
				   (guint64)v->live_bytes : 0;
}

/* The name the run gives a key (as sa_diff_side_name: merge.o is
 * loaded by diff.o's inputs, and uses nothing of it). */
static const char *shown_name(const struct sa_diff_side *s, const char *key)
{
	const char *n = s->names ? g_hash_table_lookup(s->names, key) : NULL;

	return n ? n : key + 2;
}

void sa_merge_init(struct sa_merge *m, enum sa_diff_by by)
{
	memset(m, 0, sizeof(*m));
	m->by = by;
	m->lost_known = true;
	m->runs = g_ptr_array_new();
	m->acc = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       acc_free);
}

int sa_merge_add(struct sa_merge *m, const struct sa_diff_side *s,
		 GError **err)
{
	struct sa_merge_run *run;
	GHashTableIter it;
	gpointer k, v;

	if (s->runs) {
		g_set_error(err, SA_REPORT_ERROR, SA_REPORT_ERROR_FORMAT,
			    "%s: a merge of %u runs: its medians cannot be "
			    "merged again; merge its runs instead", s->file,
			    s->runs);
		return -1;
	}
	if (s->allocinfo) {
		g_set_error(err, SA_REPORT_ERROR, SA_REPORT_ERROR_FORMAT,
			    "%s: a /proc/allocinfo snapshot has live bytes and "
			    "allocations only, not the totals a merge sums; "
			    "compare two with slabacct diff", s->file);
		return -1;
	}
	run = g_new0(struct sa_merge_run, 1);
	run->file = g_strdup(s->file);
	run->source = s->source;
	run->kernel = g_strdup(s->kernel);
	run->lost_known = s->lost_known;
	run->lost = s->lost;
	run->truncated = g_strdup(s->truncated);
	run->truncated_ns = s->truncated_ns;
	run->truncated_at_known = s->truncated_at_known;
	if (s->truncated)
		m->truncated++;
	run->sites = g_hash_table_size(s->rows);
	vals_of(&s->total, run->total);
	run->cov = s->cov;
	g_ptr_array_add(m->runs, run);
	/* a /proc/slab_account snapshot has no events to lose */
	if (!s->lost_known && strcmp(s->source, "account"))
		m->lost_known = false;
	if (!g_uint64_checked_add(&m->lost, m->lost, s->lost))
		m->lost = G_MAXUINT64;

	g_hash_table_iter_init(&it, s->rows);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct acc *a = g_hash_table_lookup(m->acc, k);
		guint64 x[SA_MERGE_NR];

		if (!a) {
			a = g_new0(struct acc, 1);
			a->kind = ((const char *)k)[0] - '0';
			a->name = g_strdup(shown_name(s, k));
			a->vals = g_array_new(FALSE, FALSE, sizeof(x));
			g_hash_table_insert(m->acc, g_strdup(k), a);
		}
		vals_of(v, x);
		g_array_append_val(a->vals, x);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

void sa_spread_of(guint64 *v, guint n, struct sa_spread *s)
{
	guint i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (!g_uint64_checked_add(&s->sum, s->sum, v[i]))
			s->sum = G_MAXUINT64;
	s->min = v[0];
	s->max = v[n - 1];
	/* the mean of the two middle values, rounded down, without overflow */
	s->median = n % 2 ? v[n / 2] :
		    v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

static gint by_bytes(gconstpointer a, gconstpointer b)
{
	const struct sa_merge_row *x = a, *y = b;
	int c;

	if (x->v[SA_MERGE_BYTES].sum != y->v[SA_MERGE_BYTES].sum)
		return x->v[SA_MERGE_BYTES].sum > y->v[SA_MERGE_BYTES].sum ?
		       -1 : 1;
	if ((c = strcmp(x->site, y->site)))
		return c;
	return x->kind - y->kind;
}

void sa_merge_finish(struct sa_merge *m, guint top)
{
	guint n = m->runs->len, i, j;
	guint64 *col = g_new0(guint64, n ? n : 1);
	GHashTableIter it;
	gpointer k, v;
	int x;

	/* every run's kernel, if they share one */
	for (i = 0; i < n; i++) {
		const struct sa_merge_run *r = m->runs->pdata[i];

		if (!r->kernel || (i && g_strcmp0(m->kernel, r->kernel))) {
			g_clear_pointer(&m->kernel, g_free);
			break;
		}
		if (!i)
			m->kernel = g_strdup(r->kernel);
	}
	for (x = 0; x < SA_MERGE_NR; x++) {
		for (i = 0; i < n; i++)
			col[i] = ((const struct sa_merge_run *)
				  m->runs->pdata[i])->total[x];
		sa_spread_of(col, n, &m->total[x]);
	}

	for (x = 0; x < SA_MERGE_COV_NR; x++) {
		m->cov_runs = 0;
		for (i = 0; i < n; i++) {
			const struct sa_diff_coverage *c =
				&((const struct sa_merge_run *)
				  m->runs->pdata[i])->cov;

			if (!c->known)
				continue;
			col[m->cov_runs++] = x == SA_MERGE_COV_TRACED ?
				c->traced_bytes : x == SA_MERGE_COV_SLAB ?
				c->slab_bytes : c->rest_bytes < 0 ? 0 :
				(guint64)c->rest_bytes;
		}
		if (m->cov_runs)
			sa_spread_of(col, m->cov_runs, &m->cov[x]);
	}

	m->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_merge_row));
	g_hash_table_iter_init(&it, m->acc);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct acc *a = v;
		struct sa_merge_row r = { 0 };

		r.site = a->name;
		a->name = NULL;
		r.kind = a->kind;
		r.runs = a->vals->len;
		for (x = 0; x < SA_MERGE_NR; x++) {
			/* the runs without the site count 0 */
			memset(col, 0, n * sizeof(*col));
			for (j = 0; j < a->vals->len; j++)
				col[j] = g_array_index(a->vals, guint64,
						       j * SA_MERGE_NR + x);
			sa_spread_of(col, n, &r.v[x]);
		}
		g_array_append_val(m->rows, r);
	}
	g_hash_table_remove_all(m->acc);
	g_free(col);
	g_array_sort(m->rows, by_bytes);
	if (top && m->rows->len > top) {
		for (i = top; i < m->rows->len; i++)
			g_free(g_array_index(m->rows, struct sa_merge_row,
					     i).site);
		m->hidden = m->rows->len - top;
		g_array_set_size(m->rows, top);
	}
}

void sa_merge_clear(struct sa_merge *m)
{
	guint i;

	for (i = 0; m->runs && i < m->runs->len; i++) {
		struct sa_merge_run *r = m->runs->pdata[i];

		g_free(r->file);
		g_free(r->kernel);
		g_free(r->truncated);
		g_free(r);
	}
	if (m->runs)
		g_ptr_array_free(m->runs, TRUE);
	for (i = 0; m->rows && i < m->rows->len; i++)
		g_free(g_array_index(m->rows, struct sa_merge_row, i).site);
	if (m->rows)
		g_array_free(m->rows, TRUE);
	if (m->acc)
		g_hash_table_destroy(m->acc);
	g_free(m->kernel);
	memset(m, 0, sizeof(*m));
}
