// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report --html OUT A B: the diff of two recordings (or
 * /proc/slab_account snapshots) as an HTML page. It is `slabacct diff
 * --all --format html`: the same computed model as the diff's JSON, with
 * the unchanged sites too, so the treemap shows every site.
 */
#include "cmd.h"

int sa_report_html_diff(const char *out, const char *a, const char *b)
{
	char *argv[] = { "diff", "--all", "--format", "html", "--output",
			 (char *)out, (char *)a, (char *)b, NULL };

	return cmd_diff(G_N_ELEMENTS(argv) - 1, argv);
}
