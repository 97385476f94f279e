// SPDX-License-Identifier: GPL-2.0
/* slabacct shmsnoop: shmget, shmat, shmdt and shmctl calls. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
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
	b = sa_json_event_begin(o->tool, e->pid, e->tid, comm);
	sa_json_put_str(b, "call", kinds[e->kind]);
	for (i = 0; i < 3 && argnames[e->kind][i]; i++) {
		sa_json_put_uint(b, argnames[e->kind][i], e->args[i]);
	}
	sa_json_put_int(b, "ret", e->ret);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct sa_bpf_drive d = {
		.header = "TIME     PID     COMM             CALL   ARGS = RET",
		.handle = handle, .ctx = (void *)run->opts,
	};
	struct shmsnoop_bpf *skel;
	int err;

	if (sa_require_tracepoint(tool, "syscalls", "sys_enter_shmget",
				  "CONFIG_SYSVIPC, CONFIG_FTRACE_SYSCALLS"))
		return SA_EXIT_USAGE;
	skel = shmsnoop_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	shmsnoop_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_shmsnoop = {
	.name = "shmsnoop",
	.line = "shmget, shmat, shmdt, shmctl calls",
	.summary = "System V shared memory calls: shmget, shmat, shmdt and "
		   "shmctl, with arguments and results.",
	.description =
		"EXAMPLES:\n"
		"  slabacct shmsnoop                  all processes, Ctrl-C ends\n"
		"  slabacct shmsnoop -c ./prog --json",
	.run = run,
};
