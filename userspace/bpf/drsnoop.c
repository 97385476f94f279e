// SPDX-License-Identifier: GPL-2.0
/* slabacct drsnoop: direct reclaims by process, with their latency. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "drsnoop.skel.h"
#include "util/escape.h"
#include "snoop.h"

static int handle(void *ctx, void *data, size_t size)
{
	const struct sa_bpf_opts *o = ctx;
	const struct dr_event *e = data;
	char comm[SA_COMM_LEN + 1], tbuf[16];
	JsonBuilder *b;

	snprintf(comm, sizeof(comm), "%s", e->comm);
	if (!o->json) {
		printf("%-8s %-16s %-7u %-7u %10.3f %8llu\n",
		       sa_time_str(tbuf, sizeof(tbuf)), sa_esc(comm), e->pid,
		       e->tid,
		       e->lat_ns / 1e6, (unsigned long long)e->nr_reclaimed);
		return 0;
	}
	b = sa_json_event_begin(o->tool, e->pid, e->tid, comm);
	sa_json_put_uint(b, "latency_ns", e->lat_ns);
	sa_json_put_uint(b, "pages_reclaimed", e->nr_reclaimed);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct sa_bpf_drive d = {
		.header = "TIME     COMM             PID     TID     "
			  "    LAT(ms)    PAGES",
		.handle = handle, .ctx = (void *)run->opts,
	};
	struct drsnoop_bpf *skel;
	int err;

	if (sa_require_tracepoint(tool, "vmscan",
				  "mm_vmscan_direct_reclaim_end",
				  "CONFIG_TRACEPOINTS"))
		return SA_EXIT_USAGE;
	skel = drsnoop_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	drsnoop_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_drsnoop = {
	.name = "drsnoop",
	.line = "direct reclaims by process, with latency",
	.summary = "Each direct reclaim: the process that stalled in it, its "
		   "latency and the pages it reclaimed.",
	.description =
		"EXAMPLES:\n"
		"  slabacct drsnoop                   all processes, Ctrl-C ends\n"
		"  slabacct drsnoop -p 1234 --json",
	.run = run,
};
