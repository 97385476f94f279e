// SPDX-License-Identifier: GPL-2.0
/*
 * Slab caches: parse /proc/slabinfo or the /sys/kernel/slab table, and
 * compute Loss and Efficiency as tools/mm/slabinfo does.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "util/input-file.h"
#include "procfs/slabinfo.h"
#include "procfs/parse.h"

static void cache_free(gpointer p)
{
	struct sa_slab_cache *c = p;

	g_free(c->name);
	g_free(c);
}

void sa_slab_cache_compute(struct sa_slab_cache *c, long page_size)
{
	c->size = c->slabs * c->pages_per_slab * (guint64)page_size;
	c->used = c->active_objs * c->object_size;
	c->loss = c->size > c->used ? c->size - c->used : 0;
	c->eff = c->size ? c->used * 100 / c->size : 100;
}

static struct sa_slab_table *table_new(enum sa_slab_origin o, long ps)
{
	struct sa_slab_table *t = g_new0(struct sa_slab_table, 1);

	t->origin = o;
	t->page_size = ps;
	t->caches = g_ptr_array_new_with_free_func(cache_free);
	return t;
}

void sa_slab_table_free(struct sa_slab_table *t)
{
	if (!t)
		return;
	g_ptr_array_unref(t->caches);
	g_free(t);
}

static void totals(struct sa_slab_table *t)
{
	struct sa_slab_totals *s = &t->tot;
	guint i;

	memset(s, 0, sizeof(*s));
	s->min_objsize = G_MAXUINT64;
	for (i = 0; i < t->caches->len; i++) {
		struct sa_slab_cache *c = t->caches->pdata[i];

		sa_slab_cache_compute(c, t->page_size);
		s->nr_caches++;
		if (c->num_objs)
			s->active_caches++;
		s->active_objs += c->active_objs;
		s->num_objs += c->num_objs;
		s->active_slabs += c->active_slabs;
		s->num_slabs += c->slabs;
		s->active_size += c->active_objs * c->slot_size;
		s->total_size += c->num_objs * c->slot_size;
		s->min_objsize = MIN(s->min_objsize, c->slot_size);
		s->max_objsize = MAX(s->max_objsize, c->slot_size);
		s->space += c->size;
		s->used += c->used;
		s->loss += c->loss;
	}
	if (s->min_objsize == G_MAXUINT64)
		s->min_objsize = 0;
	s->avg_objsize = s->num_objs ? s->total_size / s->num_objs : 0;
}

static bool all_u64(char **f, int from, int to, guint64 *out)
{
	int i;

	for (i = from; i < to; i++)
		if (!sa_parse_u64(f[i], &out[i - from]))
			return false;
	return true;
}

/*
 * name active_objs num_objs objsize objperslab pagesperslab : tunables
 * l b s : slabdata active_slabs num_slabs sharedavail
 */
static gboolean proc_line(void *data, const struct sa_line *l, char **f,
			  int n, GError **err)
{
	static const char v2[] = "slabinfo - version: 2.";
	struct sa_slab_table *t = data;
	struct sa_slab_cache *c;
	guint64 v[5], sd[2];

	if (l->no == 1) {
		if (l->len < sizeof(v2) - 1 || memcmp(l->s, v2, sizeof(v2) - 1))
			goto not_v2;
		return TRUE;
	}
	if (!l->len || l->s[0] == '#')
		return TRUE;
	if (n < 16 || strcmp(f[6], ":") || strcmp(f[11], ":") ||
	    !all_u64(f, 1, 6, v) || !all_u64(f, 13, 15, sd)) {
		sa_parse_error(err, "slabinfo: line %d is malformed",
			       (int)l->no);
		return FALSE;
	}
	c = g_new0(struct sa_slab_cache, 1);
	c->name = g_strdup(f[0]);
	c->active_objs = v[0];
	c->num_objs = v[1];
	c->object_size = c->slot_size = v[2];
	c->objs_per_slab = v[3];
	c->pages_per_slab = v[4];
	c->active_slabs = sd[0];
	c->slabs = sd[1];
	g_ptr_array_add(t->caches, c);
	return TRUE;
not_v2:
	sa_parse_error(err, "slabinfo: not version 2.x");
	return FALSE;
}

