// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report --html OUT A B: the diff of two recordings (or
 * /proc/slab_account snapshots) as an HTML page. It is `slabacct diff
 * --all --format html`: the same computed model as the diff's JSON, with
 * the unchanged sites too, so the treemap shows every site. Messages are
 * the diff's.
 */
#include "cli/cmd.h"
#include "emit/emit.h"
#include "util/outfile.h"
#include "report/diff.h"

int sa_report_html_diff(const char *out, const char *a, const char *b,
			const struct sa_output_opts *o)
{
	struct sa_diff_opts d = { .by = SA_DIFF_BY_SITE, .all = true };
	struct sa_emit e = { .fmt = SA_FMT_HTML, .width = 80 };
	struct sa_outfile_opts of;

	if (sa_output_opts_get("diff", o, &of))
		return SA_EXIT_USAGE;
	return sa_diff_write("diff", a, b, &d, &e, out, &of);
}
