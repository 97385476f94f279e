// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report --html OUT A B: the diff of two recordings (or
 * /proc/slab_account snapshots) as an HTML page. It is `slabacct diff
 * --all --format html`: the same computed model as the diff's JSON, with
 * the unchanged sites too, so the treemap shows every site.
 */
#include "cmd.h"

int sa_report_html_diff(const char *out, const char *a, const char *b,
			const struct sa_output_opts *o)
{
	char *argv[12] = { "diff", "--all", "--format", "html", "--output",
			   (char *)out };
	int n = 6;

	if (o->mode) {
		argv[n++] = "--mode";
		argv[n++] = o->mode;
	}
	if (o->follow)
		argv[n++] = "--follow-symlinks";
	argv[n++] = (char *)a;
	argv[n++] = (char *)b;
	argv[n] = NULL;
	return cmd_diff(n, argv);
}
