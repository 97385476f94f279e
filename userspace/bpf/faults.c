// SPDX-License-Identifier: GPL-2.0
/* slabacct faults: page faults by process and user or kernel stack. */
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "faults.skel.h"

static gint opt_top;
static gboolean opt_folded;
static gchar *opt_stack;

static const GOptionEntry entries[] = {
	{ "stack", 's', 0, G_OPTION_ARG_STRING, &opt_stack,
	  "the stacks to key on: user (default), kernel or both", "WHICH" },
	{ "top", 'T', 0, G_OPTION_ARG_INT, &opt_top,
	  "show only the N most frequent stacks", "N" },
	{ "folded", 'f', 0, G_OPTION_ARG_NONE, &opt_folded,
	  "folded stacks (comm;outer;...;inner count) for flame graphs",
	  NULL },
	{ NULL },
};

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	const char *which = opt_stack ? opt_stack : "user";
	struct sa_count_report r = { .what = "page faults", .top = opt_top,
				     .folded = opt_folded };
	struct sa_bpf_drive d = { .counts = &r, .stacks = true };
	struct faults_bpf *skel;
	int err;

	if (strcmp(which, "user") && strcmp(which, "kernel") &&
	    strcmp(which, "both")) {
		sa_err(tool, "--stack must be user, kernel or both");
		return SA_EXIT_USAGE;
	}
	if (sa_require_tracepoint(tool, "exceptions", "page_fault_user",
				  "x86 only"))
		return SA_EXIT_USAGE;
	skel = faults_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	skel->rodata->targ_tgid = run->target;
	skel->rodata->user_stacks = strcmp(which, "kernel") != 0;
	skel->rodata->kernel_stacks = strcmp(which, "user") != 0;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	faults_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_faults = {
	.name = "faults",
	.line = "page faults by user or kernel stack",
	.summary = "Page faults counted by process and user or kernel stack.",
	.description =
		"EXAMPLES:\n"
		"  slabacct faults -c ./prog          prog's faults by user stack\n"
		"  slabacct faults -s kernel 5 1      all faults, kernel stacks\n"
		"  slabacct faults -s both -f -p 1234 10 1 > faults.folded",
	.entries = entries,
	.run = run,
};
