// SPDX-License-Identifier: GPL-2.0
/*
 * --build-tree: function names mapped to the object files of a kernel
 * build tree that define them, read through libelf. A name defined in
 * several objects maps to their common directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "symbols.h"

struct sa_objmap {
	GHashTable *map;		/* interned func -> interned path */
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

static void add_object(struct sa_objmap *m, const char *path,
		       const char *rel)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	m->objects++;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; data && i < n; i++) {
			const char *name, *old, *in;
			GElf_Sym sym;

			if (!gelf_getsym(data, i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			in = g_intern_string(name);
			old = g_hash_table_lookup(m->map, in);
			if (!old)
				g_hash_table_insert(m->map, (gpointer)in,
						    (gpointer)g_intern_string(rel));
			else if (strcmp(old, rel))
				g_hash_table_insert(m->map, (gpointer)in,
						    (gpointer)common_dir(old,
									 rel));
		}
	}
out:
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
	return func ? g_hash_table_lookup(m->map, g_intern_string(func)) :
		      NULL;
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
	g_free(m);
}
