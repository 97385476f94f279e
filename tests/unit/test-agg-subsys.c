// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: subsystems and symbols: directory roll-up, wrappers, the
 * build-tree object map on a tiny tree compiled here, and DWARF lines of
 * a small program compiled with -g.
 */
#include <stdlib.h>
#include <unistd.h>

#include <check.h>

#include "symbols.h"

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

START_TEST(build_tree_objects)
{
	struct sa_objmap *m;
	GError *err = NULL;
	char *cmd;

	tmp = g_dir_make_tmp("sa-objmap-XXXXXX", NULL);
	compile("fs/ext4/super.o", "int ext4_fill_super(void) { return 1; }\n"
		"static int helper(void) { return 2; }\n"
		"int (*p)(void) = helper;\n", "-c");
	compile("mm/slub.o", "int kmem_cache_alloc(void) { return 3; }\n"
		"static int helper(void) { return 4; }\n"
		"int (*q)(void) = helper;\n", "-c");
	m = sa_objmap_open(tmp, &err);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(sa_objmap_lookup(m, "ext4_fill_super"),
			 "fs/ext4/super.o");
	ck_assert_str_eq(sa_objmap_lookup(m, "kmem_cache_alloc"),
			 "mm/slub.o");
	/* defined in two objects: only the common directory is known */
	ck_assert_str_eq(sa_objmap_lookup(m, "helper"), "?");
	ck_assert_ptr_null(sa_objmap_lookup(m, "nosuch"));
	sa_objmap_close(m);
	cmd = g_strdup_printf("rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	g_free(tmp);

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
	cmd = g_strdup_printf("rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	g_free(tmp);

	ck_assert_ptr_null(sa_dwarf_open("/nonexistent", &err));
	g_clear_error(&err);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-subsys");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, subsystem_depth);
	tcase_add_test(tc, wrappers);
	tcase_add_test(tc, format);
	tcase_add_test(tc, build_tree_objects);
	tcase_add_test(tc, dwarf_lines);
	suite_add_tcase(s, tc);
	return s;
}
