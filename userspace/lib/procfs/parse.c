// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers the procfs parsers share (procfs/parse.h).
 */
#include <stdarg.h>
#include <string.h>

#include "util/input-file.h"
#include "util/textline.h"
#include "procfs/parse.h"

bool sa_parse_u64(const char *s, guint64 *v)
{
	guint64 x;

	/* *v keeps its value on failure, as callers have relied on */
	if (!s || !sa_dec_u64(s, strlen(s), &x))
		return false;
	*v = x;
	return true;
}

gboolean sa_procfile_lines(const char *text, sa_input_line_fn fn,
			   void *data, GError **err)
{
	/* the text ends at its NUL, as it always has */
	return sa_text_lines(text ? text : "", text ? strlen(text) : 0, fn,
			     data, err);
}

void sa_parse_error(GError **err, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, msg);
	g_free(msg);
}

struct fields_state {
	sa_procfile_fields_fn fn;
	void *data;
	struct sa_line l;
};

static gboolean fields_line(void *data, const char *s, size_t len,
			    GError **err)
{
	struct fields_state *st = data;
	gboolean ok;
	char **f;
	int n;

	st->l.s = s;
	st->l.len = len;
	st->l.no++;
	f = sa_line_fields(&st->l, &n);
	ok = st->fn(st->data, &st->l, f, n, err);
	g_strfreev(f);
	return ok;
}

gboolean sa_procfile_fields(const char *text, sa_procfile_fields_fn fn,
			    void *data, GError **err)
{
	struct fields_state st = { fn, data, { NULL, 0, 0 } };

	return sa_procfile_lines(text, fields_line, &st, err);
}

struct keyvals {
	GHashTable *kv;
	char sep;
};

/* One "name<sep> value [kB]" line into kv; other lines are skipped. */
static gboolean keyval_line(void *data, const char *s, size_t len,
			    GError **err)
{
	struct keyvals *k = data;
	char *line = g_strndup(s, len);
	char *p = strchr(line, k->sep), *val;
	char **f;
	guint64 v;

	if (!p || p == line) {
		g_free(line);
		return TRUE;
	}
	*p = '\0';
	val = g_strstrip(p + 1);
	f = g_strsplit_set(val, " \t", -1);
	if (f[0] && sa_parse_u64(f[0], &v) &&
	    (!f[1] || !strcmp(f[1], "kB")))
		g_hash_table_replace(k->kv, g_strdup(g_strstrip(line)),
				     g_memdup2(&v, sizeof(v)));
	g_strfreev(f);
	g_free(line);
	return TRUE;
}

GHashTable *sa_procfile_parse_keyvals(const char *text, char sep,
				      const char *what, GError **err)
{
	struct keyvals k = {
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
		sep,
	};
	GHashTable *kv = k.kv;

	sa_procfile_lines(text, keyval_line, &k, NULL);
	if (!g_hash_table_size(kv)) {
		sa_parse_error(err, "%s: no 'name value' lines", what);
		g_hash_table_unref(kv);
		return NULL;
	}
	return kv;
}

bool sa_procfile_get(GHashTable *kv, const char *name, guint64 *v)
{
	guint64 *p = kv ? g_hash_table_lookup(kv, name) : NULL;

	if (p)
		*v = *p;
	return p != NULL;
}

int sa_strcmp_indirect(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool sa_parse_node_zone(char **f, int n, int *node, char *zone, size_t len)
{
	char num[24];
	size_t l;
	guint64 v;

	if (n < 4 || strcmp(f[0], "Node") || strcmp(f[2], "zone") ||
	    !g_str_has_suffix(f[1], ","))
		return false;
	l = strlen(f[1]) - 1;
	if (l == 0 || l >= sizeof(num))
		return false;
	memcpy(num, f[1], l);
	num[l] = '\0';
	if (!sa_parse_u64(num, &v))
		return false;
	*node = v;
	g_strlcpy(zone, f[3], len);
	l = strlen(zone);
	if (l && zone[l - 1] == ',')
		zone[l - 1] = '\0';
	return true;
}

char *sa_snap_read(const char *root, const char *rel, GError **err)
{
	char *path = g_build_filename(root, rel, NULL);
	char *text;
	gsize len;

	text = sa_input_read(path, SA_SNAP_MAX_FILE, &len, err);
	g_free(path);
	return text;
}
