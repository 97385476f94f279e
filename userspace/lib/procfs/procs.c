// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process memory from /proc/PID/smaps_rollup and status.
 */
#include <string.h>

#include "procfs/procs.h"
#include "procfs/parse.h"

static void proc_clear(gpointer p)
{
	g_free(((struct sa_proc_mem *)p)->name);
}

static void unknown(struct sa_proc_mem *p)
{
	p->rss_kb = p->pss_kb = p->pss_anon_kb = p->swap_kb = SA_PROC_UNKNOWN;
}

static guint64 kv(GHashTable *t, const char *name)
{
	guint64 v;

	return sa_procfile_get(t, name, &v) ? v : SA_PROC_UNKNOWN;
}

bool sa_proc_from_smaps(const char *text, struct sa_proc_mem *p)
{
	GHashTable *t = sa_procfile_parse_keyvals(text, ':', "smaps_rollup",
						  NULL);

	unknown(p);
	if (!t)
		return false;
	p->rss_kb = kv(t, "Rss");
	p->pss_kb = kv(t, "Pss");
	p->pss_anon_kb = kv(t, "Pss_Anon");
	p->swap_kb = kv(t, "Swap");
	p->from_smaps = true;
	g_hash_table_unref(t);
	return p->rss_kb != SA_PROC_UNKNOWN && p->pss_kb != SA_PROC_UNKNOWN;
}

/* The "Name:" line of a status file: the process's name in p->name */
static gboolean status_name(void *data, const char *s, size_t len,
			    GError **err)
{
	struct sa_proc_mem *p = data;
	char *line;

	(void)err;
	if (len < 5 || strncmp(s, "Name:", 5))
		return TRUE;
	line = g_strndup(s, len);
	g_free(p->name);
	p->name = g_strdup(g_strstrip(line + 5));
	g_free(line);
	return FALSE;
}

bool sa_proc_from_status(const char *text, struct sa_proc_mem *p)
{
	GHashTable *t = sa_procfile_parse_keyvals(text, ':', "status", NULL);

	unknown(p);
	if (!t)
		return false;
	p->rss_kb = kv(t, "VmRSS");
	p->swap_kb = kv(t, "VmSwap");
	p->from_smaps = false;
	g_hash_table_unref(t);
	sa_procfile_lines(text, status_name, p, NULL);
	return p->rss_kb != SA_PROC_UNKNOWN;
}

static void append_num(GString *s, guint64 v)
{
	if (v == SA_PROC_UNKNOWN)
		g_string_append(s, " -");
	else
		g_string_append_printf(s, " %" G_GUINT64_FORMAT, v);
}

char *sa_procs_capture(const char *root, GError **err)
{
	char *base = g_build_filename(root, "proc", NULL);
	GDir *d = g_dir_open(base, 0, err);
	GString *out;
	const char *ent;
	int n = 0;

	if (!d) {
		g_free(base);
		return NULL;
	}
	out = g_string_new("# pid rss_kb pss_kb pss_anon_kb swap_kb source "
			   "name\n");
	while ((ent = g_dir_read_name(d))) {
		struct sa_proc_mem st = { 0 }, sm = { 0 }, *use;
		char *text, *rel;
		guint64 pid;

		if (!sa_parse_u64(ent, &pid))
			continue;
		rel = g_build_filename(ent, "status", NULL);
		text = sa_snap_read(base, rel, NULL);
		g_free(rel);
		/* no VmRSS: a kernel thread, or the process is gone */
		if (!text || !sa_proc_from_status(text, &st)) {
			g_free(text);
			g_free(st.name);
			continue;
		}
		g_free(text);
		rel = g_build_filename(ent, "smaps_rollup", NULL);
		text = sa_snap_read(base, rel, NULL);
		g_free(rel);
		use = text && sa_proc_from_smaps(text, &sm) ? &sm : &st;
		g_free(text);
		g_string_append_printf(out, "%d", (int)pid);
		append_num(out, use->rss_kb);
		append_num(out, use->pss_kb);
		append_num(out, use->pss_anon_kb);
		append_num(out, use->swap_kb);
		g_string_append_printf(out, " %s %s\n",
				       use->from_smaps ? "smaps" : "status",
				       st.name ? st.name : "?");
		g_free(st.name);
		n++;
	}
	g_dir_close(d);
	if (!n) {
		sa_parse_error(err, "%s: no process with readable memory "
			       "figures", base);
		g_free(base);
		g_string_free(out, TRUE);
		return NULL;
	}
	g_free(base);
	return g_string_free(out, FALSE);
}

