// SPDX-License-Identifier: GPL-2.0
/* slabacct oomkill: each OOM kill: trigger, victim, pages and loadavg. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "util/escape.h"
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
		       sa_time_str(tbuf, sizeof(tbuf)), e->trigger_pid,
		       sa_esc(tcomm),
		       e->victim_pid);
		if (!e->from_tracepoint)
			printf(" (\"%s\"), %llu pages, badness %lld",
			       sa_esc(vcomm),
			       (unsigned long long)e->totalpages,
			       (long long)e->points);
		printf(", loadavg: %s\n", load);
		fflush(stdout);
		return 0;
	}
	b = sa_json_report_begin(o->tool);
	sa_json_put_int(b, "trigger_pid", e->trigger_pid);
	sa_json_put_str(b, "trigger_comm", tcomm);
	sa_json_put_int(b, "victim_pid", e->victim_pid);
	if (!e->from_tracepoint) {
		sa_json_put_str(b, "victim_comm", vcomm);
		sa_json_put_uint(b, "pages", e->totalpages);
		sa_json_put_int(b, "badness", e->points);
	}
	sa_json_put_str(b, "loadavg", load);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct sa_bpf_drive d = { .handle = handle, .ctx = (void *)run->opts };
	bool kprobe = sa_kprobes_available() &&
		      sa_kprobe_exists("oom_kill_process");
	struct oomkill_bpf *skel;
	int err;

	if (!kprobe && sa_require_tracepoint(tool, "oom", "mark_victim",
					     "and no oom_kill_process() "
					     "to probe"))
		return SA_EXIT_USAGE;
	skel = oomkill_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	bpf_program__set_autoload(kprobe ? skel->progs.mark_victim :
				  skel->progs.oom_kill_process, false);
	if (run->opts->verbose)
		fprintf(stderr, "tracing OOM kills through %s\n",
			kprobe ? "oom_kill_process()" : "oom:mark_victim");
	err = sa_bpf_drive(run, skel->skeleton, &d);
	oomkill_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_oomkill = {
	.name = "oomkill",
	.line = "OOM kills: victim, trigger, pages, loadavg",
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
