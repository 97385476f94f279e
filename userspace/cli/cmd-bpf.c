// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct <bpf-tool> [OPTIONS] [INTERVAL [COUNT]]: the BPF tools. This
 * parses the options they all share and runs the tool's front end
 * (userspace/bpf/<tool>.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/bpf-tool.h"
#include "cli/cmd.h"

static int parse_positive(const char *tool, const char *what,
			  const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 1000000) {
		sa_err(tool, "%s must be a number from 1 to 1000000, not '%s'",
		       what, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse(const struct sa_bpf_tool *t, int *argc, char ***argv,
		 struct sa_bpf_opts *o)
{
	gint pid = 0;
	gchar *cmd = NULL;
	gboolean json = FALSE, verbose = FALSE;
	const GOptionEntry common[] = {
		{ "pid", 'p', 0, G_OPTION_ARG_INT, &pid,
		  "trace only this process", "PID" },
		{ "command", 'c', 0, G_OPTION_ARG_STRING, &cmd,
		  "run CMD and trace it until it exits (ending earlier kills it)",
		  "CMD" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "JSON output, one document per line", NULL },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
		  "print libbpf's messages", NULL },
		{ NULL },
	};
	struct sa_opt_values *saved[2];
	GOptionContext *ctx;
	GError *error = NULL;
	gchar *prg = g_strdup_printf("slabacct %s", t->name);
	int bad, ret = -1;

	g_set_prgname(prg);
	g_free(prg);
	ctx = g_option_context_new(t->params ? t->params :
				   "[INTERVAL [COUNT]]");
	g_option_context_set_summary(ctx, t->summary);
	if (t->description)
		g_option_context_set_description(ctx, t->description);
	g_option_context_add_main_entries(ctx, common, NULL);
	if (t->entries)
		g_option_context_add_main_entries(ctx, t->entries, NULL);
	sa_options_help_init(ctx);
	saved[0] = sa_options_save(common);
	saved[1] = t->entries ? sa_options_save(t->entries) : NULL;
	if (!g_option_context_parse(ctx, argc, argv, &error))
		sa_err(t->name, "%s (see --help)", error->message);
	bad = error != NULL;
	g_clear_error(&error);
	bad |= sa_options_check(t->name, saved[0]) < 0;
	if (saved[1])
		bad |= sa_options_check(t->name, saved[1]) < 0;
	if (bad)
		goto out;
	sa_options_help_done(ctx);
	if (*argc > 1 && parse_positive(t->name, "INTERVAL", (*argv)[1],
					&o->interval))
		goto out;
	if (*argc > 2 && parse_positive(t->name, "COUNT", (*argv)[2],
					&o->count))
		goto out;
	if (*argc > 3) {
		sa_err(t->name, "unexpected argument '%s'", (*argv)[3]);
		goto out;
	}
	if (pid < 0 || (pid && cmd)) {
		sa_err(t->name, pid < 0 ? "-p needs a process id" :
		       "-p and -c exclude each other");
		goto out;
	}
	if (cmd && !g_shell_parse_argv(cmd, NULL, &o->cmd_argv, &error)) {
		sa_err(t->name, "-c '%s': %s", cmd, error->message);
		g_error_free(error);
		goto out;
	}
	o->tool = t->name;
	o->pid = pid;
	o->json = json;
	o->verbose = verbose;
	ret = 0;
out:
	g_free(cmd);
	g_option_context_free(ctx);
	return ret;
}

int cmd_bpf(int argc, char **argv)
{
	struct sa_bpf_opts o = { 0 };
	const struct sa_bpf_tool *t = sa_bpf_tool_find(argv[0]);
	struct sa_bpf_run run;
	int ret;

	if (!t) {
		sa_err(argv[0], "not a BPF tool");
		return SA_EXIT_USAGE;
	}
	if (parse(t, &argc, &argv, &o))
		return SA_EXIT_USAGE;
	if (sa_bpf_check_env(t->name)) {
		g_strfreev(o.cmd_argv);
		return SA_EXIT_USAGE;
	}
	sa_bpf_set_print(o.verbose);
	if (sa_bpf_run_init(&run, &o)) {
		g_strfreev(o.cmd_argv);
		return SA_EXIT_FAIL;
	}
	ret = t->run(&run);
	sa_bpf_run_cleanup(&run);
	g_strfreev(o.cmd_argv);
	return ret;
}
