// SPDX-License-Identifier: GPL-2.0
/*
 * The physical memory map: /sys/firmware/memmap and /proc/iomem.
 */
#include <string.h>

#include "util/input-file.h"
#include "procfs/memmap.h"
#include "procfs/parse.h"

static guint64 range_pages(guint64 start, guint64 end, guint64 page_size)
{
	guint64 first, last;

	if (end < start)
		return 0;
	first = start / page_size + (start % page_size != 0);
	last = end / page_size + (end % page_size == page_size - 1);
	return last > first ? last - first : 0;
}

static char *read_attr(const char *dir, const char *name)
{
	char *text = sa_snap_read(dir, name, NULL);

	return text ? g_strstrip(text) : NULL;
}

char *sa_memmap_capture(const char *root, GError **err)
{
	char *top = g_build_filename(root, "sys/firmware/memmap", NULL);
	GDir *d = g_dir_open(top, 0, err);
	GPtrArray *names;
	GString *out;
	const char *n;
	guint i;

	if (!d) {
		g_free(top);
		return NULL;
	}
	names = g_ptr_array_new_with_free_func(g_free);
	while ((n = g_dir_read_name(d)) && names->len < SA_MEMMAP_MAX_RANGES)
		g_ptr_array_add(names, g_strdup(n));
	g_dir_close(d);
	g_ptr_array_sort(names, sa_strcmp_indirect);
	out = g_string_new(NULL);
	for (i = 0; i < names->len; i++) {
		char *dir = g_build_filename(top, names->pdata[i], NULL);
		char *s = read_attr(dir, "start"), *e = read_attr(dir, "end");
		char *t = read_attr(dir, "type");

		if (s && e && t && !strchr(t, '\n'))
			g_string_append_printf(out, "%s %s %s\n", s, e, t);
		g_free(s);
		g_free(e);
		g_free(t);
		g_free(dir);
	}
	g_ptr_array_unref(names);
	g_free(top);
	if (!out->len) {
		g_string_free(out, TRUE);
		sa_parse_error(err, "sys/firmware/memmap: no ranges");
		return NULL;
	}
	return g_string_free(out, FALSE);
}

/* A device tree property, whole (a few bytes here) */
static char *dt_prop(const char *dir, const char *name, gsize *len)
{
	char *path = g_build_filename(dir, name, NULL);
	char *data = sa_input_read(path, 1u << 16, len, NULL);

	g_free(path);
	return data;
}

/* #address-cells or #size-cells of the root: 1 or 2, else def */
static unsigned int dt_cells(const char *base, const char *name,
			     unsigned int def)
{
	gsize len;
	guchar *d = (guchar *)dt_prop(base, name, &len);
	unsigned int v = def;

	if (d && len == 4)
		v = (unsigned int)d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3];
	g_free(d);
	return v == 1 || v == 2 ? v : def;
}

static guint64 dt_number(const guchar *p, unsigned int cells)
{
	guint64 v = 0;
	unsigned int i;

	for (i = 0; i < cells * 4; i++)
		v = v << 8 | p[i];
	return v;
}

char *sa_devicetree_memory_capture(const char *root, GError **err)
{
	char *base = g_build_filename(root, "sys/firmware/devicetree/base",
				      NULL);
	GDir *d = g_dir_open(base, 0, err);
	unsigned int ac, sc;
	GPtrArray *names;
	GString *out;
	const char *n;
	guint i;

	if (!d) {
		g_free(base);
		return NULL;
	}
	ac = dt_cells(base, "#address-cells", 2);
	sc = dt_cells(base, "#size-cells", 1);
	names = g_ptr_array_new_with_free_func(g_free);
	while ((n = g_dir_read_name(d)) && names->len < SA_MEMMAP_MAX_RANGES)
		if (!strcmp(n, "memory") || g_str_has_prefix(n, "memory@"))
			g_ptr_array_add(names, g_strdup(n));
	g_dir_close(d);
	g_ptr_array_sort(names, sa_strcmp_indirect);
	out = g_string_new(NULL);
	for (i = 0; i < names->len; i++) {
		char *dir = g_build_filename(base, names->pdata[i], NULL);
		gsize len, slen, off, cell = (ac + sc) * 4;
		char *status = dt_prop(dir, "status", &slen);
		guchar *reg = (guchar *)dt_prop(dir, "reg", &len);

		if (status && strncmp(status, "okay", slen) &&
		    strncmp(status, "ok", slen))
			len = 0;	/* disabled */
		for (off = 0; reg && off + cell <= len; off += cell) {
			guint64 start = dt_number(reg + off, ac);
			guint64 size = dt_number(reg + off + ac * 4, sc);

			if (size && start + (size - 1) >= start)
				g_string_append_printf(out, "0x%" G_GINT64_MODIFIER
						       "x 0x%" G_GINT64_MODIFIER
						       "x System RAM\n", start,
						       start + (size - 1));
		}
		g_free(status);
		g_free(reg);
		g_free(dir);
	}
	g_ptr_array_unref(names);
	g_free(base);
	if (!out->len) {
		g_string_free(out, TRUE);
		sa_parse_error(err, "devicetree: no memory nodes");
		return NULL;
	}
	return g_string_free(out, FALSE);
}

