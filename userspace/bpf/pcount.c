// SPDX-License-Identifier: GPL-2.0
/*
 * One kernel function's calls, counted by process: the engine of the
 * swapin and hfaults tools (swapin.c, hfaults.c). Where the function has
 * had several names, the first that the running kernel has is probed.
 */
#include <errno.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "pcount.h"
#include "util/msg.h"
#include "pcount.skel.h"

struct kprobe_at {
	struct pcount_bpf *skel;
	const char *tool, *func;
};

static int attach_kprobe(struct bpf_object *obj, void *arg, GPtrArray *links)
{
	struct kprobe_at *k = arg;
	struct bpf_link *l;

	l = bpf_program__attach_kprobe(k->skel->progs.count_call, false,
				       k->func);
	if (!l) {
		sa_bpf_err(k->tool, -errno, "attaching a kprobe to %s",
			   k->func);
		return -1;
	}
	g_ptr_array_add(links, l);
	return 0;
}

int sa_pcount_run(struct sa_bpf_run *run, const char *const *funcs,
		  const char *what, const char *missing)
{
	const char *tool = run->opts->tool;
	struct sa_count_report r = { .what = what };
	struct kprobe_at k = { .tool = tool };
	struct sa_bpf_drive d = { .counts = &r, .attach = attach_kprobe,
				  .attach_arg = &k };
	int err;

	k.func = sa_kprobe_first(funcs);
	if (!k.func) {
		sa_err(tool, "%s", missing);
		return SA_EXIT_USAGE;
	}
	if (sa_require_kprobe(tool, k.func))
		return SA_EXIT_USAGE;
	if (run->opts->verbose)
		fprintf(stderr, "probing %s\n", k.func);
	k.skel = pcount_bpf__open();
	if (!k.skel)
		return sa_bpf_open_failed(tool);
	k.skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, k.skel->skeleton, &d);
	pcount_bpf__destroy(k.skel);
	return err;
}
