// SPDX-License-Identifier: GPL-2.0
/* Unit tests: shared emitter helpers (scaling, CSV quoting, formats). */
#include <stdio.h>
#include <stdlib.h>

#include <check.h>

#include "emit/emit.h"

Suite *suite(void);

START_TEST(human)
{
	char b[16];

	ck_assert_str_eq(sa_human(b, 0), "0");
	ck_assert_str_eq(sa_human(b, 99999), "99999");
	ck_assert_str_eq(sa_human(b, 100000), "97.7K");
	ck_assert_str_eq(sa_human(b, 1048576), "1.00M");
	ck_assert_str_eq(sa_human(b, 3ULL << 30), "3.00G");
}
END_TEST

START_TEST(csv_quoting)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sa_csv_str(f, "plain+0x1 [mod]");
	fputc('|', f);
	sa_csv_str(f, "a,b");
	fputc('|', f);
	sa_csv_str(f, "say \"hi\"");
	fclose(f);
	ck_assert_str_eq(buf, "plain+0x1 [mod]|\"a,b\"|\"say \"\"hi\"\"\"");
	free(buf);
}
END_TEST

START_TEST(formats)
{
	enum sa_format f;

	ck_assert_int_eq(sa_format_parse("json", &f), 0);
	ck_assert_int_eq(f, SA_FMT_JSON);
	ck_assert_int_eq(sa_format_parse("account", &f), 0);
	ck_assert_int_eq(f, SA_FMT_ACCOUNT);
	ck_assert_int_eq(sa_format_parse("xml", &f), -1);
	ck_assert_str_eq(sa_kind_name(0), "kmalloc");
	ck_assert_str_eq(sa_kind_name(1), "cache");
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, human);
	tcase_add_test(tc, csv_quoting);
	tcase_add_test(tc, formats);
	suite_add_tcase(s, tc);
	return s;
}
