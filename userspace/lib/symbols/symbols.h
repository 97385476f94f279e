/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call-site symbols: a kernel address from a trace resolved to
 * `symbol+0xoff [module]` with the kallsyms saved in the trace (which
 * covers KASLR and modules), and optionally to a source file:line (DWARF
 * of a vmlinux, through libdw) or an object file of a kernel build tree
 * (through libelf), which give the subsystem (its source directory).
 */
#ifndef SLABACCT_SYMBOLS_H
#define SLABACCT_SYMBOLS_H

#include <stdbool.h>

#include <glib.h>

#include "trace/kallsyms.h"

struct tep_handle;
struct sa_symbols;

struct sa_sym {
	const char *func;	/* interned; NULL when unknown */
	guint64 off;		/* from the start of func */
	const char *module;	/* interned module name, NULL for vmlinux */
	const char *file;	/* interned source or object path, or NULL */
	int line;		/* source line, 0 if unknown */
};

/*
 * Symbols for the trace whose tep handle is tep (kallsyms loaded by
 * libtracecmd). vmlinux and build_tree may be NULL. Returns NULL with
 * *err set when vmlinux or build_tree cannot be read.
 */
struct sa_symbols *sa_symbols_new(struct tep_handle *tep,
				  const char *vmlinux,
				  const char *build_tree, GError **err);
void sa_symbols_free(struct sa_symbols *s);

/* Resolve addr. Returns 0, or -1 when no symbol covers it. */
int sa_symbols_lookup(struct sa_symbols *s, guint64 addr, struct sa_sym *out);

/*
 * How many object files of the --build-tree define func (0: none, or no
 * build tree): above 1, a local name --build-tree cannot place.
 */
guint sa_symbols_objects(struct sa_symbols *s, const char *func);

/* "func+0xoff [module]", or "0xaddr" when unknown. g_free the result. */
char *sa_sym_format(const struct sa_sym *sym, guint64 addr);

/*
 * The subsystem of a resolved symbol at depth directory levels: the
 * source directory ("fs/ext4") when a file is known, else "[module]",
 * else "vmlinux:func". Returns an interned string.
 */
const char *sa_sym_subsystem(const struct sa_sym *sym, int depth);

/*
 * The name of an allocation function across kernels, in buf (of size):
 * func without its leading underscores and a trailing "_noprof". Kernels
 * from 6.10 wrap each allocation API in alloc_hooks(), the macro keeping
 * the API's name and the function taking that name with "_noprof" added,
 * often behind underscores (kvmalloc_node() calls __kvmalloc_node_noprof,
 * kmemdup() kmemdup_noprof); 6.1 names the same functions kvmalloc_node,
 * kmemdup, __kmalloc_node_track_caller. All of those normalise to the API
 * name. Returns buf, or NULL for a NULL func.
 */
const char *sa_sym_alloc_name(const char *func, char *buf, size_t size);
/*
 * sa_sym_alloc_name of the function a compiler's copy was made from:
 * func's name before its first '.' (alloc_pages_mpol_noprof.constprop.0,
 * .isra.0, .part.0, .cold are alloc_pages_mpol). A kernel symbol has a
 * '.' only as such a suffix.
 */
const char *sa_sym_alloc_base(const char *func, char *buf, size_t size);

/*
 * If func is an allocation wrapper that hides its callers (kstrdup,
 * kmemdup, kvasprintf, kvmalloc_node, mempool_alloc, ..., matched by
 * sa_sym_alloc_name, so their 6.10+ _noprof names too), a short hint on
 * how to see the real caller; else NULL.
 */
const char *sa_sym_wrapper_hint(const char *func);

/* ---- backends (symbols-modules.c, symbols/dwarf.c, symbols/elf.c) ---- */

/*
 * Maps a function name and offset (of a return address: the call before
 * it is looked up) to a source file:line of a vmlinux, relative to the
 * source tree. start is the function's address in the trace's kallsyms
 * (0 if unknown): it tells apart the copies of a local name several
 * objects define (kzalloc.constprop.0), which are not found without it.
 *
 * Through inlined code, file:line is the line that calls the inlined
 * allocator: the first position outside a header on the way out from the
 * innermost one (drivers/tty/tty_io.c, not the include/linux/slab.h of
 * an inlined kzalloc); caller_* is the line in the function that contains
 * the address, inner_* the innermost line. All three are the same when
 * nothing is inlined there. Strings are interned.
 */
struct sa_dwarf;
struct sa_srcpos {
	const char *file;
	int line;
	const char *caller_file;
	int caller_line;
	const char *inner_file;
	int inner_line;
};
struct sa_dwarf *sa_dwarf_open(const char *vmlinux, GError **err);
int sa_dwarf_lookup_pos(struct sa_dwarf *d, const char *func, guint64 start,
			guint64 off, struct sa_srcpos *pos);
/* sa_dwarf_lookup_pos's file and line (start 0); 0, or -1 if not found. */
int sa_dwarf_lookup(struct sa_dwarf *d, const char *func, guint64 off,
		    const char **file, int *line);
/* The source tree of an out-of-tree build (O=) the paths are cut from. */
const char *sa_dwarf_srctree(struct sa_dwarf *d);
void sa_dwarf_close(struct sa_dwarf *d);

/*
 * Which kernel a vmlinux is (symbols/vmlinux.c): its GNU build ID, as
 * lowercase hex, and its Linux banner ("Linux version 6.1.0-56-amd64
 * (...) #1 SMP ...", as /proc/version) split into the release (uname -r)
 * and the version (uname -v, from its "#"). Each is NULL when the file
 * does not have it. Returns -1 with *err set when path is not a readable
 * ELF file.
 */
struct sa_kernel_id {
	char *build_id;
	char *banner;
	char *release;
	char *version;
};
int sa_vmlinux_id(const char *path, struct sa_kernel_id *id, GError **err);
void sa_kernel_id_clear(struct sa_kernel_id *id);

/* Every defined function symbol of an ELF file's symbol tables. */
typedef struct Elf Elf;
typedef void (*sa_elf_func_fn)(const char *name, guint64 addr, void *data);
void sa_elf_foreach_func(Elf *elf, sa_elf_func_fn fn, void *data);

/* Maps function names to the object files of a build tree that define them. */
struct sa_objmap;
struct sa_objmap *sa_objmap_open(const char *dir, GError **err);
/*
 * The object path relative to dir (interned): "fs/ext4/?" for a name
 * several objects of one directory define; NULL when none defines it or
 * the objects that do share no directory.
 */
const char *sa_objmap_lookup(struct sa_objmap *m, const char *func);
/* How many objects define func (0: none). */
guint sa_objmap_defs(struct sa_objmap *m, const char *func);
guint sa_objmap_size(struct sa_objmap *m);
void sa_objmap_close(struct sa_objmap *m);

#endif /* SLABACCT_SYMBOLS_H */
