// SPDX-License-Identifier: GPL-2.0
/* Unit tests: escaping the input's strings for text and CSV (util/escape.h). */
#include <check.h>

#include "util/escape.h"

Suite *suite(void);

START_TEST(clean_strings_unchanged)
{
	static const char s[] = "kmalloc_trace+0x2a [ext4] comm-1";

	ck_assert_ptr_eq(sa_esc(s), s);
	ck_assert_ptr_null(sa_esc(NULL));
	/* valid UTF-8 beyond ASCII prints as it is */
	ck_assert_str_eq(sa_esc("caf\xc3\xa9 \xe2\x82\xac"),
			 "caf\xc3\xa9 \xe2\x82\xac");
}
END_TEST

START_TEST(controls_escaped)
{
	ck_assert_str_eq(sa_esc("\x1b" "c"), "\\x1bc");
	ck_assert_str_eq(sa_esc("a\nb\rc\td\x7f"), "a\\x0ab\\x0dc\\x09d\\x7f");
	ck_assert_str_eq(sa_esc("\x1b[2J\x07"), "\\x1b[2J\\x07");
	/* a backslash is doubled, so an escape cannot be forged */
	ck_assert_str_eq(sa_esc("a\\x1b"), "a\\\\x1b");
	/* C1 controls (U+009B is CSI) and bytes that are not UTF-8 */
	ck_assert_str_eq(sa_esc("\xc2\x9b" "31m"), "\\xc2\\x9b31m");
	ck_assert_str_eq(sa_esc("\x9b" "31m"), "\\x9b31m");
	ck_assert_str_eq(sa_esc("\xff\xfe"), "\\xff\\xfe");
	ck_assert_str_eq(sa_esc("end\xc3"), "end\\xc3");
	/* U+00A0, the first code point after C1, is printable */
	ck_assert_str_eq(sa_esc("\xc2\xa0"), "\xc2\xa0");
}
END_TEST

START_TEST(interned)
{
	const char *a = sa_esc("x\x1by"), *b = sa_esc("x\x1by");
	char *c = sa_esc_len("ab\0cd", 5);

	ck_assert_ptr_eq(a, b);
	ck_assert_str_eq(c, "ab\\x00cd");
	g_free(c);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clean_strings_unchanged);
	tcase_add_test(tc, controls_escaped);
	tcase_add_test(tc, interned);
	suite_add_tcase(s, tc);
	return s;
}
