// SPDX-License-Identifier: GPL-2.0
/*
 * diff --folded (folded-diff.h): a differential flame graph's input.
 * Each side's call-site rows with their stacks become folded lines as
 * emit/folded.c makes them (the frames' functions outermost first, then
 * the row's --by caller name), weighed by the key; a line's weight is
 * then B's minus A's. flamegraph.pl and inferno draw a line of negative
 * weight as nothing, so a differential flame graph takes the two sides'
 * own folded files (report --folded A, B: difffolded.pl's input); this
 * one is for reading and for tools that take signed weights.
 */
#include <errno.h>
#include <string.h>

#include "emit/folded-diff.h"
#include "emit/folded.h"
#include "report/report.h"
#include "report/agg/callsite.h"

/* line -> gint64 weight, added with sign */
static void add_side(GHashTable *lines, const struct sa_report *rep,
		     enum sa_fold_key key, int sign)
{
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	guint i;

	for (i = 0; r && i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];
		gint64 w = (gint64)sa_fold_weight(s, key), *v;
		char *stack;

		if (!w)
			continue;
		stack = sa_fold_stack(s);
		v = g_hash_table_lookup(lines, stack);
		if (!v) {
			v = g_new0(gint64, 1);
			g_hash_table_insert(lines, stack, v);
		} else {
			g_free(stack);
		}
		*v += sign * w;
	}
}

static gint by_text(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sa_folded_diff_write(FILE *out, const struct sa_report *a,
			 const struct sa_report *b, enum sa_fold_key key)
{
	GHashTable *lines = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, g_free);
	GPtrArray *keys = g_ptr_array_new();
	GHashTableIter it;
	gpointer k;
	guint i;

	add_side(lines, a, key, -1);
	add_side(lines, b, key, 1);
	g_hash_table_iter_init(&it, lines);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(keys, k);
	g_ptr_array_sort(keys, by_text);
	for (i = 0; i < keys->len; i++) {
		const gint64 *v = g_hash_table_lookup(lines, keys->pdata[i]);

		if (*v)
			fprintf(out, "%s %" G_GINT64_FORMAT "\n",
				(const char *)keys->pdata[i], *v);
	}
	g_ptr_array_free(keys, TRUE);
	g_hash_table_destroy(lines);
	if (fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