struct sa_slab_table *sa_slab_parse_proc(const char *text, long page_size,
					 GError **err)
{
	struct sa_slab_table *t;

	if (!text || !*text) {
		sa_parse_error(err, "slabinfo: not version 2.x");
		return NULL;
	}
	t = table_new(SA_SLAB_PROC, page_size);
	if (!sa_procfile_fields(text, proc_line, t, err)) {
		sa_slab_table_free(t);
		return NULL;
	}
	totals(t);
	return t;
}

/* name object_size slot_size order active_objs num_objs slabs objs [..] */
static gboolean sysfs_line(void *data, const struct sa_line *l, char **f,
			   int n, GError **err)
{
	struct sa_slab_table *t = data;
	struct sa_slab_cache *c;
	guint64 v[7];

	if (!l->len || l->s[0] == '#')
		return TRUE;
	if ((n != 8 && n != 9) || !all_u64(f, 1, 8, v) || v[2] > 20) {
		sa_parse_error(err, "slab_sysfs: line %d is malformed",
			       (int)l->no);
		return FALSE;
	}
	c = g_new0(struct sa_slab_cache, 1);
	c->name = g_strdup(f[0]);
	c->object_size = v[0];
	c->slot_size = v[1];
	c->pages_per_slab = 1ULL << v[2];
	c->active_objs = v[3];
	c->num_objs = v[4];
	c->slabs = c->active_slabs = v[5];
	c->objs_per_slab = v[6];
	g_ptr_array_add(t->caches, c);
	return TRUE;
}

struct sa_slab_table *sa_slab_parse_sysfs(const char *text, long page_size,
					  GError **err)
{
	struct sa_slab_table *t = table_new(SA_SLAB_SYSFS, page_size);

	if (!sa_procfile_fields(text, sysfs_line, t, err)) {
		sa_slab_table_free(t);
		return NULL;
	}
	if (!t->caches->len) {
		sa_parse_error(err, "slab_sysfs: no caches");
		sa_slab_table_free(t);
		return NULL;
	}
	totals(t);
	return t;
}

/* The first number of a sysfs slab attribute ("123 N0=123"). */
/* *denied is set when the attribute is not ours to read (root's, 0400) */
static bool read_attr_denied(const char *dir, const char *attr, guint64 *v,
			     bool *denied)
{
	char *path = g_build_filename(dir, attr, NULL);
	char *text = NULL;
	GError *e = NULL;
	bool ok = false;
	gsize len;

	text = sa_input_read(path, SA_SNAP_MAX_FILE, &len, &e);
	if (!text && denied && e && e->domain == G_FILE_ERROR &&
	    (e->code == G_FILE_ERROR_ACCES || e->code == G_FILE_ERROR_PERM))
		*denied = true;
	g_clear_error(&e);
	if (text) {
		char *end = strpbrk(text, " \n");

		if (end)
			*end = '\0';
		ok = sa_parse_u64(text, v);
	}
	g_free(text);
	g_free(path);
	return ok;
}

static bool read_attr(const char *dir, const char *attr, guint64 *v)
{
	return read_attr_denied(dir, attr, v, NULL);
}

static const char sysfs_header[] = "# name object_size slab_size order "
	"objects total_objects slabs objs_per_slab\n";

/*
 * Every attribute of every cache: 7 files per cache. The fallback when
 * /proc/slabinfo cannot be read or does not match the directory.
 */
