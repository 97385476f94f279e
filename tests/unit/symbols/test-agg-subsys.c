// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: subsystems and symbols: directory roll-up, wrappers, the
 * build-tree object map on a tiny tree compiled here, and DWARF lines of
 * a small program compiled with -g.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "symbols/symbols.h"

Suite *suite(void);

START_TEST(subsystem_depth)
{
	struct sa_sym s = { .func = "ext4_fill_super",
			    .file = "fs/ext4/super.c" };

	ck_assert_str_eq(sa_sym_subsystem(&s, 0), "fs/ext4");
	ck_assert_str_eq(sa_sym_subsystem(&s, 1), "fs");
	ck_assert_str_eq(sa_sym_subsystem(&s, 5), "fs/ext4");
	s.file = NULL;
	s.module = "ext4";
	ck_assert_str_eq(sa_sym_subsystem(&s, 0), "[ext4]");
	s.module = NULL;
	ck_assert_str_eq(sa_sym_subsystem(&s, 0), "vmlinux:ext4_fill_super");
}
END_TEST

START_TEST(wrappers)
{
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kstrdup"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kvasprintf"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kmemdup"));
	ck_assert_ptr_null(sa_sym_wrapper_hint("alloc_inode"));
	ck_assert_ptr_null(sa_sym_wrapper_hint(NULL));
	/* 6.10+ names: alloc_hooks' _noprof functions */
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("__kvmalloc_node_noprof"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kvmalloc_node"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("mempool_alloc_noprof"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kvrealloc_noprof"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("kmemdup_noprof"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("krealloc_noprof"));
	ck_assert_ptr_nonnull(sa_sym_wrapper_hint("__krealloc"));
	/* the allocator of kstrdup & co, whose call site is their caller */
	ck_assert_ptr_null(sa_sym_wrapper_hint(
		"__kmalloc_node_track_caller_noprof"));
	ck_assert_ptr_null(sa_sym_wrapper_hint("alloc_inode_noprof"));
}
END_TEST

START_TEST(alloc_names)
{
	char b[64];

	ck_assert_str_eq(sa_sym_alloc_name("__kvmalloc_node_noprof", b,
					   sizeof(b)), "kvmalloc_node");
	ck_assert_str_eq(sa_sym_alloc_name("kvmalloc_node", b, sizeof(b)),
			 "kvmalloc_node");
	ck_assert_str_eq(sa_sym_alloc_name("kmemdup_noprof", b, sizeof(b)),
			 "kmemdup");
	ck_assert_str_eq(sa_sym_alloc_name("__kmalloc_node_track_caller", b,
					   sizeof(b)),
			 "kmalloc_node_track_caller");
	/* only a suffix: a name that is nothing but "_noprof" stays */
	ck_assert_str_eq(sa_sym_alloc_name("_noprof", b, sizeof(b)),
			 "noprof");
	ck_assert_str_eq(sa_sym_alloc_name("noprof_x", b, sizeof(b)),
			 "noprof_x");
	/* cut to the buffer */
	ck_assert_str_eq(sa_sym_alloc_name("kvmalloc_node", b, 4), "kvm");
	ck_assert_ptr_null(sa_sym_alloc_name(NULL, b, sizeof(b)));
}
END_TEST

START_TEST(format)
{
	struct sa_sym s = { .func = "f", .off = 0x2a, .module = "m" };
	char *t = sa_sym_format(&s, 0);

	ck_assert_str_eq(t, "f+0x2a [m]");
	g_free(t);
	s.func = NULL;
	t = sa_sym_format(&s, 0xffffffff81000000ULL);
	ck_assert_str_eq(t, "0xffffffff81000000");
	g_free(t);
}
END_TEST

static char *tmp;

static void compile(const char *rel, const char *src, const char *flags)
{
	char *path = g_build_filename(tmp, rel, NULL);
	char *dir = g_path_get_dirname(path);
	char *c = g_strdup_printf("%s.c", path);
	char *cmd;

	g_mkdir_with_parents(dir, 0755);
	ck_assert(g_file_set_contents(c, src, -1, NULL));
	cmd = g_strdup_printf("cd %s && cc %s -o %s %s", tmp, flags, rel,
			      c + strlen(tmp) + 1);
	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	g_free(c);
	g_free(dir);
	g_free(path);
}

static void remove_tmp(void)
{
	char *cmd = g_strdup_printf("rm -rf %s", tmp);

	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	g_free(tmp);
}

START_TEST(build_tree_objects)
{
	struct sa_objmap *m;
	GError *err = NULL;

	tmp = g_dir_make_tmp("sa-objmap-XXXXXX", NULL);
	compile("fs/ext4/super.o", "int ext4_fill_super(void) { return 1; }\n"
		"static int helper(void) { return 2; }\n"
		"int (*p)(void) = helper;\n", "-c");
	compile("mm/slub.o", "int kmem_cache_alloc(void) { return 3; }\n"
		"static int helper(void) { return 4; }\n"
		"int (*q)(void) = helper;\n", "-c");
	compile("fs/ext4/inode.o", "static int local(void) { return 5; }\n"
		"int (*r)(void) = local;\n", "-c");
	compile("fs/ext4/dir.o", "static int local(void) { return 6; }\n"
		"int (*t)(void) = local;\n", "-c");
	m = sa_objmap_open(tmp, &err);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(sa_objmap_lookup(m, "ext4_fill_super"),
			 "fs/ext4/super.o");
	ck_assert_str_eq(sa_objmap_lookup(m, "kmem_cache_alloc"),
			 "mm/slub.o");
	/* defined in two objects of no common directory: not placed */
	ck_assert_ptr_null(sa_objmap_lookup(m, "helper"));
	ck_assert_uint_eq(sa_objmap_defs(m, "helper"), 2);
	ck_assert_uint_eq(sa_objmap_defs(m, "ext4_fill_super"), 1);
	ck_assert_uint_eq(sa_objmap_defs(m, "nosuch"), 0);
	ck_assert_ptr_null(sa_objmap_lookup(m, "nosuch"));
	/* two objects of one directory: that directory */
	ck_assert_str_eq(sa_objmap_lookup(m, "local"), "fs/ext4/?");
	sa_objmap_close(m);
	remove_tmp();

	ck_assert_ptr_null(sa_objmap_open("/nonexistent", &err));
	ck_assert_ptr_nonnull(err);
	g_clear_error(&err);
}
END_TEST

START_TEST(dwarf_lines)
{
	struct sa_dwarf *d;
	GError *err = NULL;
	const char *file = NULL;
	int line = 0;
	char *cmd;

	tmp = g_dir_make_tmp("sa-dwarf-XXXXXX", NULL);
	compile("drivers/net/prog", "int x;\n"
		"__attribute__((noinline)) int alloc_thing(int n)\n"
		"{\n"
		"\treturn n + x;\n"
		"}\n"
		"int main(void) { return alloc_thing(1); }\n", "-g -O0");
	cmd = g_build_filename(tmp, "drivers/net/prog", NULL);
	d = sa_dwarf_open(cmd, &err);
	g_free(cmd);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(sa_dwarf_lookup(d, "alloc_thing", 0, &file, &line),
			 0);
	ck_assert_str_eq(file, "drivers/net/prog.c");
	ck_assert_int_eq(line, 3);
	ck_assert_int_eq(sa_dwarf_lookup(d, "nosuch", 0, &file, &line), -1);
	sa_dwarf_close(d);
	remove_tmp();

	ck_assert_ptr_null(sa_dwarf_open("/nonexistent", &err));
	g_clear_error(&err);
}
END_TEST

/* The files of an out-of-tree build: sources in src/, compiled in build/ */
static const char slab_h[] =
	"extern void *sa_kmalloc(unsigned long n);\n"		/* 1 */
	"static inline __attribute__((always_inline))\n"	/* 2 */
	"void *my_kmalloc(unsigned long n)\n"			/* 3 */
	"{\n"							/* 4 */
	"\treturn sa_kmalloc(n);\n"				/* 5 */
	"}\n"							/* 6 */
	"static inline __attribute__((always_inline))\n"	/* 7 */
	"void *my_kzalloc(unsigned long n)\n"			/* 8 */
	"{\n"							/* 9 */
	"\treturn my_kmalloc(n + 1);\n"				/* 10 */
	"}\n";							/* 11 */
static const char tty_c[] =
	"#include <linux/slab.h>\n"				/* 1 */
	"void *sink;\n"						/* 2 */
	"static inline __attribute__((always_inline))\n"	/* 3 */
	"void *tty_helper(void)\n"				/* 4 */
	"{\n"							/* 5 */
	"\treturn my_kmalloc(32);\n"				/* 6 */
	"}\n"							/* 7 */
	"__attribute__((noinline)) int tty_thing(int n)\n"	/* 8 */
	"{\n"							/* 9 */
	"\tsink = my_kzalloc(n);\n"				/* 10 */
	"\treturn n + 1;\n"					/* 11 */
	"}\n"							/* 12 */
	"__attribute__((noinline)) int tty_other(void)\n"	/* 13 */
	"{\n"							/* 14 */
	"\tsink = tty_helper();\n"				/* 15 */
	"\treturn 2;\n"						/* 16 */
	"}\n"							/* 17 */
	"static __attribute__((noinline)) int dup(void)\n"	/* 18 */
	"{\n"							/* 19 */
	"\tsink = my_kmalloc(7);\n"				/* 20 */
	"\treturn 3;\n"						/* 21 */
	"}\n"							/* 22 */
	"int (*tty_dup)(void) = dup;\n";
static const char mm_c[] =
	"#include <stdlib.h>\n"					/* 1 */
	"void *sink2;\n"					/* 2 */
	"__attribute__((noinline))\n"				/* 3 */
	"void *sa_kmalloc(unsigned long n) { return malloc(n); }\n"
	"static __attribute__((noinline)) int dup(void)\n"	/* 5 */
	"{\n"							/* 6 */
	"\tsink2 = sa_kmalloc(9);\n"				/* 7 */
	"\treturn 4;\n"						/* 8 */
	"}\n"							/* 9 */
	"int (*mm_dup)(void) = dup;\n"
	"extern int tty_thing(int), tty_other(void);\n"
	"int main(void) { return tty_thing(1) + tty_other() + dup(); }\n";

static void put(const char *rel, const char *text)
{
	char *path = g_build_filename(tmp, rel, NULL);
	char *dir = g_path_get_dirname(path);

	g_mkdir_with_parents(dir, 0755);
	ck_assert(g_file_set_contents(path, text, -1, NULL));
	g_free(dir);
	g_free(path);
}

/*
 * The n-th (from 0) copy of func in prog: its address and the offset of
 * the return address of its first call to sa_kmalloc.
 */
static void ret_addr(const char *prog, const char *func, int n,
		     guint64 *start, guint64 *off)
{
	char *cmd = g_strdup_printf("objdump -d --no-show-raw-insn %s", prog);
	char *out = NULL, **lines, *head = g_strdup_printf("<%s>:", func);
	bool in = false, call = false;
	int i;

	ck_assert(g_spawn_command_line_sync(cmd, &out, NULL, NULL, NULL));
	lines = g_strsplit(out, "\n", -1);
	*start = *off = 0;
	for (i = 0; lines[i] && !*off; i++) {
		guint64 a = g_ascii_strtoull(g_strchug(lines[i]), NULL, 16);

		if (g_str_has_suffix(lines[i], head) && n-- == 0) {
			in = true;
			*start = a;
		} else if (in && !lines[i][0]) {
			break;
		} else if (in && call) {
			*off = a - *start;
		} else if (in && strstr(lines[i], "call") &&
			   strstr(lines[i], "<sa_kmalloc")) {
			call = true;
		}
	}
	ck_assert_msg(*off, "no call to sa_kmalloc in copy %d of %s", n, func);
	g_strfreev(lines);
	g_free(head);
	g_free(out);
	g_free(cmd);
}

START_TEST(dwarf_inlined)
{
	struct sa_srcpos pos;
	struct sa_dwarf *d;
	GError *err = NULL;
	guint64 start, off, start2, off2;
	char *cmd, *prog, *src;

	tmp = g_dir_make_tmp("sa-dwarf-XXXXXX", NULL);
	put("src/include/linux/slab.h", slab_h);
	put("src/drivers/tty/tty.c", tty_c);
	put("src/mm/alloc.c", mm_c);
	g_mkdir_with_parents(g_build_filename(tmp, "build", NULL), 0755);
	/* out of tree: absolute source names, compiled elsewhere (O=) */
	cmd = g_strdup_printf("cd %s/build && cc -g -O2 -I %s/src/include "
			      "-o prog %s/src/drivers/tty/tty.c "
			      "%s/src/mm/alloc.c", tmp, tmp, tmp, tmp);
	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	prog = g_build_filename(tmp, "build/prog", NULL);
	d = sa_dwarf_open(prog, &err);
	ck_assert_ptr_nonnull(d);
	src = g_build_filename(tmp, "src", NULL);
	ck_assert_str_eq(sa_dwarf_srctree(d), src);

	/* kzalloc -> kmalloc inlined: the caller's line, relative */
	ret_addr(prog, "tty_thing", 0, &start, &off);
	ck_assert_int_eq(sa_dwarf_lookup_pos(d, "tty_thing", 0, off, &pos), 0);
	ck_assert_str_eq(pos.file, "drivers/tty/tty.c");
	ck_assert_int_eq(pos.line, 10);
	ck_assert_str_eq(pos.caller_file, "drivers/tty/tty.c");
	ck_assert_int_eq(pos.caller_line, 10);
	ck_assert_str_eq(pos.inner_file, "include/linux/slab.h");
	ck_assert_int_eq(pos.inner_line, 5);

	/* a static helper of the .c inlined: its allocating line */
	ret_addr(prog, "tty_other", 0, &start, &off);
	ck_assert_int_eq(sa_dwarf_lookup_pos(d, "tty_other", 0, off, &pos), 0);
	ck_assert_str_eq(pos.file, "drivers/tty/tty.c");
	ck_assert_int_eq(pos.line, 6);
	ck_assert_int_eq(pos.caller_line, 15);
	ck_assert_str_eq(pos.inner_file, "include/linux/slab.h");

	/* a local name in two objects: told apart by its address only */
	ret_addr(prog, "dup", 0, &start, &off);
	ret_addr(prog, "dup", 1, &start2, &off2);
	ck_assert_int_eq(sa_dwarf_lookup_pos(d, "dup", 0, off, &pos), -1);
	ck_assert_int_eq(sa_dwarf_lookup_pos(d, "dup", start, off, &pos), 0);
	ck_assert_str_eq(pos.file, start < start2 ? "drivers/tty/tty.c" :
			 "mm/alloc.c");
	ck_assert_int_eq(sa_dwarf_lookup_pos(d, "dup", start2, off2, &pos),
			 0);
	ck_assert_str_eq(pos.file, start < start2 ? "mm/alloc.c" :
			 "drivers/tty/tty.c");
	ck_assert_int_eq(pos.line, start < start2 ? 7 : 20);
	sa_dwarf_close(d);
	g_free(src);
	g_free(prog);
	remove_tmp();
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-subsys");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, subsystem_depth);
	tcase_add_test(tc, wrappers);
	tcase_add_test(tc, alloc_names);
	tcase_add_test(tc, format);
	tcase_add_test(tc, build_tree_objects);
	tcase_add_test(tc, dwarf_lines);
	tcase_add_test(tc, dwarf_inlined);
	suite_add_tcase(s, tc);
	return s;
}
