// SPDX-License-Identifier: GPL-2.0
/*
 * One side of a diff (or one run of a merge), whatever its input: a
 * trace.dat, our JSON (it starts with '{'), a /proc/allocinfo snapshot
 * (told by its first line) or a /proc/slab_account snapshot.
 */
#include <string.h>
#include <unistd.h>

#include "account/sniff.h"
#include "report/diff.h"
#include "trace/check.h"
#include "util/input-file.h"

/* Whether path starts, after white space, with '{': our JSON. */
static int starts_json(const char *path, GError **err)
{
	char buf[4096];
	int fd = sa_input_open(path, err), ret = 0, reads = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* the first 64 KB decide */
	while (reads++ < 16 && (n = read(fd, buf, sizeof(buf))) > 0) {
		ssize_t i;

		for (i = 0; i < n && g_ascii_isspace(buf[i]); i++)
			;
		if (i < n) {
			ret = buf[i] == '{';
			break;
		}
	}
	close(fd);
	return ret;
}

/* Our JSON if it starts with '{', else a /proc/slab_account snapshot. */
static int json_or_account(struct sa_diff_side *s, const char *path,
			   const struct sa_diff_opts *o, GError **err)
{
	gsize len = 0;
	char *text;
	int ret = starts_json(path, err);

	if (ret < 0)
		return -1;
	if (!ret)
		return sa_diff_side_load_account(s, path, o, err);
	text = sa_input_read(path, SA_JSON_INPUT_MAX, &len, err);
	if (!text)
		return -1;
	ret = sa_diff_side_load_json(s, path, text, len, o, err);
	g_free(text);
	return ret;
}

int sa_diff_side_load(struct sa_diff_side *s, const char *path,
		      const struct sa_diff_opts *o, GError **err)
{
	memset(s, 0, sizeof(*s));
	s->file = g_strdup(path);
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	if (sa_is_tracedat(path))
		return sa_diff_side_load_trace(s, path, o, err);
	switch (sa_text_input_sniff(path)) {
	case SA_TEXT_ALLOCINFO:
		return sa_diff_side_load_allocinfo(s, path, o, err);
	case SA_TEXT_HIST:
		/* counts since boot, per site: not read here yet */
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: a hist "
			    "file (boot cmdline --hist): 'slabacct report' "
			    "reads it; diff and merge do not", path);
		return -1;
	default:
		return json_or_account(s, path, o, err);
	}
}

