// SPDX-License-Identifier: GPL-2.0
/*
 * Safe output files, in a temporary directory: nothing appears at the
 * path before the commit, an abort leaves an earlier file as it was, the
 * commit replaces it (an open reader keeps the old contents), the mode is
 * exact whatever the umask, symlinks are refused or followed, non-regular
 * files are written in place or refused, a second writer is refused by
 * the lock, and nothing but the output is left in the directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <gio/gio.h>

#include "util/outfile.h"

Suite *suite(void);

static char *dir;

static void setup(void)
{
	dir = g_dir_make_tmp("outfile-XXXXXX", NULL);
	ck_assert_ptr_nonnull(dir);
}

static void rm_rf(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		char *p = g_build_filename(path, n, NULL);

		unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	rmdir(path);
}

static void teardown(void)
{
	rm_rf(dir);
	g_free(dir);
}

static char *in_dir(const char *name)
{
	return g_build_filename(dir, name, NULL);
}

static void put(const char *path, const char *text)
{
	ck_assert(g_file_set_contents(path, text, -1, NULL));
}

static char *get(const char *path)
{
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in the directory, sorted, space separated */
static char *listing(void)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	char *s;

	while ((n = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(n));
	g_dir_close(d);
	g_ptr_array_sort(names, by_name);
	g_ptr_array_add(names, NULL);
	s = g_strjoinv(" ", (char **)names->pdata);
	g_ptr_array_unref(names);
	return s;
}

static void write_str(struct sa_outfile *f, const char *s)
{
	ck_assert_int_eq(write(sa_outfile_fd(f), s, strlen(s)),
			 (ssize_t)strlen(s));
}

static const struct sa_outfile_opts defaults = { 0 };

START_TEST(commit_replaces_abort_keeps)
{
	char *path = in_dir("out.txt"), *text, *ls;
	struct sa_outfile *f;
	GError *err = NULL;
	int reader;

	put(path, "old");
	reader = open(path, O_RDONLY);
	f = sa_outfile_open(path, &defaults, &err);
	ck_assert_ptr_nonnull(f);
	write_str(f, "new, unfinished");
	/* before the commit the path holds the old file */
	text = get(path);
	ck_assert_str_eq(text, "old");
	g_free(text);
	sa_outfile_abort(f);
	text = get(path);
	ck_assert_str_eq(text, "old");
	g_free(text);

	f = sa_outfile_open(path, &defaults, &err);
	write_str(f, "new");
	ck_assert_int_eq(sa_outfile_commit(f, &err), 0);
	text = get(path);
	ck_assert_str_eq(text, "new");
	g_free(text);
	/* the open reader still reads the old file */
	{
		char buf[8] = { 0 };

		ck_assert_int_eq(read(reader, buf, sizeof(buf) - 1), 3);
		ck_assert_str_eq(buf, "old");
	}
	close(reader);
	ls = listing();
	ck_assert_str_eq(ls, "out.txt");
	g_free(ls);
	g_free(path);
}
END_TEST

