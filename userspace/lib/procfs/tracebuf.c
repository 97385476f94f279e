// SPDX-License-Identifier: GPL-2.0
/*
 * The trace ring buffers' size (tracebuf.h).
 */
#include <stdio.h>
#include <string.h>

#include "util/cpu-online.h"
#include "procfs/parse.h"
#include "procfs/tracebuf.h"

/* The first number of a tracefs size file ("2816", "14 (expanded: ...)") */
static bool read_kb(const char *dir, const char *rel, guint64 *kb)
{
	char *text = sa_snap_read(dir, rel, NULL);
	char *end;
	bool ok;

	if (!text)
		return false;
	*kb = g_ascii_strtoull(text, &end, 10);
	ok = end != text && *kb <= 1ull << 50;
	g_free(text);
	return ok;
}

/*
 * The buffers of the CPUs online now, from per_cpu/cpuN/buffer_size_kb.
 * buffer_total_size_kb sums every possible CPU, but a CPU that never came
 * up (maxcpus=, a failed bring-up) has no ring buffer: with maxcpus=1 on
 * 2 CPUs, the total said twice what was allocated. False when the files
 * are not there (an older copy: the caller takes the total).
 */
static bool online_kb(const char *root, const char *dir, guint64 *kb)
{
	char *pc = g_build_filename(dir, "per_cpu", NULL);
	GDir *d = g_dir_open(pc, 0, NULL);
	const char *n;
	guint seen = 0;
	bool ok = d != NULL;

	*kb = 0;
	while (ok && (n = g_dir_read_name(d))) {
		char *end, *rel;
		guint64 cpu = g_ascii_strtoull(n + 3, &end, 10), one;

		if (strncmp(n, "cpu", 3) || end == n + 3 || *end ||
		    cpu >= SA_TRACEBUF_MAX_CPUS)
			continue;
		if (++seen > SA_TRACEBUF_MAX_CPUS)
			ok = false;
		else if (sa_cpu_offline(root, cpu))
			continue;
		rel = g_strdup_printf("per_cpu/%s/buffer_size_kb", n);
		ok = ok && read_kb(dir, rel, &one);
		g_free(rel);
		if (ok)
			*kb += one;
	}
	if (d)
		g_dir_close(d);
	g_free(pc);
	return ok && seen;
}

static bool append_size(GString *out, const char *root, const char *dir,
			const char *name)
{
	char *text = sa_snap_read(dir, "buffer_total_size_kb", NULL);
	char *nl;
	guint64 kb;

	if (!text)
		return false;
	if (online_kb(root, dir, &kb)) {
		g_string_append_printf(out, "%s %" G_GUINT64_FORMAT "\n", name,
				       kb);
		g_free(text);
		return true;
	}
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

		if (!append_size(out, root, top, ".")) {
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

			append_size(out, root, dir, names->pdata[j]);
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

static gboolean tracebuf_line(void *data, const struct sa_line *l,
			      char **f, int n, GError **err)
{
	struct sa_tracebuf b;

	if (!l->len)
		return TRUE;
	/* 1 EiB a buffer at most: the sum cannot overflow */
	if (n < 2 || !sa_parse_u64(f[1], &b.kb) || b.kb > 1ull << 50) {
		sa_parse_error(err, "buffer_total_size_kb: malformed line "
			       "'%.*s'", (int)l->len, l->s);
		return FALSE;
	}
	b.name = g_strdup(f[0]);
	g_array_append_val((GArray *)data, b);
	return TRUE;
}

GArray *sa_tracebuf_parse(const char *text, GError **err)
{
	GArray *bufs = g_array_new(FALSE, TRUE, sizeof(struct sa_tracebuf));

	g_array_set_clear_func(bufs, clear_buf);
	if (!sa_procfile_fields(text, tracebuf_line, bufs, err)) {
		g_array_unref(bufs);
		return NULL;
	}
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
