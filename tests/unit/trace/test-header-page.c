// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the ring-buffer page layout read from a header_page text
 * (trace/header-page.h), and the trace.dat writer taking its long size
 * from there, not from this program's sizeof(long): header_page of a
 * 64-bit kernel (tests/data/tracedat/header_page, from 6.18 x86-64) and
 * of a 32-bit one (header_page-32, Debian's 6.1 armmp, the same text
 * `trace-cmd dump --head-page` prints for a trace of it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <glib.h>

#include "trace/check.h"
#include "trace/header-page.h"
#include "trace/tracedat-format.h"
#include "trace/tracedat-write.h"

Suite *suite(void);

static char *slurp(const char *name, gsize *len)
{
	char *path = g_build_filename("tests", "data", "tracedat", name, NULL);
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, len, NULL),
		      "cannot read %s (run from the top directory)", path);
	g_free(path);
	return text;
}

START_TEST(long_size_64)
{
	gsize len;
	char *hp = slurp("header_page", &len);

	ck_assert_int_eq(sa_header_page_long_size(hp, len), 8);
	g_free(hp);
}
END_TEST

START_TEST(long_size_32)
{
	gsize len;
	char *hp = slurp("header_page-32", &len);

	ck_assert_int_eq(sa_header_page_long_size(hp, len), 4);
	/* not NUL-terminated: only len bytes are read */
	ck_assert_int_eq(sa_header_page_long_size(hp, len - 1), 4);
	g_free(hp);
}
END_TEST

START_TEST(not_a_layout)
{
	const char *odd =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:2;\tsigned:1;\n"
		"\tfield: char data;\toffset:10;\tsize:4086;\tsigned:0;\n";
	const char *no_commit =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
	const char *ts4 =
		"\tfield: u32 timestamp;\toffset:0;\tsize:4;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:4;\tsize:4;\tsigned:1;\n";

	ck_assert_int_eq(sa_header_page_long_size("", 0), -1);
	ck_assert_int_eq(sa_header_page_long_size(NULL, 10), -1);
	ck_assert_int_eq(sa_header_page_long_size("garbage;;", 9), -1);
	ck_assert_int_eq(sa_header_page_long_size(odd, strlen(odd)), -1);
	ck_assert_int_eq(sa_header_page_long_size(no_commit,
						  strlen(no_commit)), -1);
	ck_assert_int_eq(sa_header_page_long_size(ts4, strlen(ts4)), -1);
}
END_TEST

/* The long-size byte of a file written with that header_page. */
static int written_long_size(const char *hp_name, int *err)
{
	gsize hp_len = 0, he_len;
	char *hp = hp_name ? slurp(hp_name, &hp_len) : NULL;
	char *he = slurp("header_event", &he_len);
	char path[] = "/tmp/sa-test-header-page.XXXXXX";
	struct sa_tracedat *td = sa_tracedat_new(1, 4096);
	guint8 head[16];
	int fd = mkstemp(path), ret;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	sa_tracedat_set_headers(td, hp ? hp : "", hp_len, he, he_len);
	sa_tracedat_set_cpu_data(td, 0, NULL, 0);
	errno = 0;
	ret = sa_tracedat_write(td, fd, NULL);
	*err = errno;
	if (!ret) {
		ck_assert_int_eq(pread(fd, head, sizeof(head), 0), sizeof(head));
		/* magic (10), "6\0", the endian byte, then the long size */
		ck_assert(!memcmp(head + 10, "6", 2));
		ret = head[13];
	}
	close(fd);
	sa_tracedat_free(td);
	g_free(hp);
	g_free(he);
	return ret;
}

START_TEST(writer_long_size)
{
	int err;

	/* a 32-bit kernel's pages, written by this 64-bit program */
	ck_assert_int_eq(written_long_size("header_page-32", &err), 4);
	ck_assert_int_eq(written_long_size("header_page", &err), 8);
	/* a header_page that says nothing: no file with a guessed size */
	ck_assert_int_eq(written_long_size(NULL, &err), -1);
	ck_assert_int_eq(err, EINVAL);
}
END_TEST

/*
 * With a trace_clock option, libtracecmd reads an 8-byte size right
 * after the offset table. Whatever the header's length (an option of
 * every length from 0 to a page), that size must not be the first bytes
 * of CPU 0's page: the file must pass the check that libtracecmd's read
 * would fit. Before the writer left a gap, the one length that ended the
 * table on a page boundary made a file the check called damaged ("a
 * trace clock larger than the file"), seen in recordings whose snapshot
 * happened to have that length.
 */
START_TEST(clock_size_after_table)
{
	gsize hp_len, he_len;
	char *hp = slurp("header_page", &hp_len);
	char *he = slurp("header_event", &he_len);
	char *pad = g_malloc0(4096);
	guint8 *page = g_malloc(4096);
	int len, bad = 0, first_bad = -1;

	memset(page, 0xff, 4096);	/* a timestamp no size can be */
	memset(pad, 'x', 4095);
	for (len = 1; len <= 4096; len++) {
		char path[] = "/tmp/sa-test-clock.XXXXXX";
		struct sa_tracedat *td = sa_tracedat_new(1, 4096);
		GError *err = NULL;
		int fd = mkstemp(path);

		ck_assert_int_ge(fd, 0);
		sa_tracedat_set_headers(td, hp, hp_len, he, he_len);
		sa_tracedat_add_option_string(td, SA_OPT_TRACECLOCK,
					      "[local] global\n");
		sa_tracedat_add_option(td, SA_OPT_TRACECLOCK + 100, pad, len);
		sa_tracedat_set_cpu_data(td, 0, page, 4096);
		ck_assert_int_eq(sa_tracedat_write(td, fd, NULL), 0);
		close(fd);
		if (sa_tracedat_check_file(path, NULL, &err)) {
			if (first_bad < 0)
				first_bad = len;
			bad++;
			g_clear_error(&err);
		}
		unlink(path);
		sa_tracedat_free(td);
	}
	ck_assert_msg(!bad, "%d header lengths (the first: option of %d "
		      "bytes) give a file the check refuses", bad, first_bad);
	g_free(page);
	g_free(pad);
	g_free(hp);
	g_free(he);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("header-page");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, long_size_64);
	tcase_add_test(tc, long_size_32);
	tcase_add_test(tc, not_a_layout);
	tcase_add_test(tc, writer_long_size);
	tcase_add_test(tc, clock_size_after_table);
	suite_add_tcase(s, tc);
	return s;
}
