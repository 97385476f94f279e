// SPDX-License-Identifier: GPL-2.0
/* slabacct mmapsnoop: every mmap() with its arguments and result. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "util/escape.h"
#include "mmapsnoop.skel.h"
#include "snoop.h"

static void prot_str(__u64 prot, char *buf)
{
	buf[0] = prot & PROT_READ ? 'r' : '-';
	buf[1] = prot & PROT_WRITE ? 'w' : '-';
	buf[2] = prot & PROT_EXEC ? 'x' : '-';
	buf[3] = '\0';
}

static void flags_str(__u64 flags, char *buf, size_t len)
{
	static const struct {
		__u64 bit;
		const char *name;
	} names[] = {
		{ MAP_SHARED, "SHARED" }, { MAP_PRIVATE, "PRIVATE" },
		{ MAP_FIXED, "FIXED" }, { MAP_ANONYMOUS, "ANON" },
		{ MAP_NORESERVE, "NORESERVE" }, { MAP_POPULATE, "POPULATE" },
		{ MAP_STACK, "STACK" }, { MAP_HUGETLB, "HUGETLB" },
		{ MAP_DENYWRITE, "DENYWRITE" },
		{ MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < G_N_ELEMENTS(names); i++)
		if (flags & names[i].bit)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "|" : "", names[i].name);
	if (!n)
		snprintf(buf, len, "0");
}

static int handle(void *ctx, void *data, size_t size)
{
	const struct sa_bpf_opts *o = ctx;
	const struct mmap_event *e = data;
	char comm[SA_COMM_LEN + 1], prot[4], flags[96], tbuf[16];
	JsonBuilder *b;

	snprintf(comm, sizeof(comm), "%s", e->comm);
	prot_str(e->prot, prot);
	flags_str(e->flags, flags, sizeof(flags));
	if (!o->json) {
		printf("%-8s %-7u %-16s %-16llx %-10llu %-4s %-22s %-4d ",
		       sa_time_str(tbuf, sizeof(tbuf)), e->pid, sa_esc(comm),
		       (unsigned long long)e->addr,
		       (unsigned long long)e->len, prot, flags, (int)e->fd);
		if (e->ret < 0 && e->ret > -4096)
			printf("%s\n", strerror(-e->ret));
		else
			printf("%llx\n", (unsigned long long)e->ret);
		return 0;
	}
	b = sa_json_event_begin(o->tool, e->pid, e->tid, comm);
	sa_json_put_uint(b, "addr", e->addr);
	sa_json_put_uint(b, "len", e->len);
	sa_json_put_str(b, "prot", prot);
	sa_json_put_str(b, "flags", flags);
	sa_json_put_int(b, "fd", (int)e->fd);
	sa_json_put_uint(b, "offset", e->off);
	sa_json_put_int(b, "ret", e->ret);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct sa_bpf_drive d = {
		.header = "TIME     PID     COMM             ADDR             "
			  "LEN        PROT FLAGS                  FD   RET",
		.handle = handle, .ctx = (void *)run->opts,
	};
	struct mmapsnoop_bpf *skel;
	int err;

	if (sa_require_tracepoint(tool, "syscalls", "sys_enter_mmap",
				  "CONFIG_FTRACE_SYSCALLS"))
		return SA_EXIT_USAGE;
	skel = mmapsnoop_bpf__open();
	if (!skel)
		return sa_bpf_open_failed(tool);
	skel->rodata->targ_tgid = run->target;
	err = sa_bpf_drive(run, skel->skeleton, &d);
	mmapsnoop_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_mmapsnoop = {
	.name = "mmapsnoop",
	.line = "every mmap() call",
	.summary = "Every mmap() call, with its arguments and result.",
	.description =
		"EXAMPLES:\n"
		"  slabacct mmapsnoop                 all processes, Ctrl-C ends\n"
		"  slabacct mmapsnoop -c ./prog --json\n"
		"  slabacct mmapsnoop -p 1234 10 1    for 10 s",
	.run = run,
};
