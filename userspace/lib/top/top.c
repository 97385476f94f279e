// SPDX-License-Identifier: GPL-2.0
/*
 * The model of slabacct top (see top/top.h): samples, rates, sorting and the
 * text layout of the view.
 */
#include <string.h>

#include "util/escape.h"
#include "util/units.h"
#include "top/top.h"

static const struct {
	const char *name;
	int key;
	const char *what;
} sorts[SA_TOP_NR_SORTS] = {
	[SA_TOP_RATE] = { "rate", 'a', "allocations/s" },
	[SA_TOP_BYTES] = { "bytes", 'b', "bytes/s" },
	[SA_TOP_SLACK] = { "slack", 's', "slack" },
	[SA_TOP_LIVE] = { "live", 'l', "live bytes" },
};

int sa_top_sort_parse(const char *s, enum sa_top_sort *sort)
{
	int i;

	for (i = 0; i < SA_TOP_NR_SORTS; i++)
		if (!strcmp(s, sorts[i].name)) {
			*sort = i;
			return 0;
		}
	return -1;
}

const char *sa_top_sort_name(enum sa_top_sort sort)
{
	return sorts[sort].name;
}

int sa_top_sort_key(enum sa_top_sort sort)
{
	return sorts[sort].key;
}

static void row_free(gpointer p)
{
	struct sa_top_row *r = p;

	g_free(r->site);
	g_free(r);
}

void sa_top_row_add(GPtrArray *rows, const struct sa_top_row *r)
{
	struct sa_top_row *n = g_memdup2(r, sizeof(*r));

	n->site = g_strdup(r->site);
	g_ptr_array_add(rows, n);
}

struct sa_top *sa_top_new(struct sa_top_source *src, enum sa_top_sort sort)
{
	struct sa_top *t = g_new0(struct sa_top, 1);

	t->src = src;
	t->sort = sort;
	t->rows = g_ptr_array_new_with_free_func(row_free);
	t->prev = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	return t;
}

void sa_top_free(struct sa_top *t)
{
	if (!t)
		return;
	if (t->src)
		t->src->close(t->src);
	g_ptr_array_free(t->rows, TRUE);
	g_hash_table_destroy(t->prev);
	g_free(t);
}

#define CMP(a, b)	((a) > (b) ? -1 : (a) < (b) ? 1 : 0)

static gint by_sort(gconstpointer pa, gconstpointer pb, gpointer data)
{
	enum sa_top_sort sort = GPOINTER_TO_INT(data);
	const struct sa_top_row *a = *(struct sa_top_row *const *)pa;
	const struct sa_top_row *b = *(struct sa_top_row *const *)pb;
	int c = 0;

	switch (sort) {
	case SA_TOP_RATE:
		c = CMP(a->alloc_rate, b->alloc_rate);
		break;
	case SA_TOP_BYTES:
		c = CMP(a->byte_rate, b->byte_rate);
		break;
	case SA_TOP_SLACK:
		c = CMP(a->slack, b->slack);
		break;
	case SA_TOP_LIVE:
		c = CMP(a->live_bytes, b->live_bytes);
		break;
	default:
		break;
	}
	if (!c)
		c = CMP(a->bytes_alloc, b->bytes_alloc);
	if (!c)
		c = strcmp(a->site, b->site);
	return c;
}

void sa_top_set_sort(struct sa_top *t, enum sa_top_sort sort)
{
	t->sort = sort;
	g_ptr_array_sort_with_data(t->rows, by_sort, GINT_TO_POINTER(sort));
}

