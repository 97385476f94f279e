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
