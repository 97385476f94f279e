// SPDX-License-Identifier: GPL-2.0
/*
 * --folded: the call-site rows with their kernel stacks in the collapsed
 * ("folded") format that flamegraph.pl, inferno and speedscope read: one
 * line per stack, its frames outermost first joined by ';', then a space
 * and its weight (emit.h, enum sa_fold_key). The frames are functions,
 * so that a flame graph merges a function's calls; the last one, the
 * leaf, is the row's name as the report's call-site rows (--by caller)
 * print it, so that the weights summed per leaf are those rows'. An
 * allocation with no stack is a line of its leaf alone. Lines of weight
 * 0 are left out; the lines are sorted, so a file is the same from run
 * to run.
 */
#include <string.h>

#include "emit/emit.h"
#include "emit/folded.h"

static const char *const key_names[SA_FOLD_NR] = {
	[SA_FOLD_BYTES] = "bytes",
	[SA_FOLD_HITS] = "hits",
	[SA_FOLD_LIVE] = "live",
	[SA_FOLD_SLACK] = "slack",
};

int sa_fold_key_parse(const char *s, enum sa_fold_key *key)
{
	int i;

	for (i = 0; i < SA_FOLD_NR; i++)
		if (!strcmp(s, key_names[i])) {
			*key = i;
			return 0;
		}
	return -1;
}

guint64 sa_fold_weight(const struct sa_site *s, enum sa_fold_key key)
{
	switch (key) {
	case SA_FOLD_HITS:
		return s->allocs;
	case SA_FOLD_LIVE:
		return s->live_alloc;
	case SA_FOLD_SLACK:
		return s->slack;
	default:
		return s->bytes_alloc;
	}
}

/*
 * Names in a line: a control character would end it, and a ';' in the
 * leaf would split it (the path's frames have none: agg/callsite.c).
 */
static void put_name(GString *line, const char *name, bool leaf)
{
	const char *p;

	for (p = name; *p; p++)
		g_string_append_c(line, (leaf && *p == ';') ||
				  (guchar)*p < 0x20 ? '_' : *p);
}

char *sa_fold_stack(const struct sa_site *s)
{
	GString *line = g_string_new(NULL);

	if (s->path && *s->path) {
		put_name(line, s->path, false);
		g_string_append_c(line, ';');
	}
	put_name(line, s->leaf ? s->leaf : s->sym ? s->sym : "?", true);
	return g_string_free(line, FALSE);
}

static gint by_text(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int folded_begin(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	guint i;

	for (i = 0; r && i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];
		guint64 w = sa_fold_weight(s, e->fold_key);
		char *stack;

		if (!w)
			continue;
		stack = sa_fold_stack(s);
		g_ptr_array_add(lines, g_strdup_printf("%s %" G_GUINT64_FORMAT,
						       stack, w));
		g_free(stack);
	}
	g_ptr_array_sort(lines, by_text);
	for (i = 0; i < lines->len; i++)
		fprintf(e->out, "%s\n", (const char *)lines->pdata[i]);
	g_ptr_array_free(lines, TRUE);
	return 0;
}

const struct sa_format_ops sa_format_folded = {
	.name = "folded", .begin = folded_begin,
};