int sa_top_refresh(struct sa_top *t, gint64 now_us, GError **err)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(row_free);
	GHashTable *prev = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, g_free);
	guint64 lost_before = t->lost;
	double dt;
	guint i;

	if (t->src->sample(t->src, rows, &t->lost, err)) {
		g_ptr_array_free(rows, TRUE);
		g_hash_table_destroy(prev);
		return -1;
	}
	/* a count that went down was reset (the module's 'reset') */
	t->lost_interval = t->lost >= lost_before ? t->lost - lost_before :
			   t->lost;
	dt = t->prev_us ? (now_us - t->prev_us) / 1e6 : 0;
	t->alloc_rate = t->byte_rate = 0;
	t->live_bytes = 0;
	t->slack = 0;
	for (i = 0; i < rows->len; i++) {
		struct sa_top_row *r = rows->pdata[i];
		char *key = g_strdup_printf("%s %s", r->kind, r->site);
		guint64 *was = g_hash_table_lookup(t->prev, key);
		guint64 *now = g_new(guint64, 2);

		/* a site first seen counts from 0, as the counters did */
		if (dt > 0) {
			guint64 a0 = was ? was[0] : 0, b0 = was ? was[1] : 0;

			r->alloc_rate = r->allocs >= a0 ?
				(r->allocs - a0) / dt : 0;
			r->byte_rate = r->bytes_alloc >= b0 ?
				(r->bytes_alloc - b0) / dt : 0;
		}
		now[0] = r->allocs;
		now[1] = r->bytes_alloc;
		g_hash_table_replace(prev, key, now);
		t->alloc_rate += r->alloc_rate;
		t->byte_rate += r->byte_rate;
		t->live_bytes += r->live_bytes;
		t->slack += r->slack;
	}
	g_ptr_array_free(t->rows, TRUE);
	g_hash_table_destroy(t->prev);
	t->rows = rows;
	t->prev = prev;
	t->interval_s = dt;
	t->prev_us = now_us;
	t->samples++;
	sa_top_set_sort(t, t->sort);
	return 0;
}

/* Append s cut to width columns (0: no limit), and a newline. */
static void line(GString *out, const char *s, int width)
{
	int n = strlen(s);

	if (width > 0 && n > width)
		n = width;
	g_string_append_len(out, s, n);
	g_string_append_c(out, '\n');
}

static char *rate(char buf[16], double v)
{
	return sa_human(buf, (guint64)(v + 0.5));
}

void sa_top_format(const struct sa_top *t, GString *out, int width,
		   int max_rows, unsigned int flags)
{
	char a[16], b[16], c[16], d[16];
	char *s;
	guint i;

	s = g_strdup_printf("slabacct top: %s, sort: %s (%s)%s",
			    sa_esc(t->src->desc), sorts[t->sort].name,
			    sorts[t->sort].what,
			    t->samples < 2 ? ", rates from the next sample" :
			    "");
	line(out, s, width);
	g_free(s);
	/* the loss of the interval next to the rates it makes too low */
	s = g_strdup_printf("allocs/s %s  bytes/s %s  %s %" G_GUINT64_FORMAT
			    " (total %" G_GUINT64_FORMAT ")  every %.1fs",
			    rate(a, t->alloc_rate), rate(b, t->byte_rate),
			    t->lost_interval ? "LOST" : "lost",
			    t->lost_interval, t->lost, t->interval_s);
	line(out, s, width);
	g_free(s);
	s = g_strdup_printf("sites %u  slack %s  live %s", t->rows->len,
			    sa_human(c, t->slack),
			    sa_human(d, t->live_bytes > 0 ? t->live_bytes : 0));
	line(out, s, width);
	g_free(s);
	if (!(flags & SA_TOP_PLAIN))
		line(out, "keys: a allocs/s  b bytes/s  s slack  l live  "
		     "q quit", width);
	line(out, " ALLOCS/s  BYTES/s    SLACK   LIVE_B KIND    SITE", width);
	for (i = 0; i < t->rows->len && (!max_rows || (int)i < max_rows);
	     i++) {
		const struct sa_top_row *r = t->rows->pdata[i];

		s = g_strdup_printf("%9s %8s %8s %8s %-7s %s",
				    rate(a, r->alloc_rate),
				    rate(b, r->byte_rate),
				    sa_human(c, r->slack),
				    sa_human(d, r->live_bytes > 0 ?
					     r->live_bytes : 0),
				    sa_esc(r->kind), sa_esc(r->site));
		line(out, s, width);
		g_free(s);
	}
}