static bool num_or_unknown(const char *s, guint64 *v)
{
	if (!strcmp(s, "-")) {
		*v = SA_PROC_UNKNOWN;
		return true;
	}
	return sa_parse_u64(s, v);
}

struct procs_walk {
	GArray *procs;
	guint64 no;
};

/* "PID RSS PSS PSS_ANON SWAP smaps|status NAME" (NAME may hold spaces) */
static gboolean procs_line(void *data, const char *s, size_t len,
			   GError **err)
{
	struct procs_walk *w = data;
	struct sa_proc_mem p = { 0 };
	char *line, **f;
	guint64 pid;
	bool ok;

	w->no++;
	if (!len || s[0] == '#')
		return TRUE;
	line = g_strndup(s, len);
	f = g_strsplit(line, " ", 7);
	g_free(line);
	ok = g_strv_length(f) == 7 && sa_parse_u64(f[0], &pid) &&
	     num_or_unknown(f[1], &p.rss_kb) &&
	     num_or_unknown(f[2], &p.pss_kb) &&
	     num_or_unknown(f[3], &p.pss_anon_kb) &&
	     num_or_unknown(f[4], &p.swap_kb) &&
	     (!strcmp(f[5], "smaps") || !strcmp(f[5], "status"));
	if (ok) {
		p.pid = pid;
		p.from_smaps = !strcmp(f[5], "smaps");
		p.name = g_strdup(f[6]);
		g_array_append_val(w->procs, p);
	} else {
		sa_parse_error(err, "procs: line %" G_GUINT64_FORMAT
			       " is malformed", w->no);
	}
	g_strfreev(f);
	return ok;
}

GArray *sa_procs_parse(const char *text, GError **err)
{
	struct procs_walk w = { 0 };

	w.procs = g_array_new(FALSE, TRUE, sizeof(struct sa_proc_mem));
	g_array_set_clear_func(w.procs, proc_clear);
	if (!sa_procfile_lines(text, procs_line, &w, err)) {
		g_array_unref(w.procs);
		return NULL;
	}
	return w.procs;
}

static guint64 key_of(const struct sa_proc_mem *p, enum sa_proc_sort key)
{
	guint64 v = key == SA_PROC_BY_RSS ? p->rss_kb :
		key == SA_PROC_BY_PSS ? p->pss_kb : p->swap_kb;

	return v == SA_PROC_UNKNOWN ? 0 : v;
}

static int by_key(gconstpointer a, gconstpointer b, gpointer key)
{
	const struct sa_proc_mem *x = *(void **)a, *y = *(void **)b;
	guint64 kx = key_of(x, GPOINTER_TO_INT(key));
	guint64 ky = key_of(y, GPOINTER_TO_INT(key));

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return x->pid - y->pid;
}

GPtrArray *sa_procs_sorted(GArray *procs, enum sa_proc_sort key)
{
	GPtrArray *a = g_ptr_array_sized_new(procs->len);
	guint i;

	for (i = 0; i < procs->len; i++)
		g_ptr_array_add(a, &g_array_index(procs, struct sa_proc_mem, i));
	g_ptr_array_sort_with_data(a, by_key, GINT_TO_POINTER(key));
	return a;
}
