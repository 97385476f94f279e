// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the /proc/slab_account parser that slabacct diff
 * reads snapshots with, and the diff key of each row it accepts.
 */
#include "account/account.h"
#include "report/diff.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sa_account *a;
	GError *err = NULL;
	size_t i;

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
