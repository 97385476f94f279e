// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: text folded to a width (util/textfold.c): lines that fit are
 * left alone, longer ones break at the last space that fits and continue
 * indented ("#   " under a comment, an option's description under its
 * own column), a word longer than the room is broken, not cut, and
 * widths count characters, not bytes.
 */
#include <check.h>
#include <string.h>

#include "util/textfold.h"

Suite *suite(void);

static void fold_is(const char *in, int width, const char *want)
{
	char *got = sa_text_fold(in, width);

	ck_assert_msg(!strcmp(got, want), "folded to %d:\n%s\nwanted:\n%s",
		      width, got, want);
	g_free(got);
}

START_TEST(fits)
{
	fold_is("short\n\n  two\n", 10, "short\n\n  two\n");
	fold_is("no newline at the end", 0, "no newline at the end");
	fold_is("0123456789", 10, "0123456789");
}
END_TEST

START_TEST(words)
{
	fold_is("alpha beta gamma delta\n", 13, "alpha beta\n  gamma delta\n");
	fold_is("  alpha beta gamma\n", 12, "  alpha beta\n    gamma\n");
	fold_is("# note: one two three four\n", 16,
		"# note: one two\n#   three four\n");
	fold_is("  -t, --top=N    show the first N call sites\n", 30,
		"  -t, --top=N    show the\n"
		"                 first N call\n"
		"                 sites\n");
}
END_TEST

START_TEST(long_words)
{
	/* nothing is lost: a word wider than a whole line is broken */
	fold_is("/a/very/long/path/name\n", 10,
		"/a/very/lo\n  ng/path/\n  name\n");
	/* the indent is no place to break */
	fold_is("    abcdefghijklmnopqrst\n", 14,
		"    abcdefghij\n      klmnopqr\n      st\n");
	/* a word that fits a line goes whole onto the next one */
	fold_is("  976K 99 3 a_function_name+0x10 x y\n", 24,
		"  976K 99 3\n    a_function_name+0x10\n    x y\n");
}
END_TEST

START_TEST(utf8)
{
	/* 12 characters, 24 bytes: fits in 12 columns */
	fold_is("ΣΣΣΣΣΣ ΣΣΣΣΣ\n", 12, "ΣΣΣΣΣΣ ΣΣΣΣΣ\n");
	fold_is("ΣΣΣΣΣΣ ΣΣΣΣΣ\n", 10, "ΣΣΣΣΣΣ\n  ΣΣΣΣΣ\n");
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("textfold");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, fits);
	tcase_add_test(tc, words);
	tcase_add_test(tc, long_words);
	tcase_add_test(tc, utf8);
	suite_add_tcase(s, tc);
	return s;
}
