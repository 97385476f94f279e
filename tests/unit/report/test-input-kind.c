// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the one door, what an input file is by its content. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/input-kind.h"

Suite *suite(void);

static char *temp_file(const void *data, size_t len)
{
	char *path = g_strdup("/tmp/sa-input-kind-XXXXXX");
	int fd = g_mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static enum sa_input_kind kind_of(const void *data, size_t len)
{
	char *path = temp_file(data, len);
	enum sa_input_kind k = -1;
	GError *err = NULL;

	ck_assert_msg(!sa_input_kind(path, &k, &err), "%s",
		      err ? err->message : "?");
	unlink(path);
	g_free(path);
	return k;
}

#define KIND(s) kind_of(s, sizeof(s) - 1)

START_TEST(kinds)
{
	char *big;

	ck_assert_int_eq(KIND("\027\010\104tracing6\0\0"), SA_INPUT_TRACEDAT);
	/* the magic cut short is not a trace */
	ck_assert_int_eq(KIND("\027\010\104tracin"), SA_INPUT_OTHER);
	ck_assert_int_eq(KIND("# slab_account 3\nsort: total\n"),
			 SA_INPUT_SLAB_ACCOUNT);
	ck_assert_int_eq(KIND("# slab_account"), SA_INPUT_OTHER);
	ck_assert_int_eq(KIND("allocinfo - version: 1.0\n"),
			 SA_INPUT_ALLOCINFO);
	ck_assert_int_eq(KIND("# event histogram\n#\n"), SA_INPUT_HIST);
	ck_assert_int_eq(KIND("{\"schema_version\": 1}"), SA_INPUT_JSON);
	ck_assert_int_eq(KIND(" \n\t {}"), SA_INPUT_JSON);
	ck_assert_int_eq(KIND("[1]"), SA_INPUT_OTHER);
	ck_assert_int_eq(KIND(""), SA_INPUT_OTHER);
	ck_assert_int_eq(KIND("\n\n"), SA_INPUT_OTHER);
	/* JSON after 64 KB of white space is past the head: not told */
	big = g_malloc(65 * 1024);
	memset(big, ' ', 65 * 1024);
	big[65 * 1024 - 1] = '{';
	ck_assert_int_eq(kind_of(big, 65 * 1024), SA_INPUT_OTHER);
	big[64 * 1024 - 1] = '{';
	ck_assert_int_eq(kind_of(big, 65 * 1024), SA_INPUT_JSON);
	g_free(big);
	ck_assert_str_eq(sa_input_kind_name(SA_INPUT_ALLOCINFO),
			 "/proc/allocinfo");
	ck_assert_str_eq(sa_input_kind_name(SA_INPUT_SLAB_ACCOUNT),
			 "/proc/slab_account");
	ck_assert_str_eq(sa_input_kind_name(SA_INPUT_TRACEDAT), "trace.dat");
	ck_assert_str_eq(sa_input_kind_name(SA_INPUT_HIST), "hist");
	ck_assert_str_eq(sa_input_kind_name(SA_INPUT_OTHER), "other");
}
END_TEST

START_TEST(not_read)
{
	char fifo[] = "/tmp/sa-input-kind-fifo-XXXXXX";
	enum sa_input_kind k = SA_INPUT_JSON;
	GError *err = NULL;

	ck_assert_int_eq(sa_input_kind("/nonexistent/x", &k, &err), -1);
	ck_assert(err && strstr(err->message, "/nonexistent/x"));
	g_clear_error(&err);
	/* a directory and a FIFO are refused, never read or waited on */
	ck_assert_int_eq(sa_input_kind("/", &k, &err), -1);
	ck_assert(err && strstr(err->message, "directory"));
	g_clear_error(&err);
	ck_assert_ptr_nonnull(g_mkdtemp(fifo));
	rmdir(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(sa_input_kind(fifo, &k, &err), -1);
	ck_assert_ptr_nonnull(err);
	g_clear_error(&err);
	unlink(fifo);
	ck_assert_int_eq(k, SA_INPUT_JSON);	/* untouched on failure */
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("input-kind");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, kinds);
	tcase_add_test(tc, not_read);
	suite_add_tcase(s, tc);
	return s;
}
