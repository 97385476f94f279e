// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the /proc/allocinfo parser, on the formats 1.0 (6.10-6.17)
 * and 2.0 (KEY:VALUE pairs, accurate:no), on malformed and oversized
 * input, and the content sniffing that tells it from /proc/slab_account.
 */
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "procfs/allocinfo.h"

Suite *suite(void);

#define HEAD1	"allocinfo - version: 1.0\n#     <size>  <calls> <tag info>\n"
#define HEAD2	"allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n"

static const char v1[] = HEAD1
	"           0        0 arch/x86/kernel/kdebugfs.c:105 func:create_setup_data_nodes \n"
	"       89600      700 /build/kmod/sa_test.c:62 [sa_test] func:sa_test_kmalloc_loop \n"
	"        4096        1 mm/slub.c:2133 func:alloc_slab_obj_exts \n"
	"       -8192 18446744073709551614 mm/x.c:7 func:racing \n";

static struct sa_allocinfo *parse(const char *text, GError **err)
{
	return sa_allocinfo_parse(text, strlen(text), err);
}

START_TEST(format_1_0)
{
	GError *err = NULL;
	struct sa_allocinfo *ai = parse(v1, &err);
	const struct sa_allocinfo_row *r;

	ck_assert_msg(ai, "%s", err ? err->message : "?");
	ck_assert_uint_eq(ai->major, 1);
	ck_assert_uint_eq(ai->minor, 0);
	ck_assert_uint_eq(ai->n_rows, 4);
	ck_assert_uint_eq(ai->n_live, 2);
	ck_assert_uint_eq(ai->n_inaccurate, 0);
	r = &ai->rows[0];
	ck_assert_int_eq(r->bytes, 0);
	ck_assert_int_eq(r->calls, 0);
	ck_assert_str_eq(r->file, "arch/x86/kernel/kdebugfs.c");
	ck_assert_uint_eq(r->line, 105);
	ck_assert_ptr_null(r->module);
	ck_assert_str_eq(r->function, "create_setup_data_nodes");
	r = &ai->rows[1];
	ck_assert_int_eq(r->bytes, 89600);
	ck_assert_int_eq(r->calls, 700);
	ck_assert_str_eq(r->file, "/build/kmod/sa_test.c");
	ck_assert_uint_eq(r->line, 62);
	ck_assert_str_eq(r->module, "sa_test");
	ck_assert_str_eq(r->function, "sa_test_kmalloc_loop");
	ck_assert(!r->inaccurate);
	/* counters caught below zero: the calls printed unsigned */
	r = &ai->rows[3];
	ck_assert_int_eq(r->bytes, -8192);
	ck_assert_int_eq(r->calls, -2);
	ck_assert_int_eq(ai->bytes, 89600 + 4096 - 8192);
	ck_assert_int_eq(ai->calls, 700 + 1 - 2);
	sa_allocinfo_free(ai);
}
END_TEST

/* 2.0: KEY:VALUE pairs after the function; unknown keys are ignored */
START_TEST(format_2_0)
{
	static const char text[] = HEAD2
		"       49152       48 arch/x86/kernel/cpu/mce/core.c:2709 func:mce_device_create accurate:no \n"
		"       32768        1 arch/x86/kernel/cpu/mce/genpool.c:132 func:mce_gen_pool_create \n"
		"          64        1 lib/x.c:1 [m] func:f accurate:yes future:42 \n";
	GError *err = NULL;
	struct sa_allocinfo *ai = parse(text, &err);
	struct sa_allocinfo_head h;

	ck_assert_msg(ai, "%s", err ? err->message : "?");
	ck_assert_uint_eq(ai->major, 2);
	ck_assert_uint_eq(ai->n_rows, 3);
	ck_assert(ai->rows[0].inaccurate);
	ck_assert(!ai->rows[1].inaccurate);
	ck_assert(!ai->rows[2].inaccurate);
	ck_assert_str_eq(ai->rows[2].module, "m");
	sa_allocinfo_head_of(ai, &h);
	ck_assert_uint_eq(h.tags, 3);
	ck_assert_uint_eq(h.live_tags, 3);
	ck_assert_uint_eq(h.inaccurate, 1);
	sa_allocinfo_free(ai);
}
END_TEST