static char *sysfs_scan(const char *base, GError **err)
{
	static const char *const attrs[] = {
		"object_size", "slab_size", "order", "objects",
		"total_objects", "slabs", "objs_per_slab",
	};
	GDir *d = g_dir_open(base, 0, err);
	GString *out;
	GPtrArray *names;
	const char *name;
	guint i, n = 0;
	bool denied = false;

	if (!d)
		return NULL;
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, sa_strcmp_indirect);
	out = g_string_new(sysfs_header);
	for (i = 0; i < names->len; i++) {
		char *dir = g_build_filename(base, names->pdata[i], NULL);
		struct stat st;
		guint64 v[G_N_ELEMENTS(attrs)];
		size_t a;

		if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
			g_free(dir);
			continue;
		}
		for (a = 0; a < G_N_ELEMENTS(attrs); a++)
			if (!read_attr_denied(dir, attrs[a], &v[a], &denied))
				break;
		g_free(dir);
		if (a < G_N_ELEMENTS(attrs))
			continue;
		g_string_append_printf(out, "%s", (char *)names->pdata[i]);
		for (a = 0; a < G_N_ELEMENTS(attrs); a++)
			g_string_append_printf(out, " %" G_GUINT64_FORMAT,
					       v[a]);
		g_string_append_c(out, '\n');
		n++;
	}
	g_ptr_array_unref(names);
	if (!n && denied) {
		/* not a kernel without SLUB_DEBUG: the files are root's */
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_ACCES,
			    "%s: %s (its counters are readable by root only)",
			    base, g_strerror(EACCES));
		g_string_free(out, TRUE);
		return NULL;
	}
	if (!n) {
		sa_parse_error(err, "%s: no cache with readable counters "
			       "(objects needs CONFIG_SLUB_DEBUG)", base);
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

/*
 * /proc/slabinfo holds every counter of the table but object_size (SLUB
 * computes its columns as the sysfs attributes do: objsize is slab_size,
 * active_objs is objects, num_objs is total_objects), so read that one
 * file, then only object_size per cache, by the cache's name (a symlink
 * for a merged cache). One file per cache instead of seven: the snapshot
 * record takes at start and end is mostly this. NULL if slabinfo cannot
 * be read or a cache of it has no sysfs entry; the caller scans instead.
 */
static char *sysfs_by_slabinfo(const char *root, const char *base)
{
	char *text = sa_snap_read(root, "proc/slabinfo", NULL);
	struct sa_slab_table *t;
	GString *out;
	char *probe;
	guint i;
	bool ok;

	t = text ? sa_slab_parse_proc(text, 4096, NULL) : NULL;
	g_free(text);
	if (!t || !t->caches->len) {
		sa_slab_table_free(t);
		return NULL;
	}
	/* without CONFIG_SLUB_DEBUG slabinfo's object counts are zeros */
	probe = g_build_filename(base,
		((struct sa_slab_cache *)t->caches->pdata[0])->name,
		"objects", NULL);
	ok = g_file_test(probe, G_FILE_TEST_EXISTS);
	g_free(probe);
	out = g_string_new(sysfs_header);
	for (i = 0; ok && i < t->caches->len; i++) {
		struct sa_slab_cache *c = t->caches->pdata[i];
		char *dir = g_build_filename(base, c->name, NULL);
		guint64 osize;
		int order = g_bit_nth_lsf(c->pages_per_slab, -1);

		ok = read_attr(dir, "object_size", &osize) && order >= 0 &&
		     c->pages_per_slab == 1ULL << order;
		g_free(dir);
		if (ok)
			g_string_append_printf(out, "%s %" G_GUINT64_FORMAT
				" %" G_GUINT64_FORMAT " %d %" G_GUINT64_FORMAT
				" %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				" %" G_GUINT64_FORMAT "\n", c->name, osize,
				c->slot_size, order, c->active_objs,
				c->num_objs, c->slabs, c->objs_per_slab);
	}
	sa_slab_table_free(t);
	return g_string_free(out, !ok);
}

char *sa_slab_sysfs_capture(const char *root, GError **err)
{
	char *base = g_build_filename(root, "sys/kernel/slab", NULL);
	char *text = NULL;

	if (g_file_test(base, G_FILE_TEST_IS_DIR))
		text = sysfs_by_slabinfo(root, base);
	if (!text)
		text = sysfs_scan(base, err);
	g_free(base);
	return text;
}

static int by_key(gconstpointer a, gconstpointer b, gpointer key)
{
	const struct sa_slab_cache *x = *(void **)a, *y = *(void **)b;
	bool loss = GPOINTER_TO_INT(key) == SA_SLAB_BY_LOSS;
	guint64 kx = loss ? x->loss : x->size, ky = loss ? y->loss : y->size;

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return strcmp(x->name, y->name);
}

GPtrArray *sa_slab_sorted(const struct sa_slab_table *t,
			  enum sa_slab_sort key)
{
	GPtrArray *a = g_ptr_array_sized_new(t->caches->len);
	guint i;

	for (i = 0; i < t->caches->len; i++)
		g_ptr_array_add(a, t->caches->pdata[i]);
	g_ptr_array_sort_with_data(a, by_key, GINT_TO_POINTER(key));
	return a;
}
