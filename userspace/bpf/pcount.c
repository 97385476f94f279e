// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct swapin and hfaults: one kernel function's calls, counted by
 * process. Where the function has had several names, the first that the
 * running kernel has is probed.
 */
#include <errno.h>

#include <bpf/libbpf.h>

#include "bpf-report.h"
#include "bpf-tool.h"
#include "cmd.h"
#include "pcount.skel.h"

static int run_pcount(struct sa_bpf_run *run, const char *const *funcs,
		      const char *what, const char *missing)
{
	const char *tool = run->opts->tool;
	struct sa_count_report r = { .what = what };
	GPtrArray *links = sa_links_new();
	struct pcount_bpf *skel = NULL;
	struct bpf_link *l;
	const char *func;
	int err;

	func = sa_kprobe_first(funcs);
	if (!func || sa_require_kprobe(tool, func)) {
		if (!func)
			sa_err(tool, "%s", missing);
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = pcount_bpf__open();
	if (!skel) {
		sa_bpf_err(tool, -errno, "opening the BPF object");
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	skel->rodata->targ_tgid = run->target;
	err = pcount_bpf__load(skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	l = bpf_program__attach_kprobe(skel->progs.count_call, false, func);
	if (!l) {
		sa_bpf_err(tool, -errno, "attaching a kprobe to %s", func);
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	g_ptr_array_add(links, l);
	if (run->opts->verbose)
		fprintf(stderr, "probing %s\n", func);
	err = sa_count_loop(run, skel->obj, &r, false);
cleanup:
	g_ptr_array_unref(links);
	pcount_bpf__destroy(skel);
	return err;
}

static int run_swapin(struct sa_bpf_run *run)
{
	static const char *const funcs[] = {
		"swap_read_folio", "swap_readpage", NULL,
	};

	return run_pcount(run, funcs, "swap-ins",
			  "the kernel has neither swap_read_folio() nor "
			  "swap_readpage() (no CONFIG_SWAP?)");
}

static int run_hfaults(struct sa_bpf_run *run)
{
	static const char *const funcs[] = { "hugetlb_fault", NULL };

	return run_pcount(run, funcs, "huge-page faults",
			  "the kernel has no hugetlb_fault() "
			  "(no CONFIG_HUGETLBFS?)");
}

const struct sa_bpf_tool sa_tool_swapin = {
	.name = "swapin",
	.summary = "Swap-ins (pages read back from swap) by process.",
	.description =
		"EXAMPLES:\n"
		"  slabacct swapin 1 10               ten 1 s reports\n"
		"  slabacct swapin -p 1234",
	.run = run_swapin,
};

const struct sa_bpf_tool sa_tool_hfaults = {
	.name = "hfaults",
	.summary = "Huge-page (hugetlbfs) faults by process.",
	.description =
		"EXAMPLES:\n"
		"  slabacct hfaults 5                 5 s reports\n"
		"  slabacct hfaults -c ./prog",
	.run = run_hfaults,
};