static const struct {
	const char *text;
	int code;
	const char *msg;	/* the start of the message */
} bad[] = {
	{ "allocinfo - version: 3.0\n# <size> <calls>\n",
	  SA_ALLOCINFO_ERROR_VERSION, "line 1, column 22: format version 3.0, "
	  "this slabacct reads versions 1.x to 2.x" },
	{ "allocinfo - version: 1\n", SA_ALLOCINFO_ERROR_VERSION,
	  "line 1, column 22: bad format version '1'" },
	{ "# slab_account 2\n", SA_ALLOCINFO_ERROR_VERSION,
	  "line 1, column 1: not a /proc/allocinfo file" },
	{ "", SA_ALLOCINFO_ERROR_VERSION, "line 0, column 1: empty input" },
	{ "allocinfo - version: 1.0\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 1, column 1: the file ends before the column heading" },
	{ "allocinfo - version: 1.0\n#  <size> <bytes>\n",
	  SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 2, column 11: expected column '<calls>'" },
	{ HEAD1 "  x 1 a.c:1 func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 3: expected the size" },
	{ HEAD1 "  1 -1 a.c:1 func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 5: expected the calls" },
	{ HEAD1 "  1 99999999999999999999 a.c:1 func:f\n",
	  SA_ALLOCINFO_ERROR_SYNTAX, "line 3, column 5: expected the calls" },
	{ HEAD1 "  1 1\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 6: missing FILE:LINE" },
	{ HEAD1 "  1 1 a.c func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 7: expected FILE:LINE, got 'a.c'" },
	{ HEAD1 "  1 1 a.c:x func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 7: expected FILE:LINE" },
	{ HEAD1 "  1 1 :3 func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 7: expected FILE:LINE" },
	{ HEAD1 "  1 1 a.c:3\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 12: missing func:FUNCTION" },
	{ HEAD1 "  1 1 a.c:3 f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 13: expected func:FUNCTION, got 'f'" },
	{ HEAD1 "  1 1 a.c:3 func:\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 13: expected func:FUNCTION" },
	{ HEAD1 "  1 1 a.c:3 [mod func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 13: expected [MODULE], got '[mod'" },
	{ HEAD1 "  1 1 a.c:3 [m]\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 16: missing func:FUNCTION" },
	{ HEAD1 "  1 1 a\001.c:3 func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 8: a control character in the file name" },
	{ HEAD1 "  1 1 a.c:3 func:f\177\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 19: a control character in the function name" },
	{ HEAD1 "  1 1 a.c:3 func:f accurate:no\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 20: unexpected 'accurate:no' after the function "
	  "(format 1.0 has no KEY:VALUE pairs)" },
	{ HEAD2 "  1 1 a.c:3 func:f accurate:maybe\n",
	  SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 29: accurate: expected 'no' or 'yes'" },
	{ HEAD2 "  1 1 a.c:3 func:f junk\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 20: expected KEY:VALUE, got 'junk'" },
	{ HEAD1 "  1 1 a.c:99999999999 func:f\n", SA_ALLOCINFO_ERROR_SYNTAX,
	  "line 3, column 7: expected FILE:LINE" },
};

START_TEST(malformed)
{
	GError *err = NULL;
	struct sa_allocinfo *ai = parse(bad[_i].text, &err);

	ck_assert_msg(!ai, "case %d parsed", _i);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(g_error_matches(err, SA_ALLOCINFO_ERROR, bad[_i].code),
		      "case %d: code %d: %s", _i, err->code, err->message);
	ck_assert_msg(g_str_has_prefix(err->message, bad[_i].msg),
		      "case %d: '%s'", _i, err->message);
	g_error_free(err);
}
END_TEST

/* Blank lines between rows are skipped; a last line without '\n' counts. */
START_TEST(blank_and_last_line)
{
	static const char text[] = HEAD1 "\n  8 1 a.c:1 func:f\n\n  8 1 b.c:2 func:g";
	GError *err = NULL;
	struct sa_allocinfo *ai = parse(text, &err);

	ck_assert_msg(ai, "%s", err ? err->message : "?");
	ck_assert_uint_eq(ai->n_rows, 2);
	ck_assert_str_eq(ai->rows[1].function, "g");
	sa_allocinfo_free(ai);
}
END_TEST

static char *temp_file(const char *text, size_t len)
{
	char *path = NULL;
	GError *err = NULL;
	int fd = g_file_open_tmp("test-allocinfo-XXXXXX", &path, &err);

	ck_assert_msg(fd >= 0, "%s", err ? err->message : "?");
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* A line longer than the format allows, in a string and in a file
 * (read in blocks: the line is refused before it is all read). */
START_TEST(bounds)
{
	GString *s = g_string_new(HEAD1 "  1 1 a.c:1 func:");
	GError *err = NULL;
	char *path;

	while (s->len < 4 * SA_ALLOCINFO_MAX_LINE)
		g_string_append_c(s, 'f');
	g_string_append_c(s, '\n');
	ck_assert_ptr_null(sa_allocinfo_parse(s->str, s->len, &err));
	ck_assert(g_error_matches(err, SA_ALLOCINFO_ERROR,
				  SA_ALLOCINFO_ERROR_BOUND));
	ck_assert_msg(g_str_has_prefix(err->message, "line 3, column 1: a "
				       "line longer than 8192 bytes"), "%s",
		      err->message);
	g_clear_error(&err);
	while (s->len < 200000)
		g_string_append_c(s, 'f');
	path = temp_file(s->str, s->len);
	ck_assert_ptr_null(sa_allocinfo_load(path, &err));
	ck_assert(g_error_matches(err, SA_ALLOCINFO_ERROR,
				  SA_ALLOCINFO_ERROR_BOUND));
	ck_assert_msg(g_str_has_prefix(err->message, path) &&
		      strstr(err->message, ": line 3, column 1: a line longer"),
		      "%s", err->message);
	g_clear_error(&err);
	unlink(path);
	g_free(path);
	g_string_free(s, TRUE);
}
END_TEST

START_TEST(load_and_sniff)
{
	static const char account[] = "# slab_account 2\nsort: total\n";
	GError *err = NULL;
	char *path = temp_file(v1, strlen(v1));
	char *other = temp_file(account, strlen(account));
	char *empty = temp_file("", 0);
	struct sa_allocinfo *ai = sa_allocinfo_load(path, &err);

	ck_assert_msg(ai, "%s", err ? err->message : "?");
	ck_assert_uint_eq(ai->n_rows, 4);
	sa_allocinfo_free(ai);
	/* the content alone tells (report/input-kind.c asks) */
	ck_assert(sa_allocinfo_sniff(v1, strlen(v1)));
	ck_assert(!sa_allocinfo_sniff(account, strlen(account)));
	ck_assert(!sa_allocinfo_sniff("", 0));
	ck_assert(!sa_allocinfo_sniff(v1, 5));
	/* not an allocinfo file: the error names the file and the line */
	ck_assert_ptr_null(sa_allocinfo_load(other, &err));
	ck_assert_msg(g_str_has_prefix(err->message, other) &&
		      strstr(err->message, ": line 1, column 1: not a "
			     "/proc/allocinfo file"), "%s", err->message);
	g_clear_error(&err);
	ck_assert_ptr_null(sa_allocinfo_load("/nonexistent/allocinfo", &err));
	ck_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	ck_assert_msg(g_str_has_prefix(err->message, "/nonexistent/allocinfo: "),
		      "%s", err->message);
	g_clear_error(&err);
	unlink(path);
	unlink(other);
	unlink(empty);
	g_free(path);
	g_free(other);
	g_free(empty);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("allocinfo");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, format_1_0);
	tcase_add_test(tc, format_2_0);
	tcase_add_loop_test(tc, malformed, 0, G_N_ELEMENTS(bad));
	tcase_add_test(tc, blank_and_last_line);
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, load_and_sniff);
	suite_add_tcase(s, tc);
	return s;
}
