// SPDX-License-Identifier: GPL-2.0
/* slabacct oomkill: each OOM kill: trigger, victim, pages and loadavg. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-report.h"
#include "bpf-tool.h"
#include "cmd.h"
#include "oomkill.skel.h"
#include "snoop.h"

static void read_loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");

	if (!f || !fgets(buf, len, f))
		snprintf(buf, len, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static int handle(void *ctx, void *data, size_t size)
{
	const struct sa_bpf_opts *o = ctx;
	const struct oom_event *e = data;
	char tcomm[SA_COMM_LEN + 1], vcomm[SA_COMM_LEN + 1];
	char load[128], tbuf[16];
	JsonBuilder *b;

	read_loadavg(load, sizeof(load));
	snprintf(tcomm, sizeof(tcomm), "%s", e->trigger_comm);
	snprintf(vcomm, sizeof(vcomm), "%s", e->victim_comm);
	if (!o->json) {
		printf("%s Triggered by PID %u (\"%s\"), OOM kill of PID %u",
		       sa_time_str(tbuf, sizeof(tbuf)), e->trigger_pid, tcomm,
		       e->victim_pid);
		if (!e->from_tracepoint)
			printf(" (\"%s\"), %llu pages, badness %lld", vcomm,
			       (unsigned long long)e->totalpages,
			       (long long)e->points);
		printf(", loadavg: %s\n", load);
		fflush(stdout);
		return 0;
	}
	b = sa_json_report_begin(o->tool);
	json_builder_set_member_name(b, "trigger_pid");
	json_builder_add_int_value(b, e->trigger_pid);
	json_builder_set_member_name(b, "trigger_comm");
	json_builder_add_string_value(b, tcomm);
	json_builder_set_member_name(b, "victim_pid");
	json_builder_add_int_value(b, e->victim_pid);
	if (!e->from_tracepoint) {
		json_builder_set_member_name(b, "victim_comm");
		json_builder_add_string_value(b, vcomm);
		json_builder_set_member_name(b, "pages");
		json_builder_add_int_value(b, e->totalpages);
		json_builder_set_member_name(b, "badness");
		json_builder_add_int_value(b, e->points);
	}
	json_builder_set_member_name(b, "loadavg");
	json_builder_add_string_value(b, load);
	json_builder_end_object(b);
	sa_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	GPtrArray *links = sa_links_new();
	struct oomkill_bpf *skel = NULL;
	bool kprobe = sa_kprobes_available() &&
		      sa_kprobe_exists("oom_kill_process");
	int err;

	if (!kprobe && !sa_tracepoint_exists("oom", "mark_victim")) {
		sa_err(tool, "the kernel has neither oom_kill_process() to "
		       "probe nor the oom:mark_victim tracepoint");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = oomkill_bpf__open();
	if (!skel) {
		sa_bpf_err(tool, -errno, "opening the BPF object");
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	bpf_program__set_autoload(kprobe ? skel->progs.mark_victim :
				  skel->progs.oom_kill_process, false);
	err = oomkill_bpf__load(skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	if (sa_attach_all(skel->obj, tool, links)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	if (run->opts->verbose)
		fprintf(stderr, "tracing OOM kills through %s\n",
			kprobe ? "oom_kill_process()" : "oom:mark_victim");
	err = sa_event_loop(run, skel->obj, NULL, handle, (void *)run->opts);
cleanup:
	g_ptr_array_unref(links);
	oomkill_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_oomkill = {
	.name = "oomkill",
	.summary = "Each OOM kill: the task that triggered it, the victim, "
		   "the pages weighed, and the load average.",
	.description =
		"-p and -c do not filter: an OOM kill concerns the whole "
		"system.\n\n"
		"EXAMPLES:\n"
		"  slabacct oomkill                   until Ctrl-C\n"
		"  slabacct oomkill --json 60 1       for 60 s",
	.run = run,
};
