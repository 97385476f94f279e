// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct diff --folded A B: the stacks of two recordings folded, each
 * line weighed by its change from A to B (emit/folded-diff.h).
 */
#include <errno.h>
#include <string.h>

#include "cli/cmd.h"
#include "emit/folded-diff.h"
#include "report/report.h"

int sa_diff_folded(const char *a, const char *b, const char *key,
		   const char *output, const struct sa_outfile_opts *of)
{
	static const char *const keys[SA_FOLD_NR] = {
		[SA_FOLD_BYTES] = "bytes", [SA_FOLD_HITS] = "allocs",
		[SA_FOLD_LIVE] = "live", [SA_FOLD_SLACK] = "slack",
	};
	struct sa_report *rep[2] = { NULL, NULL };
	struct sa_output out = { 0 };
	enum sa_fold_key k = SA_FOLD_NR;
	int i, ret = SA_EXIT_USAGE;

	for (i = 0; i < SA_FOLD_NR; i++)
		if (!strcmp(key ? key : "bytes", keys[i]))
			k = i;
	if (k == SA_FOLD_NR) {
		sa_err("diff", "--folded weighs by bytes, allocs, live or "
		       "slack (--sort), not '%s'", key);
		return ret;
	}
	ret = SA_EXIT_FAIL;
	if (sa_diff_read_stacks(a, b, rep))
		goto out;
	if (sa_output_open("diff", output, of, &out))
		goto out;
	if (sa_folded_diff_write(out.f, rep[0], rep[1], k)) {
		sa_err("diff", "writing: %s", g_strerror(errno));
		sa_output_close("diff", &out, false);
		goto out;
	}
	if (!sa_output_close("diff", &out, true))
		ret = SA_EXIT_OK;
out:
	sa_report_free(rep[0]);
	sa_report_free(rep[1]);
	return ret;
}
