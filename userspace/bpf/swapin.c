// SPDX-License-Identifier: GPL-2.0
/* slabacct swapin: swap-ins (pages read back from swap) by process. */
#include "bpf-tool.h"
#include "pcount.h"

static int run_swapin(struct sa_bpf_run *run)
{
	static const char *const funcs[] = {
		"swap_read_folio", "swap_readpage", NULL,
	};

	return sa_pcount_run(run, funcs, "swap-ins",
			     "the kernel has neither swap_read_folio() nor "
			     "swap_readpage() (no CONFIG_SWAP?)");
}

const struct sa_bpf_tool sa_tool_swapin = {
	.name = "swapin",
	.line = "swap-ins by process",
	.summary = "Swap-ins (pages read back from swap) by process.",
	.description =
		"EXAMPLES:\n"
		"  slabacct swapin 1 10               ten 1 s reports\n"
		"  slabacct swapin -p 1234",
	.run = run_swapin,
};
