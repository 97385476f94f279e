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

struct union_state {
	GHashTable *seen;
	GPtrArray *lines;
};

/* A line not seen before (and not empty) joins the union. */
static gboolean union_line(void *data, const char *s, size_t len,
			   GError **err)
{
	struct union_state *u = data;
	char *line;

	if (!len)
		return TRUE;
	line = g_strndup(s, len);
	if (g_hash_table_contains(u->seen, line)) {
		g_free(line);
		return TRUE;
	}
	g_hash_table_add(u->seen, line);
	g_ptr_array_add(u->lines, line);
	return TRUE;
}

char *sa_vmallocinfo_union(char *const *texts, int n)
{
	struct union_state u;
	GString *out;
	int i;
	guint j;

	if (n <= 0)
		return NULL;
	u.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	u.lines = g_ptr_array_new();
	for (i = 0; i < n; i++)
		if (texts[i])
			sa_procfile_lines(texts[i], union_line, &u, NULL);
	g_ptr_array_sort(u.lines, sa_strcmp_indirect);
	out = g_string_new(NULL);
	for (j = 0; j < u.lines->len; j++)
		g_string_append_printf(out, "%s\n",
				       (char *)g_ptr_array_index(u.lines, j));
	g_ptr_array_free(u.lines, TRUE);
	g_hash_table_destroy(u.seen);
	return g_string_free(out, FALSE);
}

/* A kernel stack's area adds its pages= to *data. */
static gboolean stack_line(void *data, const char *s, size_t len,
			   GError **err)
{
	struct sa_line l = { s, len, 0 };
	guint64 *pages = data, v;
	char *line = g_strndup(s, len);
	char **f;
	int n, i;
	bool stack;

	if (!strstr(line, " pages=")) {
		g_free(line);
		return TRUE;
	}
	f = sa_line_fields(&l, &n);
	stack = n > 2 && stack_caller(f[2]);
	for (i = 3; stack && i < n; i++)
		if (g_str_has_prefix(f[i], "pages=") &&
		    sa_parse_u64(f[i] + 6, &v))
			*pages += v;
	g_strfreev(f);
	g_free(line);
	return TRUE;
}

guint64 sa_vmallocinfo_stack_pages(const char *text)
{
	guint64 pages = 0;

	sa_procfile_lines(text, stack_line, &pages, NULL);
	return pages;
}
