// SPDX-License-Identifier: GPL-2.0
/* slabacct brkstack: brk() calls by process and user stack. */
#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "brkstack.skel.h"
#include "util/msg.h"

static gint opt_top;
static gboolean opt_folded;

static const GOptionEntry entries[] = {
	{ "top", 'T', 0, G_OPTION_ARG_INT, &opt_top,
	  "show only the N most frequent stacks", "N" },
	{ "folded", 'f', 0, G_OPTION_ARG_NONE, &opt_folded,
	  "folded stacks (comm;outer;...;inner count) for flame graphs",
	  NULL },
	{ NULL },
};

static int run(struct sa_bpf_run *run)
{
	struct sa_count_report r = { .what = "brk calls", .top = opt_top,
				     .folded = opt_folded };
	struct sa_bpf_drive d = { .counts = &r, .stacks = true };
	struct brkstack_bpf *skel;
	int err;

	skel = brkstack_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(run->opts->tool);
	skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	brkstack_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_brkstack = {
	.name = "brkstack",
	.line = "brk() calls by user stack",
	.summary = "brk() calls counted by process and user stack.",
	.description =
		"EXAMPLES:\n"
		"  slabacct brkstack -c ./prog        count prog's brk calls\n"
		"  slabacct brkstack -p 1234 5 3      three 5 s reports\n"
		"  slabacct brkstack -f 10 1 > out.folded",
	.entries = entries,
	.run = run,
};
