// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct: the command table and the helpers every command shares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "cmd.h"
#include "textfold.h"

const struct sa_command sa_commands[] = {
	{ "boot", cmd_boot, "boot-time tracing: kernel parameters; saving the boot buffer" },
	{ "diff", cmd_diff, "compare two recordings or /proc/slab_account snapshots by call site" },
	{ "events", cmd_events, "list the trace events slabacct uses, and which this kernel has" },
	{ "memleak", cmd_bpf, "BPF: outstanding allocations by stack (user, or --kernel)" },
	{ "brkstack", cmd_bpf, "BPF: brk() calls by user stack" },
	{ "drsnoop", cmd_bpf, "BPF: direct reclaims by process, with latency" },
	{ "faults", cmd_bpf, "BPF: page faults by user or kernel stack" },
	{ "ffaults", cmd_bpf, "BPF: page-cache faults by file" },
	{ "hfaults", cmd_bpf, "BPF: huge-page faults by process" },
	{ "mmapsnoop", cmd_bpf, "BPF: every mmap() call" },
	{ "oomkill", cmd_bpf, "BPF: OOM kills: victim, trigger, pages, loadavg" },
	{ "pmc", cmd_bpf, "BPF: sample hardware (or software) perf events" },
	{ "shmsnoop", cmd_bpf, "BPF: shmget, shmat, shmdt, shmctl calls" },
	{ "swapin", cmd_bpf, "BPF: swap-ins by process" },
	{ "vmscan", cmd_bpf, "BPF: reclaim time and kswapd activity per interval" },
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
	for (c = sa_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'slabacct COMMAND --help' describes one command.\n");
}

static void vmsg(const char *kind, const char *cmd, const char *fmt,
		 va_list ap)
{
	fprintf(stderr, "slabacct%s%s: %s", cmd ? " " : "", cmd ? cmd : "",
		kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void sa_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", cmd, fmt, ap);
	va_end(ap);
}

void sa_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", cmd, fmt, ap);
	va_end(ap);
}

/*
 * --help is ours, not GOption's, so that its text is folded to 80 columns
 * (GOption writes long option descriptions on one line).
 */
static gboolean help_wanted;

void sa_options_help_init(GOptionContext *ctx)
{
	static const GOptionEntry help[] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help_wanted,
		  "show this help", NULL },
		{ NULL },
	};

	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, help, NULL);
}

void sa_options_help_done(GOptionContext *ctx)
{
	char *h, *f;

	if (!help_wanted)
		return;
	h = g_option_context_get_help(ctx, TRUE, NULL);
	f = sa_text_fold(h, 80);
	fputs(f, stdout);
	g_free(f);
	g_free(h);
	exit(fflush(stdout) ? SA_EXIT_FAIL : SA_EXIT_OK);
}

int sa_parse_options(int *argc, char ***argv, const char *cmd,
		     const char *params, const char *summary,
		     const char *description, const GOptionEntry *entries)
{
	GOptionContext *ctx = g_option_context_new(params);
	GError *error = NULL;
	gchar *prg = g_strdup_printf("slabacct %s", cmd);
	int ret = 0;

	g_set_prgname(prg);
	g_option_context_set_summary(ctx, summary);
	if (description)
		g_option_context_set_description(ctx, description);
	g_option_context_add_main_entries(ctx, entries, NULL);
	sa_options_help_init(ctx);
	if (!g_option_context_parse(ctx, argc, argv, &error)) {
		sa_err(cmd, "%s (see --help)", error->message);
		g_error_free(error);
		ret = -1;
	} else {
		sa_options_help_done(ctx);
	}
	g_option_context_free(ctx);
	g_free(prg);
	return ret;
}

int sa_require_tracefs(const char *cmd)
{
	if (geteuid() != 0) {
		sa_err(cmd, "tracing needs root (run as root, or with sudo)");
		return -1;
	}
	if (!tracefs_tracing_dir()) {
		sa_err(cmd, "tracefs is not available: mount it with "
		       "'mount -t tracefs nodev /sys/kernel/tracing' "
		       "(kernel needs CONFIG_FTRACE)");
		return -1;
	}
	return 0;
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
	for (c = sa_commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->run(argc - 1, argv + 1);
	fprintf(stderr, "slabacct: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return SA_EXIT_USAGE;
}