static bool parse_hex(const char *s, guint64 *v)
{
	if (g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X"))
		s += 2;
	return *s && g_ascii_string_to_unsigned(s, 16, 0, G_MAXUINT64, v,
						NULL);
}

struct memmap_walk {
	guint64 page_size;
	struct sa_memmap_ram *r;
	guint64 bytes;			/* memblock/reserved */
	unsigned int n;
};

static gboolean memmap_line(void *data, const struct sa_line *l, char **f,
			    int n, GError **err)
{
	struct memmap_walk *w = data;
	guint64 s, e;

	if (!l->len)
		return TRUE;
	if (n < 3 || !parse_hex(f[0], &s) || !parse_hex(f[1], &e)) {
		sa_parse_error(err, "memmap: malformed line '%.*s'",
			       (int)l->len, l->s);
		return FALSE;
	}
	if (n == 4 && !strcmp(f[2], "System") && !strcmp(f[3], "RAM")) {
		w->r->pages = MIN(w->r->pages + range_pages(s, e,
				  w->page_size), SA_MEMMAP_MAX_PAGES + 1);
		w->r->ranges++;
	}
	return TRUE;
}

int sa_memmap_parse(const char *text, guint64 page_size,
		    struct sa_memmap_ram *r, GError **err)
{
	struct memmap_walk w = { .page_size = page_size, .r = r };

	memset(r, 0, sizeof(*r));
	if (!sa_procfile_fields(text, memmap_line, &w, err))
		return -1;
	if (!r->ranges) {
		sa_parse_error(err, "memmap: no System RAM");
		return -1;
	}
	if (r->pages > SA_MEMMAP_MAX_PAGES) {
		sa_parse_error(err, "memmap: more System RAM than 1 EiB");
		return -1;
	}
	return 0;
}

struct iomem_walk {
	guint64 page_size;
	struct sa_memmap_ram *r;
	bool nonzero;
};

/* One "start-end : name" line of /proc/iomem, nested by its indent */
static void iomem_range(struct iomem_walk *w, const char *line)
{
	struct sa_memmap_ram *r = w->r;
	const char *colon = strstr(line, " : ");
	char *range, *dash, *name;
	guint64 s, e;
	bool top = *line != ' ';

	if (!colon)
		return;
	range = g_strstrip(g_strndup(line, colon - line));
	name = g_strstrip(g_strdup(colon + 3));
	dash = strchr(range, '-');
	if (dash) {
		*dash = '\0';
		if (parse_hex(range, &s) && parse_hex(dash + 1, &e)) {
			w->nonzero |= e != 0;
			if (top && !strcmp(name, "System RAM")) {
				r->pages = MIN(r->pages +
					range_pages(s, e, w->page_size),
					SA_MEMMAP_MAX_PAGES + 1);
				r->ranges++;
				if (s < 0x100000)
					r->low_pages += range_pages(s,
						MIN(e, 0xfffff), w->page_size);
			} else if (!strcmp(name, "Kernel data") &&
				   !r->kdata_end) {
				r->kdata_end = e;
			} else if (!strcmp(name, "Kernel bss") &&
				   !r->kbss_start) {
				r->kbss_start = s;
			} else if (!strcmp(name, "Crash kernel") && e >= s) {
				/* bounded: no overflow */
				r->crash_bytes = MIN(r->crash_bytes,
						     1ull << 62) +
					MIN(e - s, 1ull << 61) + 1;
			}
		}
	}
	g_free(range);
	g_free(name);
}

static gboolean iomem_line(void *data, const char *s, size_t len,
			   GError **err)
{
	char *line = g_strndup(s, len);

	(void)err;
	iomem_range(data, line);
	g_free(line);
	return TRUE;
}

int sa_iomem_parse(const char *text, guint64 page_size,
		   struct sa_memmap_ram *r, GError **err)
{
	struct iomem_walk w = { .page_size = page_size, .r = r };

	memset(r, 0, sizeof(*r));
	sa_procfile_lines(text, iomem_line, &w, NULL);
	if (!r->ranges) {
		sa_parse_error(err, "iomem: no System RAM");
		return -1;
	}
	if (r->pages > SA_MEMMAP_MAX_PAGES) {
		sa_parse_error(err, "iomem: more System RAM than 1 EiB");
		return -1;
	}
	if (!w.nonzero) {
		sa_parse_error(err, "iomem: the addresses are hidden "
			       "(only root sees them)");
		return -1;
	}
	return 0;
}

static gboolean reserved_line(void *data, const struct sa_line *l,
			      char **f, int nf, GError **err)
{
	struct memmap_walk *w = data;
	char *dots;
	guint64 s, e;

	if (!l->len)
		return TRUE;
	dots = nf >= 2 ? strstr(f[1], "..") : NULL;
	if (dots)
		*dots = '\0';
	if (!dots || !g_str_has_suffix(f[0], ":") || !parse_hex(f[1], &s) ||
	    !parse_hex(dots + 2, &e) || e < s) {
		sa_parse_error(err, "memblock/reserved: malformed line '%.*s'",
			       (int)l->len, l->s);
		return FALSE;
	}
	/* bounded: no overflow */
	w->bytes = MIN(w->bytes, 1ull << 62) + MIN(e - s, 1ull << 61) + 1;
	w->n++;
	return TRUE;
}

int sa_memblock_reserved_parse(const char *text, guint64 *bytes,
			       GError **err)
{
	struct memmap_walk w = { 0 };

	*bytes = 0;
	if (!sa_procfile_fields(text, reserved_line, &w, err))
		return -1;
	if (!w.n) {
		sa_parse_error(err, "memblock/reserved: no ranges");
		return -1;
	}
	*bytes = w.bytes;
	return 0;
}
