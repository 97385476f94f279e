// SPDX-License-Identifier: GPL-2.0
/* Unit tests: taking a line of a text input apart (util/textline.h). */
#include <check.h>
#include <string.h>

#include "util/textline.h"

Suite *suite(void);

START_TEST(tokens)
{
	static const char s[] = "  12/3 \tkmalloc  f+0x1/0x2 [m]";
	struct sa_line l = { .s = s, .len = sizeof(s) - 1, .no = 7 };
	const char *pos = l.s, *tok;
	size_t len;

	ck_assert(sa_line_token(&l, &pos, &tok, &len));
	ck_assert_int_eq(len, 4);
	ck_assert(!strncmp(tok, "12/3", len));
	ck_assert(sa_line_token(&l, &pos, &tok, &len));
	ck_assert(!strncmp(tok, "kmalloc", len));
	ck_assert(sa_line_token(&l, &pos, &tok, &len));
	ck_assert(sa_line_token(&l, &pos, &tok, &len));
	ck_assert(!strncmp(tok, "[m]", len) && len == 3);
	ck_assert(!sa_line_token(&l, &pos, &tok, &len));
	/* the line's length bounds it, not a NUL */
	l.len = 4;
	pos = l.s;
	ck_assert(sa_line_token(&l, &pos, &tok, &len));
	ck_assert_int_eq(len, 2);
}
END_TEST

START_TEST(numbers)
{
	guint64 u;
	gint64 v;

	ck_assert(sa_dec_u64("0", 1, &u) && u == 0);
	ck_assert(sa_dec_u64("18446744073709551615", 20, &u) &&
		  u == G_MAXUINT64);
	ck_assert(!sa_dec_u64("18446744073709551616", 20, &u));
	ck_assert(!sa_dec_u64("", 0, &u));
	ck_assert(!sa_dec_u64("1x", 2, &u));
	ck_assert(!sa_dec_u64("-1", 2, &u));
	ck_assert(!sa_dec_u64("+1", 2, &u));
	ck_assert(sa_dec_u64("123", 2, &u) && u == 12);
	ck_assert(sa_dec_s64("-9223372036854775808", 20, &v) &&
		  v == G_MININT64);
	ck_assert(sa_dec_s64("9223372036854775807", 19, &v) &&
		  v == G_MAXINT64);
	ck_assert(!sa_dec_s64("9223372036854775808", 19, &v));
	ck_assert(!sa_dec_s64("-9223372036854775809", 20, &v));
	ck_assert(!sa_dec_s64("-", 1, &v));
	ck_assert(!sa_dec_s64("--1", 3, &v));
	ck_assert(sa_dec_s64("-42", 3, &v) && v == -42);
}
END_TEST

START_TEST(errors)
{
	static const char s[] = "sites: x";
	struct sa_line l = { .s = s, .len = sizeof(s) - 1, .no = 3 };
	GError *err = NULL;

	sa_line_error(&err, G_FILE_ERROR, G_FILE_ERROR_INVAL, &l, s + 7,
		      "'%s' is not a number", "x");
	ck_assert_str_eq(err->message, "line 3, column 8: 'x' is not a number");
	g_error_free(err);
}
END_TEST

/* each line as "[LINE]"; a line "stop" stops the walk with an error */
static gboolean collect(void *data, const char *s, size_t len, GError **err)
{
	if (len == 4 && !memcmp(s, "stop", 4)) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "stopped");
		return FALSE;
	}
	g_string_append_c(data, '[');
	g_string_append_len(data, s, len);
	g_string_append_c(data, ']');
	return TRUE;
}

static char *lines_of(const char *text, size_t len, gboolean *ok)
{
	GString *out = g_string_new(NULL);
	GError *err = NULL;

	*ok = sa_text_lines(text, len, collect, out, &err);
	ck_assert(*ok == (err == NULL));
	g_clear_error(&err);
	return g_string_free(out, FALSE);
}

START_TEST(lines)
{
	static const struct {
		const char *text, *want;
		gboolean ok;
	} cases[] = {
		{ "", "", TRUE },
		{ "\n", "[]", TRUE },
		{ "a", "[a]", TRUE },
		{ "a\n", "[a]", TRUE },
		{ "a\n\nb", "[a][][b]", TRUE },
		{ "a\nb\n\n", "[a][b][]", TRUE },
		{ "a\nstop\nb\n", "[a]", FALSE },
	};
	gboolean ok;
	size_t i;
	char *got;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		got = lines_of(cases[i].text, strlen(cases[i].text), &ok);
		ck_assert_str_eq(got, cases[i].want);
		ck_assert_int_eq(ok, cases[i].ok);
		g_free(got);
	}
	/* the length bounds the text, not a NUL: "a\0b" is one line */
	got = lines_of("a\0b\nc", 3, &ok);
	ck_assert(ok && !memcmp(got, "[a\0b]", 6));
	g_free(got);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("textline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, tokens);
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, lines);
	suite_add_tcase(s, tc);
	return s;
}
