// SPDX-License-Identifier: GPL-2.0
/*
 * --vmlinux: a call site (function + offset, from kallsyms, so KASLR does
 * not matter) mapped to the link-time address of that function in the
 * vmlinux's symbol table, then to file:line through its DWARF (libdw).
 *
 * The address is a return address (_RET_IP_), so the instruction before
 * it, the call, is looked up. When the call sits in inlined code (kmalloc
 * inside kzalloc inside the caller), the line table gives the innermost
 * inlined line (include/linux/slab.h). The chain of inlined-subroutine
 * DIEs around the address leads, through their DW_AT_call_file and
 * DW_AT_call_line, out to the line in the function that contains the
 * address. The position reported is the first of that chain outside a
 * header: the line that calls the inlined allocator, in the caller or in
 * a static helper inlined into it (kernfs_lock_init into kernfs_init).
 * The caller's line and the innermost one are kept too.
 *
 * Paths are made relative to the source tree, so they read "mm/slub.c":
 * names under the compilation directory (in-tree builds, and generated
 * files of out-of-tree ones) lose it, and so do names under the source
 * tree of an out-of-tree build (O=), which is the common directory of
 * the absolute unit names outside the compilation directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "symbols/symbols.h"

struct sa_dwarf {
	int fd;
	Dwarf *dw;
	GHashTable *funcs;		/* interned name -> GArray of addresses */
	char *srctree;			/* of an out-of-tree build, or NULL */
	guint64 offset;			/* load offset: kallsyms - link address */
	bool offset_known;
};

#define SA_KASLR_ALIGN	0x200000ULL

static void add_func(const char *name, guint64 addr, void *data)
{
	struct sa_dwarf *d = data;
	const char *in = g_intern_string(name);
	GArray *a = g_hash_table_lookup(d->funcs, in);
	guint i;

	if (!a) {
		a = g_array_sized_new(FALSE, FALSE, sizeof(guint64), 1);
		g_hash_table_insert(d->funcs, (gpointer)in, a);
	}
	for (i = 0; i < a->len; i++)
		if (g_array_index(a, guint64, i) == addr)
			return;
	g_array_append_val(a, addr);
}

/*
 * The link address of func, whose address in the trace's kallsyms is
 * start (0: unknown). A local name several objects define
 * (kzalloc.constprop.0) is told apart by start: the link address at the
 * kernel's load offset, known once a unique name was looked up (start -
 * its link address), else the one copy at the same place within a 2 MB
 * (the x86-64 KASLR alignment) as start.
 */
static bool link_start(struct sa_dwarf *d, const char *func, guint64 start,
		       guint64 *link)
{
	GArray *a = g_hash_table_lookup(d->funcs, g_intern_string(func));
	guint i, n = 0;

	if (a && a->len == 1) {
		*link = g_array_index(a, guint64, 0);
		if (start && !d->offset_known) {
			d->offset = start - *link;
			d->offset_known = true;
		}
		return true;
	}
	for (i = 0; a && start && i < a->len; i++) {
		guint64 c = g_array_index(a, guint64, i);

		if (d->offset_known ? c + d->offset == start :
		    !((c ^ start) & (SA_KASLR_ALIGN - 1))) {
			*link = c;
			n++;
		}
	}
	return n == 1;
}

static const char *die_string(Dwarf_Die *die, int name)
{
	Dwarf_Attribute at;

	return dwarf_formstring(dwarf_attr(die, name, &at));
}

/* The length of dir when path is under it ("dir/..."), else 0. */
static size_t under(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n && !strncmp(path, dir, n) && path[n] == '/' ? n : 0;
}

/* Shorten *common to the directory it shares with path's directory. */
static void common_dir(char **common, const char *path)
{
	char *dir = g_path_get_dirname(path), *c = *common;
	size_t i, end = 0;

	if (!c) {
		*common = dir;
		return;
	}
	for (i = 0; c[i] && c[i] == dir[i]; i++)
		if (c[i] == '/')
			end = i;
	if ((!c[i] || c[i] == '/') && (!dir[i] || dir[i] == '/'))
		end = i;
	c[end] = '\0';
	g_free(dir);
}

/*
 * The source tree of an out-of-tree build: the common directory of the
 * absolute unit names that are not under their compilation directory.
 */
