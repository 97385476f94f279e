// SPDX-License-Identifier: GPL-2.0
/*
 * --vmlinux: a call site (function + offset, from kallsyms, so KASLR does
 * not matter) mapped to the link-time address of that function in the
 * vmlinux's symbol table, then to file:line through its DWARF (libdw).
 * Paths are made relative to the compilation directory, so they read
 * "mm/slub.c".
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "symbols.h"

struct sa_dwarf {
	int fd;
	Dwarf *dw;
	GHashTable *funcs;		/* interned name -> link address */
};

static void add_func(const char *name, guint64 addr, void *data)
{
	struct sa_dwarf *d = data;
	guint64 *a;

	if (g_hash_table_contains(d->funcs, name))
		return;
	a = g_new(guint64, 1);
	*a = addr;
	g_hash_table_insert(d->funcs, (gpointer)g_intern_string(name), a);
}

struct sa_dwarf *sa_dwarf_open(const char *vmlinux, GError **err)
{
	struct sa_dwarf *d = g_new0(struct sa_dwarf, 1);
	Elf *elf;

	d->fd = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		int e = errno;

		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", vmlinux, g_strerror(e));
		g_free(d);
		return NULL;
	}
	d->dw = dwarf_begin(d->fd, DWARF_C_READ);
	if (!d->dw) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: no DWARF debug information (%s); use the "
			    "kernel's -dbg package or a build with "
			    "CONFIG_DEBUG_INFO", vmlinux, dwarf_errmsg(-1));
		close(d->fd);
		g_free(d);
		return NULL;
	}
	d->funcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);
	elf = dwarf_getelf(d->dw);
	if (elf)
		sa_elf_foreach_func(elf, add_func, d);
	return d;
}

int sa_dwarf_lookup(struct sa_dwarf *d, const char *func, guint64 off,
		    const char **file, int *line)
{
	guint64 *start = g_hash_table_lookup(d->funcs, g_intern_string(func));
	Dwarf_Die cu;
	Dwarf_Line *l;
	Dwarf_Attribute at;
	const char *src, *comp;
	int lineno = 0;
	size_t n;

	if (!start || !dwarf_addrdie(d->dw, *start + off, &cu))
		return -1;
	l = dwarf_getsrc_die(&cu, *start + off);
	if (!l || !(src = dwarf_linesrc(l, NULL, NULL)))
		return -1;
	dwarf_lineno(l, &lineno);
	comp = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
	n = comp ? strlen(comp) : 0;
	if (n && !strncmp(src, comp, n) && src[n] == '/')
		src += n + 1;
	while (!strncmp(src, "./", 2))
		src += 2;
	*file = g_intern_string(src);
	*line = lineno;
	return 0;
}

void sa_dwarf_close(struct sa_dwarf *d)
{
	if (!d)
		return;
	g_hash_table_destroy(d->funcs);
	dwarf_end(d->dw);
	close(d->fd);
	g_free(d);
}
