// SPDX-License-Identifier: GPL-2.0
/*
 * The main of every Check unit-test binary: each test-<name>.c provides
 * suite(), this runs it and exits non-zero if anything failed.
 */
#include <stdlib.h>

#include <check.h>

Suite *suite(void);

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
