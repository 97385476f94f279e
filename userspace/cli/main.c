// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct: the command table and main. The helpers the commands share
 * are in cli/cmd.c; the BPF tools come from their registry (bpf/registry.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/bpf-tool.h"
#include "cli/cmd.h"
#include "report/report.h"
#include "report/sort.h"
#include "trace/events.h"

const struct sa_command sa_commands[] = {
	{ "budget", cmd_budget, "where the physical RAM went: owners summed to the total" },
	{ "boot", cmd_boot, "boot-time tracing: kernel parameters; saving the boot buffer" },
	{ "diff", cmd_diff, "compare two recordings or /proc/slab_account snapshots by call site" },
	{ "events", cmd_events, "list the trace events slabacct uses, and which this kernel has" },
	/* here: the BPF tools (bpf/registry.c) */
	{ SA_COMMAND_BPF_TOOLS, NULL, NULL },
	{ "merge", cmd_merge, "combine many runs into per-site totals and their spread" },
	{ "record", cmd_record, "record kernel memory events into a trace.dat file" },
	{ "account", cmd_account, "parse /proc/slab_account (slab_account.ko) and print it" },
	{ "report", cmd_report, "report allocations, slack, live objects from a trace.dat file" },
	{ "top", cmd_top, "live view of the call sites allocating the most (module or tracefs)" },
	{ "snapshot", cmd_snapshot, "classic memory statistics (free, slabtop, vmstat, PSI, OOM)" },
	{ "version", cmd_version, "print the version" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct sa_command *c;

	fprintf(f, "usage: slabacct COMMAND [OPTIONS...]\n\n"
		   "Kernel memory analysis: who allocates, how much is wasted, and\n"
		   "what the allocator and reclaim are doing.\n\ncommands:\n");
	for (c = sa_commands; c->name; c++) {
		const struct sa_bpf_tool *const *t;

		if (strcmp(c->name, SA_COMMAND_BPF_TOOLS)) {
			fprintf(f, "  %-10s %s\n", c->name, c->summary);
			continue;
		}
		for (t = sa_bpf_tools; *t; t++)
			fprintf(f, "  %-10s BPF: %s\n", (*t)->name, (*t)->line);
	}
	/* after the list, which programs (the man pages) read one a line */
	if (sa_bpf_absent)
		fprintf(f, "\nThe BPF tools are not in this build: %s.\n",
			sa_bpf_absent);
	fprintf(f, "\n'slabacct COMMAND --help' describes one command.\n");
}

/*
 * slabacct --names KIND: the names the command line takes, one a line,
 * from the tables that parse them; for the bash completion, which is
 * generated from them at build time (scripts/bash-completion). Not in
 * the usage: it is for programs.
 */
static int names(const char *kind)
{
	const struct sa_command *c;
	const struct sa_bpf_tool *const *t;
	const char *n;
	unsigned int i;

	if (!kind) {
		fprintf(stderr, "slabacct: --names commands, sections, "
			"sort-keys or event-groups\n");
		return SA_EXIT_USAGE;
	}
	if (!strcmp(kind, "commands")) {
		for (c = sa_commands; c->name; c++) {
			if (strcmp(c->name, SA_COMMAND_BPF_TOOLS)) {
				puts(c->name);
				continue;
			}
			for (t = sa_bpf_tools; *t; t++)
				puts((*t)->name);
		}
	} else if (!strcmp(kind, "sections")) {
		for (i = 0; i < SA_SEC_NR; i++)
			puts(sa_report_table[i].what);
		puts("all");
	} else if (!strcmp(kind, "sort-keys")) {
		for (i = 0; (n = sa_sort_key_name(i)); i++)
			puts(n);
	} else if (!strcmp(kind, "event-groups")) {
		for (i = 0; (n = sa_group_name(i)); i++)
			puts(n);
	} else {
		fprintf(stderr, "slabacct: --names: unknown kind '%s'\n", kind);
		return SA_EXIT_USAGE;
	}
	return fflush(stdout) ? SA_EXIT_FAIL : SA_EXIT_OK;
}

/*
 * What a command printed is still in stdout's buffer: a full disk or a
 * closed pipe shows only now, and fails a command that succeeded.
 */
static int flushed(const char *cmd, int ret)
{
	if (fflush(stdout) && ret == SA_EXIT_OK) {
		fprintf(stderr, "slabacct %s: writing standard output: %s\n",
			cmd, g_strerror(errno));
		return SA_EXIT_FAIL;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const struct sa_command *c;

	if (argc < 2) {
		usage(stderr);
		return SA_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return SA_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--names"))
		return names(argc > 2 ? argv[2] : NULL);
	for (c = sa_commands; c->name; c++)
		if (!strcmp(argv[1], c->name) && c->run)
			return flushed(argv[1], c->run(argc - 1, argv + 1));
	if (sa_bpf_tool_find(argv[1]))
		return flushed(argv[1], cmd_bpf(argc - 1, argv + 1));
	fprintf(stderr, "slabacct: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return SA_EXIT_USAGE;
}
