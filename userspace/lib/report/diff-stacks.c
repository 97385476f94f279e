// SPDX-License-Identifier: GPL-2.0
/*
 * The stacks of two recordings side by side (report/diff-stacks.h):
 * each side's call-site rows keyed by their folded line (the path the
 * callsite aggregator keeps, then the leaf), their weights summed per
 * side.
 */
#include <string.h>

#include "report/diff-stacks.h"
#include "report/report.h"
#include "report/agg/callsite.h"

static void stack_free(gpointer p)
{
	struct sa_diff_stack *s = p;

	g_strfreev(s->frames);
	g_free(s);
}

static void add_side(GHashTable *by_line, const struct sa_report *rep,
		     int side)
{
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	guint i;

	for (i = 0; r && i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];
		const char *leaf = s->leaf ? s->leaf : s->sym ? s->sym : "?";
		struct sa_diff_stack *st;
		char *line;

		if (!s->allocs && !s->live)
			continue;
		line = s->path && *s->path ?
			g_strconcat(s->path, ";", leaf, NULL) : g_strdup(leaf);
		st = g_hash_table_lookup(by_line, line);
		if (!st) {
			GStrvBuilder *sb = g_strv_builder_new();
			gchar **f, **path = s->path && *s->path ?
				g_strsplit(s->path, ";", -1) : NULL;

			for (f = path; f && *f; f++)
				g_strv_builder_add(sb, *f);
			g_strv_builder_add(sb, leaf);
			g_strfreev(path);
			st = g_new0(struct sa_diff_stack, 1);
			st->frames = g_strv_builder_end(sb);
			g_strv_builder_unref(sb);
			g_hash_table_insert(by_line, line, st);
		} else {
			g_free(line);
		}
		st->w[side][SA_DSW_ALLOCS] += s->allocs;
		st->w[side][SA_DSW_BYTES] += s->bytes_alloc;
		st->w[side][SA_DSW_LIVE_BYTES] += s->live_alloc;
		st->w[side][SA_DSW_SLACK] += s->slack;
	}
}

static gint by_line(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *sa_diff_stacks(const struct sa_report *a,
			  const struct sa_report *b)
{
	GHashTable *lines = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, NULL);
	GPtrArray *keys = g_ptr_array_new(), *out;
	GHashTableIter it;
	gpointer k;
	guint i;

	add_side(lines, a, 0);
	add_side(lines, b, 1);
	g_hash_table_iter_init(&it, lines);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(keys, k);
	g_ptr_array_sort(keys, by_line);
	out = g_ptr_array_new_full(keys->len, stack_free);
	for (i = 0; i < keys->len; i++)
		g_ptr_array_add(out, g_hash_table_lookup(lines, keys->pdata[i]));
	g_ptr_array_free(keys, TRUE);
	g_hash_table_destroy(lines);
	return out;
}
