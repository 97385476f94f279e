// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/vmallocinfo: the kernel stacks' areas (vmallocinfo.h).
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/vmallocinfo.h"

static bool stack_caller(const char *f)
{
	static const char *const callers[] = {
		"alloc_thread_stack_node+", "dup_task_struct+",
		"copy_process+", "kernel_clone+",
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(callers); i++)
		if (g_str_has_prefix(f, callers[i]))
			return true;
	return false;
}

static gint by_line(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *sa_vmallocinfo_union(char *const *texts, int n)
{
	GHashTable *seen;
	GPtrArray *lines;
	GString *out;
	int i;
	guint j;

	if (n <= 0)
		return NULL;
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	lines = g_ptr_array_new();
	for (i = 0; i < n; i++) {
		char **l, **split;

		if (!texts[i])
			continue;
		split = g_strsplit(texts[i], "\n", -1);
		for (l = split; *l; l++) {
			char *line;

			if (!**l || g_hash_table_contains(seen, *l))
				continue;
			line = g_strdup(*l);
			g_hash_table_add(seen, line);
			g_ptr_array_add(lines, line);
		}
		g_strfreev(split);
	}
	g_ptr_array_sort(lines, by_line);
	out = g_string_new(NULL);
	for (j = 0; j < lines->len; j++)
		g_string_append_printf(out, "%s\n",
				       (char *)g_ptr_array_index(lines, j));
	g_ptr_array_free(lines, TRUE);
	g_hash_table_destroy(seen);
	return g_string_free(out, FALSE);
}

guint64 sa_vmallocinfo_stack_pages(const char *text)
{
	char **lines = g_strsplit(text ? text : "", "\n", -1), **l;
	guint64 pages = 0;

	for (l = lines; *l; l++) {
		char **f;
		int n, i;
		bool stack;
		guint64 v;

		if (!strstr(*l, " pages="))
			continue;
		f = sa_fields(*l, &n);
		stack = n > 2 && stack_caller(f[2]);
		for (i = 3; stack && i < n; i++)
			if (g_str_has_prefix(f[i], "pages=") &&
			    sa_parse_u64(f[i] + 6, &v))
				pages += v;
		g_strfreev(f);
	}
	g_strfreev(lines);
	return pages;
}
