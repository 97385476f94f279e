/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command layer: one cmd-<name>.c per subcommand, and what they share
 * (cli/cmd.c, cli/crash.c). Only this layer (and the BPF tools' front ends)
 * prints to the user and chooses exit codes (util/msg.h).
 */
#ifndef SLABACCT_CMD_H
#define SLABACCT_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "emit/emit.h"
#include "util/msg.h"

struct sa_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* The table in cli/main.c, terminated by a NULL name. The row named
 * SA_COMMAND_BPF_TOOLS stands for the BPF tools' registry. */
#define SA_COMMAND_BPF_TOOLS	"*bpf"
extern const struct sa_command sa_commands[];

int cmd_version(int argc, char **argv);
int cmd_account(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_budget(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);
/*
 * The options of every command that writes files (cli/cmd.c): the mode
 * of what it creates, and whether a symlink given as output is followed.
 */
struct sa_output_opts {
	gchar *mode;
	gboolean follow;
};
#define SA_OUTPUT_OPTION_ENTRIES(o)					\
	{ "mode", 0, 0, G_OPTION_ARG_STRING, &(o).mode,			\
	  "permissions of the files written, in octal (default 0600: "	\
	  "they hold kernel addresses)", "MODE" },			\
	{ "follow-symlinks", 0, 0, G_OPTION_ARG_NONE, &(o).follow,	\
	  "write to the file a symlink given as output points to "	\
	  "(refused by default)", NULL }

struct sa_outfile_opts;
/* Check the options into *of: 0, or -1 after saying why (usage). */
int sa_output_opts_get(const char *cmd, const struct sa_output_opts *o,
		       struct sa_outfile_opts *of);
void sa_output_opts_clear(struct sa_output_opts *o);

/*
 * The work of `slabacct diff A B` once its options are checked: read A
 * and B (with a progress bar on a terminal), compare them, and write the
 * diff in e->fmt (e->width, e->verbose set) to output (NULL: stdout).
 * With o->fail_on, judges the diff by those limits (after writing it,
 * says which were crossed: SA_EXIT_THRESHOLD).
 * Prints what goes wrong as cmd's; returns an SA_EXIT_* code.
 */
struct sa_diff_opts;
struct sa_emit;
int sa_diff_write(const char *cmd, const char *a, const char *b,
		  struct sa_diff_opts *o, struct sa_emit *e,
		  const char *output, const struct sa_outfile_opts *of);

/*
 * The one line --fail-on prints (to stderr): the limits crossed, each
 * with how many sites and the one that grew most; or that none was.
 */
struct sa_thresholds;
struct sa_threshold_result;
void sa_print_limits(const char *cmd, const struct sa_thresholds *t,
		     const struct sa_threshold_result *res);

/*
 * diff --folded A B: the stacks folded, weighed by the change of key
 * (bytes, allocs, live, slack; NULL: bytes) (cmd-diff-folded.c)
 */
int sa_diff_folded(const char *a, const char *b, const char *key,
		   const char *output, const struct sa_outfile_opts *of);
/*
 * The stacks of two recordings side by side for the diff page's flame
 * graph (report/diff-stacks.h), or NULL after saying why not
 */
GPtrArray *sa_diff_load_stacks(const char *a, const char *b);
/*
 * Read A and B's call sites with their stacks (--by stack, 32 frames):
 * 0, or -1 after saying why (both rep[] then freed by the caller)
 */
struct sa_report;
int sa_diff_read_stacks(const char *a, const char *b,
			struct sa_report *rep[2]);

/* report --html OUT A B: the diff of A and B as HTML (cmd-report-html.c) */
int sa_report_html_diff(const char *out, const char *a, const char *b,
			const struct sa_output_opts *o);

/*
 * A text output: standard output, or a file written beside its path and
 * renamed into place when complete (util/outfile.h).
 */
struct sa_output {
	FILE *f;
	struct sa_outfile *file;	/* NULL: standard output */
	char *path;
};
/* Open PATH (stdout for NULL or "-"): 0, or -1 after printing why. */
int sa_output_open(const char *cmd, const char *path,
		   const struct sa_outfile_opts *o, struct sa_output *out);
/*
 * Finish: with ok, put the file in place; without, discard it (an
 * earlier file at the path stays). 0, or -1 after printing why.
 */
int sa_output_close(const char *cmd, struct sa_output *out, bool ok);
/*
 * len bytes of s, whole, to path (or stdout) through sa_output_open: a
 * new file renamed into place when complete. 0, or -1 after saying why.
 */
int sa_output_write(const char *cmd, const char *path,
		    const struct sa_outfile_opts *of, const char *s,
		    size_t len);
/*
 * --format text|json|csv, --json and --csv of a command with those three
 * only, into *f (SA_FMT_TEXT, _JSON, _CSV). 0, or -1 after saying why.
 */
int sa_plain_format(const char *cmd, const char *s, gboolean json,
		    gboolean csv, enum sa_format *f);
/* Print an output error, with the hint for a refused symlink. */
void sa_output_error(const char *cmd, const GError *err);
/*
 * Until exit (cli/crash.c): a SIGBUS because an input mapped by the
 * library shrank meanwhile is said so, exit 1; any other crash (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL) is reported as an internal error while reading
 * FILE (or NULL), a stack overflow of the main thread as such (the
 * handler runs on its own stack), then goes to the handler there before.
 * Call again to change the file.
 */
void sa_crash_guard(const char *cmd, const char *file);
/*
 * After sa_crash_guard: the tracefs instance (its directory) that a crash
 * must stop tracing first, as record does; then SIGABRT, SIGTRAP and
 * SIGSYS are guarded too.
 */
void sa_crash_guard_instance(const char *dir);
int cmd_record(int argc, char **argv);
int cmd_boot(int argc, char **argv);
/* The BPF tools (memleak, pmc, oomkill, ...): userspace/cli/cmd-bpf.c */
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
/*
 * The text width when --width is not given: a terminal's columns (at
 * least 40), else 0, full lines (a file, a pipe, or -o FILE when
 * to_file): what a script greps or a file keeps is never cut.
 */
int sa_text_width_default(bool to_file);

void sa_options_help_init(GOptionContext *ctx);
void sa_options_help_done(GOptionContext *ctx);

/*
 * Around a GOptionContext parse of entries: whether the numbers given
 * are >= 0 and finite (sa_parse_options does it itself). Prints what is
 * wrong and returns -1; frees what sa_options_save returned.
 */
struct sa_opt_values;
struct sa_opt_values *sa_options_save(const GOptionEntry *entries);
int sa_options_check(const char *cmd, struct sa_opt_values *saved);


/*
 * Check that tracefs is usable (root, mounted or mountable). Prints what is
 * needed and returns -1 if not.
 */
int sa_require_tracefs(const char *cmd);

/*
 * The tracefs instances left by slabacct processes that were killed
 * (SIGKILL: record, top), named on stderr with how to remove them; with
 * remove (record, top, which would remove them anyway), removed and said
 * so. Instances of running slabacct processes are never touched.
 */
void sa_stale_instances(const char *cmd, bool remove);

/*
 * The catchable signals whose default action ends the process (not the
 * crash signals, not SIGXFSZ): record and top end cleanly on each,
 * removing their tracing instance.
 */
void sa_end_signals(sigset_t *set);

/*
 * Say how many events a recording lost, per CPU, how many of them after
 * its readers stopped (a full disk), with advice; or that none were.
 */
struct sa_record_result;
struct sa_trace_origin;
void sa_print_lost(const char *cmd, const struct sa_record_result *res,
		   const char *advice);

/*
 * report --fail-on-lost: whether the trace file (its origin o, and the
 * events the ring buffer flagged as missed) lost events or was
 * truncated; if so, say so.
 */
bool sa_fail_on_trace_loss(const char *cmd, const char *file,
			   const struct sa_trace_origin *o, guint64 missed);
/* --fail-on-lost and res lost events: say that this fails. */
void sa_fail_on_lost(const char *cmd, const struct sa_record_result *res);

/* The events a recording wrote, per event, then sa_print_lost(). */
void sa_print_record_result(const char *cmd, const char *output,
			    const struct sa_record_result *res,
			    const char *advice);

#endif /* SLABACCT_CMD_H */
