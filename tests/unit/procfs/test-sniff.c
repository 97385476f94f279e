// SPDX-License-Identifier: GPL-2.0
/* Unit tests: which kernel text file, by its first bytes (procfs/sniff.h). */
#include <check.h>
#include <string.h>

#include "procfs/sniff.h"

Suite *suite(void);

#define SNIFF(s) sa_procfs_sniff(s, sizeof(s) - 1)

START_TEST(kinds)
{
	ck_assert_int_eq(SNIFF("# slab_account 3\nsort: total\n"),
			 SA_PROCFS_SLAB_ACCOUNT);
	/* the tag needs its space: a version follows */
	ck_assert_int_eq(SNIFF("# slab_account"), SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF("# slab_accounting 3\n"), SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF("allocinfo - version: 1.0\n"),
			 SA_PROCFS_ALLOCINFO);
	ck_assert_int_eq(SNIFF("allocinfo - version"), SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF("# event histogram\n#\n"), SA_PROCFS_HIST);
	ck_assert_int_eq(SNIFF("# event histo"), SA_PROCFS_NONE);
	/* by the first line only, never by what comes later */
	ck_assert_int_eq(SNIFF("\n# slab_account 3\n"), SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF(" allocinfo - version: 1.0\n"),
			 SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF("slabinfo - version: 2.1\n"), SA_PROCFS_NONE);
	ck_assert_int_eq(SNIFF("{\"schema_version\": 1}"), SA_PROCFS_NONE);
	ck_assert_int_eq(sa_procfs_sniff("", 0), SA_PROCFS_NONE);
	/* n bounds what is read: a tag past it is not seen */
	ck_assert_int_eq(sa_procfs_sniff("# slab_account 3\n", 10),
			 SA_PROCFS_NONE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("sniff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, kinds);
	suite_add_tcase(s, tc);
	return s;
}
