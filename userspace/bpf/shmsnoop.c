// SPDX-License-Identifier: GPL-2.0
/* slabacct shmsnoop: shmget, shmat, shmdt and shmctl calls. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-report.h"
#include "bpf-tool.h"
#include "cmd.h"
#include "shmsnoop.skel.h"
#include "snoop.h"

static const char *const kinds[SHM_NR] = {
	[SHM_GET] = "shmget", [SHM_AT] = "shmat",
	[SHM_DT] = "shmdt", [SHM_CTL] = "shmctl",
};

/* the names of each call's first three arguments */
static const char *const argnames[SHM_NR][3] = {
	[SHM_GET] = { "key", "size", "shmflg" },
	[SHM_AT] = { "shmid", "shmaddr", "shmflg" },
	[SHM_DT] = { "shmaddr", NULL, NULL },
	[SHM_CTL] = { "shmid", "cmd", "buf" },
};

static int handle(void *ctx, void *data, size_t size)
{
	const struct sa_bpf_opts *o = ctx;
	const struct shm_event *e = data;
	char comm[SA_COMM_LEN + 1], tbuf[16];
	JsonBuilder *b;
	int i;

	if (e->kind >= SHM_NR)
		return 0;
	snprintf(comm, sizeof(comm), "%s", e->comm);
	if (!o->json) {
		printf("%-8s %-7u %-16s %-6s ", sa_time_str(tbuf, sizeof(tbuf)),
		       e->pid, comm, kinds[e->kind]);
		for (i = 0; i < 3 && argnames[e->kind][i]; i++)
			printf("%s=0x%llx ", argnames[e->kind][i],
			       (unsigned long long)e->args[i]);
		if (e->ret < 0 && e->ret > -4096)
			printf("= %s\n", strerror(-e->ret));
		else
			printf("= 0x%llx\n", (unsigned long long)e->ret);
		return 0;
	}
	b = sa_json_report_begin(o->tool);
	json_builder_set_member_name(b, "call");
	json_builder_add_string_value(b, kinds[e->kind]);
	json_builder_set_member_name(b, "pid");
	json_builder_add_int_value(b, e->pid);
	json_builder_set_member_name(b, "tid");
	json_builder_add_int_value(b, e->tid);
	json_builder_set_member_name(b, "comm");
	json_builder_add_string_value(b, comm);
	for (i = 0; i < 3 && argnames[e->kind][i]; i++) {
		json_builder_set_member_name(b, argnames[e->kind][i]);
		json_builder_add_int_value(b, e->args[i]);
	}
	json_builder_set_member_name(b, "ret");
	json_builder_add_int_value(b, e->ret);
	json_builder_end_object(b);
	sa_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	GPtrArray *links = sa_links_new();
	struct shmsnoop_bpf *skel = NULL;
	int err;

	if (!sa_tracepoint_exists("syscalls", "sys_enter_shmget")) {
		sa_err(tool, "the kernel has no syscalls:sys_enter_shmget "
		       "tracepoint (CONFIG_SYSVIPC, CONFIG_FTRACE_SYSCALLS; "
		       "is tracefs mounted?)");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = shmsnoop_bpf__open();
	if (!skel) {
		sa_bpf_err(tool, -errno, "opening the BPF object");
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	skel->rodata->targ_tgid = run->target;
	err = shmsnoop_bpf__load(skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	if (sa_attach_all(skel->obj, tool, links)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = sa_event_loop(run, skel->obj,
			    "TIME     PID     COMM             CALL   ARGS = RET",
			    handle, (void *)run->opts);
cleanup:
	g_ptr_array_unref(links);
	shmsnoop_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_shmsnoop = {
	.name = "shmsnoop",
	.summary = "System V shared memory calls: shmget, shmat, shmdt and "
		   "shmctl, with arguments and results.",
	.description =
		"EXAMPLES:\n"
		"  slabacct shmsnoop                  all processes, Ctrl-C ends\n"
		"  slabacct shmsnoop -c ./prog --json",
	.run = run,
};
