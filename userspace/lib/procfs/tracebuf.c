// SPDX-License-Identifier: GPL-2.0
/*
 * The trace ring buffers' size (tracebuf.h).
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/tracebuf.h"

static bool append_size(GString *out, const char *dir, const char *name)
{
	char *text = sa_snap_read(dir, "buffer_total_size_kb", NULL);
	char *nl;

	if (!text)
		return false;
	g_strstrip(text);
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	g_string_append_printf(out, "%s %s\n", name, text);
	g_free(text);
	return true;
}

char *sa_tracebuf_capture(const char *root, GError **err)
{
	static const char *const where[] = {
		"sys/kernel/tracing", "sys/kernel/debug/tracing",
	};
	GString *out = g_string_new(NULL);
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(where) && !out->len; i++) {
		char *top = g_build_filename(root, where[i], NULL);
		char *inst = g_build_filename(top, "instances", NULL);
		GPtrArray *names;
		GDir *d;
		const char *n;
		guint j;

		if (!append_size(out, top, ".")) {
			g_free(inst);
			g_free(top);
			continue;
		}
		names = g_ptr_array_new_with_free_func(g_free);
		d = g_dir_open(inst, 0, NULL);
		while (d && (n = g_dir_read_name(d)) &&
		       names->len < SA_TRACEBUF_MAX_INSTANCES)
			if (!strchr(n, ' '))
				g_ptr_array_add(names, g_strdup(n));
		if (d)
			g_dir_close(d);
		g_ptr_array_sort(names, sa_strcmp_indirect);
		for (j = 0; j < names->len; j++) {
			char *dir = g_build_filename(inst, names->pdata[j],
						     NULL);

			append_size(out, dir, names->pdata[j]);
			g_free(dir);
		}
		g_ptr_array_unref(names);
		g_free(inst);
		g_free(top);
	}
	if (!out->len) {
		g_string_free(out, TRUE);
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "tracefs: no buffer_total_size_kb (not mounted, "
			    "or not root)");
		return NULL;
	}
	return g_string_free(out, FALSE);
}

static void clear_buf(gpointer p)
{
	g_free(((struct sa_tracebuf *)p)->name);
}

GArray *sa_tracebuf_parse(const char *text, GError **err)
{
	GArray *bufs = g_array_new(FALSE, TRUE, sizeof(struct sa_tracebuf));
	char **lines = g_strsplit(text ? text : "", "\n", -1), **l;

	g_array_set_clear_func(bufs, clear_buf);
	for (l = lines; *l; l++) {
		struct sa_tracebuf b;
		char **f;
		int n;

		if (!**l)
			continue;
		f = sa_fields(*l, &n);
		/* 1 EiB a buffer at most: the sum cannot overflow */
		if (n < 2 || !sa_parse_u64(f[1], &b.kb) || b.kb > 1ull << 50) {
			sa_parse_error(err, "buffer_total_size_kb: malformed "
				       "line '%s'", *l);
			g_strfreev(f);
			g_strfreev(lines);
			g_array_unref(bufs);
			return NULL;
		}
		b.name = g_strdup(f[0]);
		g_array_append_val(bufs, b);
		g_strfreev(f);
	}
	g_strfreev(lines);
	return bufs;
}

guint64 sa_tracebuf_total_kb(const GArray *bufs)
{
	guint64 kb = 0;
	guint i;

	for (i = 0; bufs && i < bufs->len; i++)
		kb += g_array_index(bufs, struct sa_tracebuf, i).kb;
	return kb;
}
