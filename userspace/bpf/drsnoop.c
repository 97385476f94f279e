// SPDX-License-Identifier: GPL-2.0
/* slabacct drsnoop: direct reclaims by process, with their latency. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include "bpf-report.h"
#include "bpf-tool.h"
#include "cmd.h"
#include "drsnoop.skel.h"
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
		       sa_time_str(tbuf, sizeof(tbuf)), comm, e->pid, e->tid,
		       e->lat_ns / 1e6, (unsigned long long)e->nr_reclaimed);
		return 0;
	}
	b = sa_json_report_begin(o->tool);
	json_builder_set_member_name(b, "pid");
	json_builder_add_int_value(b, e->pid);
	json_builder_set_member_name(b, "tid");
	json_builder_add_int_value(b, e->tid);
	json_builder_set_member_name(b, "comm");
	json_builder_add_string_value(b, comm);
	json_builder_set_member_name(b, "latency_ns");
	json_builder_add_int_value(b, e->lat_ns);
	json_builder_set_member_name(b, "pages_reclaimed");
	json_builder_add_int_value(b, e->nr_reclaimed);
	json_builder_end_object(b);
	sa_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	GPtrArray *links = sa_links_new();
	struct drsnoop_bpf *skel = NULL;
	int err;

	if (!sa_tracepoint_exists("vmscan", "mm_vmscan_direct_reclaim_end")) {
		sa_err(tool, "the kernel has no vmscan:mm_vmscan_direct_"
		       "reclaim_begin/end tracepoints (is tracefs mounted?)");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = drsnoop_bpf__open();
	if (!skel) {
		sa_bpf_err(tool, -errno, "opening the BPF object");
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	skel->rodata->targ_tgid = run->target;
	err = drsnoop_bpf__load(skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	if (sa_attach_all(skel->obj, tool, links)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = sa_event_loop(run, skel->obj,
			    "TIME     COMM             PID     TID     "
			    "    LAT(ms)    PAGES", handle, (void *)run->opts);
cleanup:
	g_ptr_array_unref(links);
	drsnoop_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_drsnoop = {
	.name = "drsnoop",
	.summary = "Each direct reclaim: the process that stalled in it, its "
		   "latency and the pages it reclaimed.",
	.description =
		"EXAMPLES:\n"
		"  slabacct drsnoop                   all processes, Ctrl-C ends\n"
		"  slabacct drsnoop -p 1234 --json",
	.run = run,
};
