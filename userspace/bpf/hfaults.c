// SPDX-License-Identifier: GPL-2.0
/* slabacct hfaults: huge-page (hugetlbfs) faults by process. */
#include "bpf-tool.h"
#include "pcount.h"

static int run_hfaults(struct sa_bpf_run *run)
{
	static const char *const funcs[] = { "hugetlb_fault", NULL };

	return sa_pcount_run(run, funcs, "huge-page faults",
			     "the kernel has no hugetlb_fault() "
			     "(no CONFIG_HUGETLBFS?)");
}

const struct sa_bpf_tool sa_tool_hfaults = {
	.name = "hfaults",
	.line = "huge-page faults by process",
	.summary = "Huge-page (hugetlbfs) faults by process.",
	.description =
		"EXAMPLES:\n"
		"  slabacct hfaults 5                 5 s reports\n"
		"  slabacct hfaults -c ./prog",
	.run = run_hfaults,
};
