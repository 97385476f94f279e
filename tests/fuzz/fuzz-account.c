// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the /proc/slab_account parser that slabacct diff
 * reads snapshots with, and the diff key of each row it accepts; and the
 * /proc/allocinfo parser, on the same input.
 */
#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "report/diff.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sa_allocinfo *ai;
	struct sa_account *a;
	GError *err = NULL;
	size_t i;

	ai = sa_allocinfo_parse((const char *)data, size, &err);
	g_clear_error(&err);
	sa_allocinfo_free(ai);
	a = sa_account_parse((const char *)data, size, &err);
	if (!a) {
		g_clear_error(&err);
		return 0;
	}
	for (i = 0; i < a->n_rows; i++) {
		g_free(sa_diff_key(a->rows[i].caller, SA_DIFF_BY_SITE));
		g_free(sa_diff_key(a->rows[i].caller, SA_DIFF_BY_FUNCTION));
	}
	sa_account_free(a);
	return 0;
}
