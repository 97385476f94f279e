// SPDX-License-Identifier: GPL-2.0
/* Unit tests: event groups. */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "trace/events.h"

Suite *suite(void);

START_TEST(groups_parse_list)
{
	unsigned int mask = 0;
	char *bad = NULL;

	ck_assert_int_eq(sa_groups_parse("kmem, vmscan", &mask, &bad), 0);
	ck_assert_uint_eq(mask, SA_GROUP_KMEM | SA_GROUP_VMSCAN);
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(sa_groups_parse("all", &mask, &bad), 0);
	ck_assert_uint_eq(mask, SA_GROUP_ALL);
	ck_assert_int_eq(sa_groups_parse("vmalloc,percpu", &mask, &bad), 0);
	ck_assert_uint_eq(mask, SA_GROUP_VMALLOC | SA_GROUP_PERCPU);
	ck_assert_uint_eq(mask & SA_GROUP_ALL, mask);
}
END_TEST

START_TEST(groups_parse_unknown)
{
	unsigned int mask = 0;
	char *bad = NULL;

	ck_assert_int_eq(sa_groups_parse("kmem,slub", &mask, &bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(bad, "slub");
	g_free(bad);
	ck_assert_int_eq(sa_groups_parse("", &mask, &bad), -1);
	g_free(bad);
}
END_TEST

START_TEST(groups_format_roundtrip)
{
	char *s = sa_groups_format(SA_GROUP_PAGE | SA_GROUP_OOM);

	ck_assert_str_eq(s, "page,oom");
	g_free(s);
	s = sa_groups_format(SA_GROUP_KMEM | SA_GROUP_VMALLOC |
			     SA_GROUP_PERCPU);
	ck_assert_str_eq(s, "kmem,vmalloc,percpu");
	g_free(s);
	s = sa_groups_format(SA_GROUP_ALL);
	ck_assert_str_eq(s, "all");
	g_free(s);
}
END_TEST

START_TEST(table_has_every_group)
{
	const struct sa_event_desc *e;
	unsigned int seen = 0;

	for (e = sa_event_table(); e->name; e++)
		seen |= e->group;
	ck_assert_uint_eq(seen, SA_GROUP_ALL);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("groups");

	tcase_add_test(tc, groups_parse_list);
	tcase_add_test(tc, groups_parse_unknown);
	tcase_add_test(tc, groups_format_roundtrip);
	tcase_add_test(tc, table_has_every_group);
	suite_add_tcase(s, tc);
	return s;
}
