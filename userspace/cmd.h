/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command layer: one cmd-<name>.c per subcommand. Only this layer
 * prints to the user and chooses exit codes.
 *
 * Exit codes: 0 success, 1 failure while working (bad input file, I/O),
 * 2 usage error or a missing requirement (root, tracefs, BPF).
 */
#ifndef SLABACCT_CMD_H
#define SLABACCT_CMD_H

#include <stdio.h>

#include <glib.h>

#define SA_EXIT_OK	0
#define SA_EXIT_FAIL	1
#define SA_EXIT_USAGE	2

struct sa_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* The table in slabacct.c, terminated by a NULL name. */
extern const struct sa_command sa_commands[];

int cmd_version(int argc, char **argv);
int cmd_account(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* report --html OUT A B: the diff of A and B as HTML (cmd-report-html.c) */
int sa_report_html_diff(const char *out, const char *a, const char *b);
/* Open --output PATH (stdout for NULL or "-"); prints the error. */
int sa_output_open(const char *cmd, const char *path, FILE **out);
/* Until exit, a crash (SIGSEGV, SIGBUS) reports FILE as corrupt, exit 1. */
void sa_crash_guard(const char *cmd, const char *file);
int cmd_record(int argc, char **argv);
int cmd_boot(int argc, char **argv);
/* The BPF tools (memleak, pmc, oomkill, ...): userspace/cmd-bpf.c */
int cmd_bpf(int argc, char **argv);
int cmd_top(int argc, char **argv);

/*
 * Parse argv with a GOptionContext built from entries. On a usage error
 * prints it with the command's name and returns -1.
 */
int sa_parse_options(int *argc, char ***argv, const char *cmd,
		     const char *params, const char *summary,
		     const char *description, const GOptionEntry *entries);

/*
 * A GOptionContext's --help, folded to 80 columns: _init before parsing
 * (it replaces GOption's own), _done after: prints the help and exits 0
 * if --help was given.
 */
void sa_options_help_init(GOptionContext *ctx);
void sa_options_help_done(GOptionContext *ctx);

/* Print "slabacct CMD: message" to stderr. */
void sa_err(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void sa_warn(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * Check that tracefs is usable (root, mounted or mountable). Prints what is
 * needed and returns -1 if not.
 */
int sa_require_tracefs(const char *cmd);

/*
 * Say how many events were lost (lost[nr_cpus], total), per CPU, with
 * advice; or that none were. In cmd-record.c.
 */
void sa_print_lost(const char *cmd, int nr_cpus, const guint64 *lost,
		   guint64 total, const char *advice);

/* The events a recording wrote, per event, then sa_print_lost(). */
struct sa_record_result;
void sa_print_record_result(const char *cmd, const char *output,
			    const struct sa_record_result *res,
			    const char *advice);

#endif /* SLABACCT_CMD_H */
