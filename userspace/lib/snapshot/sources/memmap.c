// SPDX-License-Identifier: GPL-2.0
/*
 * The physical memory map: /sys/firmware/memmap and /proc/iomem.
 */
#include <string.h>

#include "snapshot/sources/memmap.h"
#include "snapshot/sources/parse.h"

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

static bool parse_hex(const char *s, guint64 *v)
{
	if (g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X"))
		s += 2;
	return *s && g_ascii_string_to_unsigned(s, 16, 0, G_MAXUINT64, v,
						NULL);
}

int sa_memmap_parse(const char *text, guint64 page_size,
		    struct sa_memmap_ram *r, GError **err)
{
	char **lines = g_strsplit(text ? text : "", "\n", -1), **l;

	memset(r, 0, sizeof(*r));
	for (l = lines; *l; l++) {
		char **f;
		guint64 s, e;
		int n;

		if (!**l)
			continue;
		f = sa_fields(*l, &n);
		if (n < 3 || !parse_hex(f[0], &s) || !parse_hex(f[1], &e)) {
			sa_parse_error(err, "memmap: malformed line '%s'", *l);
			g_strfreev(f);
			g_strfreev(lines);
			return -1;
		}
		if (n == 4 && !strcmp(f[2], "System") &&
		    !strcmp(f[3], "RAM")) {
			r->pages = MIN(r->pages + range_pages(s, e,
					page_size), SA_MEMMAP_MAX_PAGES + 1);
			r->ranges++;
		}
		g_strfreev(f);
	}
	g_strfreev(lines);
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

int sa_iomem_parse(const char *text, guint64 page_size,
		   struct sa_memmap_ram *r, GError **err)
{
	char **lines = g_strsplit(text ? text : "", "\n", -1), **l;
	bool nonzero = false;

	memset(r, 0, sizeof(*r));
	for (l = lines; *l; l++) {
		const char *colon = strstr(*l, " : ");
		char *range, *dash, *name;
		guint64 s, e;
		bool top = **l != ' ';

		if (!colon)
			continue;
		range = g_strstrip(g_strndup(*l, colon - *l));
		name = g_strstrip(g_strdup(colon + 3));
		dash = strchr(range, '-');
		if (dash) {
			*dash = '\0';
			if (parse_hex(range, &s) && parse_hex(dash + 1, &e)) {
				nonzero |= e != 0;
				if (top && !strcmp(name, "System RAM")) {
					r->pages = MIN(r->pages +
						range_pages(s, e, page_size),
						SA_MEMMAP_MAX_PAGES + 1);
					r->ranges++;
				} else if (!strcmp(name, "Crash kernel") &&
					   e >= s) {
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
	g_strfreev(lines);
	if (!r->ranges) {
		sa_parse_error(err, "iomem: no System RAM");
		return -1;
	}
	if (r->pages > SA_MEMMAP_MAX_PAGES) {
		sa_parse_error(err, "iomem: more System RAM than 1 EiB");
		return -1;
	}
	if (!nonzero) {
		sa_parse_error(err, "iomem: the addresses are hidden "
			       "(only root sees them)");
		return -1;
	}
	return 0;
}
