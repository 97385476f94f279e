// SPDX-License-Identifier: GPL-2.0
/*
 * --build-tree: function names mapped to the object files of a kernel
 * build tree that define them, read through libelf. A name defined in
 * several objects maps to their common directory ("fs/ext4/?"), or to
 * nothing when they share none: a local name like kzalloc.constprop.0,
 * whose copies only the address tells apart (sa_objmap_defs counts them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "symbols/symbols.h"

struct sa_objmap {
	GHashTable *map;		/* interned func -> interned path */
	GHashTable *defs;		/* interned func -> objects, if > 1 */
	guint objects;
};

/* The common directory of two paths, with a trailing "/?" file part. */
static const char *common_dir(const char *a, const char *b)
{
	size_t i = 0, slash = 0;
	char *t;
	const char *r;

	while (a[i] && a[i] == b[i]) {
		if (a[i] == '/')
			slash = i;
		i++;
	}
	t = slash ? g_strdup_printf("%.*s/?", (int)slash, a) : g_strdup("?");
	r = g_intern_string(t);
	g_free(t);
	return r;
}

void sa_elf_foreach_func(Elf *elf, sa_elf_func_fn fn, void *data)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			const char *name;
			GElf_Sym sym;

			if (!gelf_getsym(d, i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && *name)
				fn(name, sym.st_value, data);
		}
	}
}

struct add_ctx {
	struct sa_objmap *m;
	const char *rel;
};

static void add_func(const char *name, guint64 addr, void *data)
{
	struct add_ctx *c = data;
	const char *in = g_intern_string(name), *old;

	old = g_hash_table_lookup(c->m->map, in);
	if (!old) {
		g_hash_table_insert(c->m->map, (gpointer)in,
				    (gpointer)g_intern_string(c->rel));
	} else if (strcmp(old, c->rel)) {
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(c->m->defs,
							       in));

		g_hash_table_insert(c->m->map, (gpointer)in,
				    (gpointer)common_dir(old, c->rel));
		g_hash_table_insert(c->m->defs, (gpointer)in,
				    GUINT_TO_POINTER(n ? n + 1 : 2));
	}
}

static void add_object(struct sa_objmap *m, const char *path,
		       const char *rel)
{
	struct add_ctx c = { m, rel };
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		m->objects++;
		sa_elf_foreach_func(elf, add_func, &c);
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

static bool skip_object(const char *name)
{
	return !g_str_has_suffix(name, ".o") ||
	       g_str_has_suffix(name, ".mod.o") ||
	       !strcmp(name, "vmlinux.o") || g_str_has_prefix(name, ".tmp");
}

static void walk(struct sa_objmap *m, const char *top, const char *rel,
		 int level)
{
	char *dir = rel[0] ? g_build_filename(top, rel, NULL) : g_strdup(top);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d || level > 32)
		goto out;
	while ((name = g_dir_read_name(d))) {
		char *path = g_build_filename(dir, name, NULL);
		char *sub = rel[0] ? g_strdup_printf("%s/%s", rel, name) :
			    g_strdup(name);

		if (name[0] != '.' &&
		    g_file_test(path, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(path, G_FILE_TEST_IS_SYMLINK))
			walk(m, top, sub, level + 1);
		else if (!skip_object(name))
			add_object(m, path, sub);
		g_free(path);
		g_free(sub);
	}
out:
	if (d)
		g_dir_close(d);
	g_free(dir);
}

struct sa_objmap *sa_objmap_open(const char *dir, GError **err)
{
	struct sa_objmap *m;

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
			    "%s: not a directory (--build-tree wants a kernel "
			    "build tree with its object files)", dir);
		return NULL;
	}
	elf_version(EV_CURRENT);
	m = g_new0(struct sa_objmap, 1);
	m->map = g_hash_table_new(g_direct_hash, g_direct_equal);
	m->defs = g_hash_table_new(g_direct_hash, g_direct_equal);
	walk(m, dir, "", 0);
	if (!m->objects) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s: no ELF object files (*.o) found", dir);
		sa_objmap_close(m);
		return NULL;
	}
	return m;
}

const char *sa_objmap_lookup(struct sa_objmap *m, const char *func)
{
	const char *r = func ? g_hash_table_lookup(m->map,
						   g_intern_string(func)) :
			NULL;

	return r && strcmp(r, "?") ? r : NULL;
}

guint sa_objmap_defs(struct sa_objmap *m, const char *func)
{
	const char *in = func ? g_intern_string(func) : NULL;

	if (!in || !g_hash_table_contains(m->map, in))
		return 0;
	return MAX(GPOINTER_TO_UINT(g_hash_table_lookup(m->defs, in)), 1);
}

guint sa_objmap_size(struct sa_objmap *m)
{
	return g_hash_table_size(m->map);
}

void sa_objmap_close(struct sa_objmap *m)
{
	if (!m)
		return;
	g_hash_table_destroy(m->map);
	g_hash_table_destroy(m->defs);
	g_free(m);
}
