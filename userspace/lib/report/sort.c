// SPDX-License-Identifier: GPL-2.0
/* Sort keys of the call-site rows, and the --top/--min-bytes view. */
#include <string.h>

#include "report/agg/live.h"
#include "report/sort.h"

#define DESC(a, b) ((a) > (b) ? -1 : (a) < (b) ? 1 : 0)

static int by_bytes(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->bytes_alloc, b->bytes_alloc);
}

static int by_req(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->bytes_req, b->bytes_req);
}

static int by_slack(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->slack, b->slack);
}

static int by_frag(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->frag, b->frag);
}

static int by_hits(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->allocs, b->allocs);
}

static int by_live(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->live_alloc, b->live_alloc);
}

static int by_pingpong(const struct sa_site *a, const struct sa_site *b)
{
	return DESC(a->pingpong, b->pingpong);
}

static int by_callsite(const struct sa_site *a, const struct sa_site *b)
{
	return g_strcmp0(a->sym, b->sym);
}

static const struct {
	const char *name;
	sa_site_cmp cmp;
} keys[] = {
	{ "bytes", by_bytes },
	{ "req", by_req },
	{ "slack", by_slack },
	{ "frag", by_frag },
	{ "hits", by_hits },
	{ "live", by_live },
	{ "pingpong", by_pingpong },
	{ "callsite", by_callsite },
};

const char *sa_sort_key_names(void)
{
	return "bytes, req, slack, frag, hits, live, pingpong, callsite";
}

const char *sa_sort_key_name(unsigned int i)
{
	return i < G_N_ELEMENTS(keys) ? keys[i].name : NULL;
}

int sa_sort_parse(const char *list, struct sa_sort *s, char **bad)
{
	char **names = g_strsplit(list, ",", -1);
	int i, n = 0, ret = 0;
	unsigned int k;

	*bad = NULL;
	memset(s, 0, sizeof(*s));
	for (i = 0; names[i]; i++) {
		char *name = g_strstrip(names[i]);

		for (k = 0; k < G_N_ELEMENTS(keys); k++)
			if (!strcmp(name, keys[k].name))
				break;
		if (k == G_N_ELEMENTS(keys) || n == SA_SORT_MAX_KEYS) {
			*bad = g_strdup(name);
			ret = -1;
			break;
		}
		s->cmp[n++] = keys[k].cmp;
	}
	g_strfreev(names);
	if (!ret && !n) {
		*bad = g_strdup(list);
		ret = -1;
	}
	return ret;
}

int sa_sort_cmp(const struct sa_sort *s, const struct sa_site *a,
		const struct sa_site *b)
{
	int i, c;

	for (i = 0; s && s->cmp[i]; i++)
		if ((c = s->cmp[i](a, b)))
			return c;
	if ((c = g_strcmp0(a->sym, b->sym)))
		return c;
	return (int)a->kind - (int)b->kind;
}

static gint cmp_thunk(gconstpointer a, gconstpointer b, gpointer data)
{
	return sa_sort_cmp(data, *(struct sa_site *const *)a,
			   *(struct sa_site *const *)b);
}

void sa_live_view(struct sa_live_result *r, guint top)
{
	if (!r || !top)
		return;
	if (r->sites->len > top) {
		r->sites_hidden += r->sites->len - top;
		g_ptr_array_set_size(r->sites, top);
	}
	if (r->objects && r->objects->len > top) {
		r->objects_hidden += r->objects->len - top;
		g_array_set_size(r->objects, top);
	}
}

void sa_callsite_view(struct sa_callsite_result *r, const struct sa_sort *s,
		      guint top, guint64 min_bytes)
{
	struct sa_sort dflt = { { by_bytes } };
	guint i;

	/* /proc/allocinfo rows: their bytes are live bytes */
	if (r->allocinfo)
		dflt.cmp[0] = by_live;
	g_ptr_array_set_size(r->shown, 0);
	r->hidden = 0;
	for (i = 0; i < r->sites->len; i++) {
		struct sa_site *x = r->sites->pdata[i];

		if ((r->allocinfo ? x->live_alloc : x->bytes_alloc) >= min_bytes)
			g_ptr_array_add(r->shown, x);
		else
			r->hidden++;
	}
	g_ptr_array_sort_with_data(r->shown, cmp_thunk,
				   (gpointer)(s ? s : &dflt));
	/* --top N: the first N of each kind, so neither table vanishes */
	if (top) {
		guint kept[SA_KIND_NR] = { 0 }, j = 0;

		for (i = 0; i < r->shown->len; i++) {
			struct sa_site *x = r->shown->pdata[i];
			guint k = x->kind < SA_KIND_NR ? x->kind : 0;

			if (kept[k] < top) {
				kept[k]++;
				r->shown->pdata[j++] = x;
			} else {
				r->hidden++;
			}
		}
		g_ptr_array_set_size(r->shown, j);
	}
}

void sa_callsite_rest(const struct sa_callsite_result *r,
		      struct sa_totals rest[SA_KIND_NR])
{
	GHashTable *shown = g_hash_table_new(NULL, NULL);
	guint i;

	memset(rest, 0, SA_KIND_NR * sizeof(*rest));
	for (i = 0; i < r->shown->len; i++)
		g_hash_table_add(shown, r->shown->pdata[i]);
	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *x = r->sites->pdata[i];
		struct sa_totals *t = &rest[x->kind == SA_KIND_CACHE];

		if (g_hash_table_contains(shown, x))
			continue;
		t->sites++;
		t->allocs += x->allocs;
		t->frees += x->frees;
		t->bytes_alloc += x->bytes_alloc;
		t->bytes_req += x->bytes_req;
		t->slack += x->slack;
		t->live += x->live;
		t->live_alloc += x->live_alloc;
		t->live_req += x->live_req;
		t->pingpong += x->pingpong;
	}
	g_hash_table_destroy(shown);
}
