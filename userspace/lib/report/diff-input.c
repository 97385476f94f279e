// SPDX-License-Identifier: GPL-2.0
/*
 * One side of a diff (or one run of a merge), whatever its input
 * (report/input-kind.h): a trace.dat, our JSON, a /proc/allocinfo
 * snapshot or a /proc/slab_account snapshot.
 */
#include <string.h>

#include "report/diff.h"
#include "report/input-kind.h"
#include "util/input-file.h"

int sa_diff_side_load(struct sa_diff_side *s, const char *path,
		      const struct sa_diff_opts *o, GError **err)
{
	enum sa_input_kind kind;
	gsize len = 0;
	char *text;
	int ret;

	memset(s, 0, sizeof(*s));
	s->file = g_strdup(path);
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	if (sa_input_kind(path, &kind, err))
		return -1;
	switch (kind) {
	case SA_INPUT_TRACEDAT:
		return sa_diff_side_load_trace(s, path, o, err);
	case SA_INPUT_ALLOCINFO:
		return sa_diff_side_load_allocinfo(s, path, o, err);
	case SA_INPUT_HIST:
		/* counts since boot, per site: not read here yet */
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: a hist "
			    "file (boot cmdline --hist): 'slabacct report' "
			    "reads it; diff and merge do not", path);
		return -1;
	case SA_INPUT_JSON:
		text = sa_input_read(path, SA_JSON_INPUT_MAX, &len, err);
		if (!text)
			return -1;
		ret = sa_diff_side_load_json(s, path, text, len, o, err);
		g_free(text);
		return ret;
	default:	/* /proc/slab_account, or its parser names the fault */
		return sa_diff_side_load_account(s, path, o, err);
	}
}