START_TEST(mode_is_exact)
{
	char *path = in_dir("m.txt");
	struct sa_outfile_opts o = { .mode = 0644 };
	struct sa_outfile *f;
	struct stat st;
	mode_t old = umask(077);

	f = sa_outfile_open(path, &defaults, NULL);
	ck_assert_int_eq(sa_outfile_commit(f, NULL), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	f = sa_outfile_open(path, &o, NULL);
	ck_assert_int_eq(sa_outfile_commit(f, NULL), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	umask(old);
	g_free(path);
}
END_TEST

START_TEST(symlinks)
{
	char *link = in_dir("link"), *target = in_dir("target");
	char *dangling = in_dir("dangling"), *text;
	struct sa_outfile_opts follow = { .follow_symlink = true };
	struct sa_outfile *f;
	GError *err = NULL;

	put(target, "precious");
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(symlink("nowhere", dangling), 0);
	ck_assert_ptr_null(sa_outfile_open(link, &defaults, &err));
	ck_assert(g_error_matches(err, G_IO_ERROR,
				  G_IO_ERROR_TOO_MANY_LINKS));
	g_clear_error(&err);
	ck_assert_ptr_null(sa_outfile_open(dangling, &defaults, &err));
	g_clear_error(&err);
	text = listing();
	ck_assert_str_eq(text, "dangling link target");
	g_free(text);

	/* followed: the target is replaced, the link stays */
	f = sa_outfile_open(link, &follow, &err);
	ck_assert_ptr_nonnull(f);
	write_str(f, "through");
	ck_assert_int_eq(sa_outfile_commit(f, &err), 0);
	text = get(target);
	ck_assert_str_eq(text, "through");
	g_free(text);
	{
		struct stat st;

		ck_assert_int_eq(lstat(link, &st), 0);
		ck_assert(S_ISLNK(st.st_mode));
	}
	/* a followed dangling link creates its (relative) target */
	f = sa_outfile_open(dangling, &follow, &err);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sa_outfile_commit(f, &err), 0);
	text = listing();
	ck_assert_str_eq(text, "dangling link nowhere target");
	g_free(text);
	g_free(link);
	g_free(target);
	g_free(dangling);
}
END_TEST

START_TEST(non_regular_files)
{
	struct sa_outfile_opts seek = { .regular_only = true };
	char *sub = in_dir("sub");
	struct sa_outfile *f;
	GError *err = NULL;

	f = sa_outfile_open("/dev/null", &defaults, &err);
	ck_assert_ptr_nonnull(f);
	write_str(f, "x");
	ck_assert_int_eq(sa_outfile_commit(f, &err), 0);
	ck_assert(g_file_test("/dev/null", G_FILE_TEST_EXISTS));
	ck_assert_ptr_null(sa_outfile_open("/dev/null", &seek, &err));
	ck_assert(g_error_matches(err, G_IO_ERROR,
				  G_IO_ERROR_NOT_REGULAR_FILE));
	g_clear_error(&err);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_ptr_null(sa_outfile_open(sub, &defaults, &err));
	g_clear_error(&err);
	ck_assert_int_eq(rmdir(sub), 0);
	ck_assert_ptr_null(sa_outfile_open("/no/such/dir/x", &defaults,
					   &err));
	ck_assert(g_error_matches(err, G_IO_ERROR, G_IO_ERROR_NOT_FOUND));
	g_clear_error(&err);
	g_free(sub);
}
END_TEST

START_TEST(second_writer_refused)
{
	char *path = in_dir("busy.dat"), *ls;
	struct sa_outfile *a, *b;
	GError *err = NULL;

	a = sa_outfile_open(path, &defaults, &err);
	ck_assert_ptr_nonnull(a);
	b = sa_outfile_open(path, &defaults, &err);
	ck_assert_ptr_null(b);
	ck_assert(g_error_matches(err, G_IO_ERROR, G_IO_ERROR_BUSY));
	ck_assert(strstr(err->message, "busy.dat"));
	g_clear_error(&err);
	ck_assert_int_eq(sa_outfile_commit(a, &err), 0);
	/* free again after the commit, and no lock file is left */
	b = sa_outfile_open(path, &defaults, &err);
	ck_assert_ptr_nonnull(b);
	sa_outfile_abort(b);
	ls = listing();
	ck_assert_str_eq(ls, "busy.dat");
	g_free(ls);
	g_free(path);
}
END_TEST

START_TEST(mode_parse)
{
	unsigned int m = 0;

	ck_assert_int_eq(sa_outfile_mode_parse("0644", &m), 0);
	ck_assert_uint_eq(m, 0644);
	ck_assert_int_eq(sa_outfile_mode_parse("640", &m), 0);
	ck_assert_uint_eq(m, 0640);
	ck_assert_int_eq(sa_outfile_mode_parse("0600", &m), 0);
	ck_assert_uint_eq(m, 0600);
	ck_assert_int_eq(sa_outfile_mode_parse("0888", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("abc", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("01777", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("4755", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("0", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse("00644", &m), -1);
	ck_assert_int_eq(sa_outfile_mode_parse(NULL, &m), -1);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, commit_replaces_abort_keeps);
	tcase_add_test(tc, mode_is_exact);
	tcase_add_test(tc, symlinks);
	tcase_add_test(tc, non_regular_files);
	tcase_add_test(tc, second_writer_refused);
	tcase_add_test(tc, mode_parse);
	suite_add_tcase(s, tc);
	return s;
}
