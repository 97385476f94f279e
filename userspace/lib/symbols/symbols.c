// SPDX-License-Identifier: GPL-2.0
/*
 * Call-site symbols from the kallsyms saved in a trace, with optional
 * source locations (symbols/dwarf.c) and object files (symbols/elf.c).
 */
#include <string.h>

#include <event-parse.h>

#include "symbols/symbols.h"

struct sa_symbols {
	struct tep_handle *tep;
	struct sa_dwarf *dwarf;
	struct sa_objmap *objs;
	GHashTable *cache;		/* addr -> struct sa_sym * */
};

struct sa_symbols *sa_symbols_new(struct tep_handle *tep,
				  const char *vmlinux,
				  const char *build_tree, GError **err)
{
	struct sa_symbols *s = g_new0(struct sa_symbols, 1);

	s->tep = tep;
	s->cache = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					 g_free, g_free);
	if (vmlinux && !(s->dwarf = sa_dwarf_open(vmlinux, err)))
		goto error;
	if (build_tree && !(s->objs = sa_objmap_open(build_tree, err)))
		goto error;
	return s;
error:
	sa_symbols_free(s);
	return NULL;
}

void sa_symbols_free(struct sa_symbols *s)
{
	if (!s)
		return;
	if (s->dwarf)
		sa_dwarf_close(s->dwarf);
	if (s->objs)
		sa_objmap_close(s->objs);
	g_hash_table_destroy(s->cache);
	g_free(s);
}

int sa_symbols_lookup(struct sa_symbols *s, guint64 addr, struct sa_sym *out)
{
	struct sa_sym *c = g_hash_table_lookup(s->cache, &addr);
	unsigned long long start = 0;
	unsigned long size = 0;
	const char *name = NULL;
	guint64 *key;

	if (!c) {
		c = g_new0(struct sa_sym, 1);
		if (s->tep && addr &&
		    tep_find_function_info(s->tep, addr, &name, &start,
					    &size) && name) {
			const char *mod = sa_kallsyms_module(s->tep, start);
			struct sa_srcpos pos;

			c->func = g_intern_string(name);
			c->off = addr - start;
			c->module = mod ? g_intern_string(mod) : NULL;
			if (s->dwarf && !c->module &&
			    !sa_dwarf_lookup_pos(s->dwarf, c->func, start,
						 c->off, &pos)) {
				c->file = pos.file;
				c->line = pos.line;
			}
			if (s->objs && !c->file)
				c->file = sa_objmap_lookup(s->objs, c->func);
		}
		key = g_new(guint64, 1);
		*key = addr;
		g_hash_table_insert(s->cache, key, c);
	}
	*out = *c;
	return c->func ? 0 : -1;
}

guint sa_symbols_objects(struct sa_symbols *s, const char *func)
{
	return s && s->objs ? sa_objmap_defs(s->objs, func) : 0;
}

char *sa_sym_format(const struct sa_sym *sym, guint64 addr)
{
	if (!sym->func)
		return g_strdup_printf("0x%" G_GINT64_MODIFIER "x", addr);
	if (sym->module)
		return g_strdup_printf("%s+0x%" G_GINT64_MODIFIER "x [%s]",
				       sym->func, sym->off, sym->module);
	return g_strdup_printf("%s+0x%" G_GINT64_MODIFIER "x", sym->func,
			       sym->off);
}

const char *sa_sym_subsystem(const struct sa_sym *sym, int depth)
{
	if (sym->file) {
		char **parts = g_strsplit(sym->file, "/", -1);
		guint n = g_strv_length(parts), keep, i;
		GString *s = g_string_new(NULL);
		const char *r;

		/* the directories, not the file name, up to depth levels */
		keep = n > 1 ? n - 1 : 1;
		if (depth > 0 && (guint)depth < keep)
			keep = depth;
		for (i = 0; i < keep; i++)
			g_string_append_printf(s, "%s%s", i ? "/" : "",
					       parts[i]);
		if (n == 1)
			g_string_assign(s, ".");
		r = g_intern_string(s->str);
		g_string_free(s, TRUE);
		g_strfreev(parts);
		return r;
	}
	if (sym->module) {
		char *t = g_strdup_printf("[%s]", sym->module);
		const char *r = g_intern_string(t);

		g_free(t);
		return r;
	}
	if (sym->func) {
		char *t = g_strdup_printf("vmlinux:%s", sym->func);
		const char *r = g_intern_string(t);

		g_free(t);
		return r;
	}
	return g_intern_static_string("unknown");
}

/* The allocation name of the first len bytes of func (sa_sym_alloc_name) */
static const char *alloc_name(const char *func, size_t len, char *buf,
			      size_t size)
{
	static const char suffix[] = "_noprof";

	for (; len && *func == '_'; len--)
		func++;
	if (len > sizeof(suffix) - 1 &&
	    !memcmp(func + len - (sizeof(suffix) - 1), suffix,
		    sizeof(suffix) - 1))
		len -= sizeof(suffix) - 1;
	if (len >= size)
		len = size - 1;
	memcpy(buf, func, len);
	buf[len] = 0;
	return buf;
}

const char *sa_sym_alloc_base(const char *func, char *buf, size_t size)
{
	return func ? alloc_name(func, strcspn(func, "."), buf, size) : NULL;
}

const char *sa_sym_alloc_name(const char *func, char *buf, size_t size)
{
	return func ? alloc_name(func, strlen(func), buf, size) : NULL;
}
