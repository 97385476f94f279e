// SPDX-License-Identifier: GPL-2.0
/* slabacct ffaults: page-cache page faults by process and file. */
#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "ffaults.skel.h"

static gint opt_top;

static const GOptionEntry entries[] = {
	{ "top", 'T', 0, G_OPTION_ARG_INT, &opt_top,
	  "show only the N largest counts", "N" },
	{ NULL },
};

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct sa_count_report r = { .what = "file page faults",
				     .name_title = "FILE", .top = opt_top };
	struct sa_bpf_drive d = { .counts = &r };
	struct ffaults_bpf *skel;
	int err;

	if (sa_require_kprobe(tool, "filemap_fault"))
		return SA_EXIT_USAGE;
	skel = ffaults_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	ffaults_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_ffaults = {
	.name = "ffaults",
	.line = "page-cache faults by file",
	.summary = "Page faults served through the page cache "
		   "(filemap_fault), by process and file.",
	.description =
		"Fault-around maps neighbouring cached pages without a fault, "
		"so a file\nread through mmap faults less often than it has "
		"pages.\n\n"
		"EXAMPLES:\n"
		"  slabacct ffaults 5 3               all processes, 5 s reports\n"
		"  slabacct ffaults -c 'cat /etc/services'",
	.entries = entries,
	.run = run,
};