static void find_srctree(struct sa_dwarf *d)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	char *common = NULL;

	while (!dwarf_nextcu(d->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		const char *name;

		if (dwarf_offdie(d->dw, off + hsize, &cu) &&
		    (name = die_string(&cu, DW_AT_name)) && name[0] == '/' &&
		    !under(name, die_string(&cu, DW_AT_comp_dir)))
			common_dir(&common, name);
		off = next;
	}
	if (common && common[0] && strcmp(common, "/"))
		d->srctree = common;
	else
		g_free(common);
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
					 (GDestroyNotify)g_array_unref);
	elf = dwarf_getelf(d->dw);
	if (elf)
		sa_elf_foreach_func(elf, add_func, d);
	find_srctree(d);
	return d;
}

const char *sa_dwarf_srctree(struct sa_dwarf *d)
{
	return d->srctree;
}

/* src relative to the source tree (interned). */
static const char *relative(struct sa_dwarf *d, Dwarf_Die *cu,
			    const char *src)
{
	size_t n = under(src, die_string(cu, DW_AT_comp_dir));

	if (!n && d->srctree)
		n = under(src, d->srctree);
	if (n)
		src += n + 1;
	while (!strncmp(src, "./", 2))
		src += 2;
	return g_intern_string(src);
}

/* The file DW_AT_call_file of die names, in cu's file table, or NULL. */
static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t n;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &idx) ||
	    dwarf_getsrcfiles(cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* Whether a source file is a header (include/linux/slab.h). */
static bool is_header(const char *file)
{
	return g_str_has_suffix(file, ".h");
}

/*
 * Walk out from the innermost scope at pc (pos->inner_*) through the
 * inlined subroutines around it: each one's call position is a line of
 * the scope that contains it. The allocating line (pos->file, line) is
 * the first of them outside a header, the call of the inlined allocator
 * (kmalloc, kzalloc); the caller's (caller_*) is the last one, in the
 * function that contains pc. Paths are not yet made relative.
 */
static void walk_inlined(Dwarf_Die *cu, Dwarf_Addr pc, struct sa_srcpos *pos)
{
	Dwarf_Die *scopes = NULL, *chain = NULL;
	bool found = !is_header(pos->inner_file);
	int n, i;

	pos->file = pos->caller_file = pos->inner_file;
	pos->line = pos->caller_line = pos->inner_line;
	n = dwarf_getscopes(cu, pc, &scopes);
	if (n > 0)
		n = dwarf_getscopes_die(&scopes[0], &chain);
	for (i = 0; i < n; i++) {
		Dwarf_Attribute at;
		Dwarf_Word l;
		const char *f;
		int tag = dwarf_tag(&chain[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		f = call_file(cu, &chain[i]);
		if (!f || dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line,
						     &at), &l))
			break;
		pos->caller_file = f;
		pos->caller_line = (int)l;
		if (!found) {
			pos->file = f;
			pos->line = (int)l;
			found = !is_header(f);
		}
	}
	free(chain);
	free(scopes);
}

int sa_dwarf_lookup_pos(struct sa_dwarf *d, const char *func, guint64 start,
			guint64 off, struct sa_srcpos *pos)
{
	guint64 link;
	Dwarf_Addr pc;
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *src;
	int lineno = 0;

	if (!link_start(d, func, start, &link))
		return -1;
	/* a return address: the call is the instruction before it */
	pc = link + off - (off ? 1 : 0);
	if (!dwarf_addrdie(d->dw, pc, &cu))
		return -1;
	l = dwarf_getsrc_die(&cu, pc);
	if (!l || !(src = dwarf_linesrc(l, NULL, NULL)))
		return -1;
	dwarf_lineno(l, &lineno);
	pos->inner_file = src;
	pos->inner_line = lineno;
	walk_inlined(&cu, pc, pos);
	pos->file = relative(d, &cu, pos->file);
	pos->caller_file = relative(d, &cu, pos->caller_file);
	pos->inner_file = relative(d, &cu, pos->inner_file);
	return 0;
}

int sa_dwarf_lookup(struct sa_dwarf *d, const char *func, guint64 off,
		    const char **file, int *line)
{
	struct sa_srcpos pos;

	if (sa_dwarf_lookup_pos(d, func, 0, off, &pos))
		return -1;
	*file = pos.file;
	*line = pos.line;
	return 0;
}

void sa_dwarf_close(struct sa_dwarf *d)
{
	if (!d)
		return;
	g_hash_table_destroy(d->funcs);
	g_free(d->srctree);
	dwarf_end(d->dw);
	close(d->fd);
	g_free(d);
}
