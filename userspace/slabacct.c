// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct: the command table and the helpers every command shares.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <tracefs.h>

#include "cmd.h"
#include "escape.h"
#include "input-file.h"
#include "outfile.h"
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

/* Messages quote the input (file names, tokens): escaped, one line. */
static void vmsg(const char *kind, const char *cmd, const char *fmt,
		 va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);

	fprintf(stderr, "slabacct%s%s: %s%s\n", cmd ? " " : "",
		cmd ? cmd : "", kind, sa_esc(msg));
	g_free(msg);
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

/* The numeric options' values before parsing: to tell those given. */
struct sa_opt_values {
	const GOptionEntry *entries;
	gint64 *v;
};

struct sa_opt_values *sa_options_save(const GOptionEntry *entries)
{
	struct sa_opt_values *s = g_new0(struct sa_opt_values, 1);
	const GOptionEntry *e;
	int n = 0;

	for (e = entries; e->long_name; e++)
		n++;
	s->entries = entries;
	s->v = g_new0(gint64, n ? n : 1);
	for (e = entries, n = 0; e->long_name; e++, n++) {
		if (e->arg == G_OPTION_ARG_INT)
			s->v[n] = *(gint *)e->arg_data;
		else if (e->arg == G_OPTION_ARG_INT64 ||
			 e->arg == G_OPTION_ARG_DOUBLE)
			memcpy(&s->v[n], e->arg_data, 8);
	}
	return s;
}

/*
 * Every number an option takes is a count, a size or a time: given, it
 * must be >= 0, and a real number finite (GLib refuses what overflows
 * an int or a double, but takes "nan" and "inf"). Frees s.
 */
int sa_options_check(const char *cmd, struct sa_opt_values *s)
{
	const GOptionEntry *e;
	int n, ret = 0;

	for (e = s->entries, n = 0; e->long_name && !ret; e++, n++) {
		gint64 now = 0;
		gdouble d;

		if (e->arg == G_OPTION_ARG_INT)
			now = *(gint *)e->arg_data;
		else if (e->arg == G_OPTION_ARG_INT64 ||
			 e->arg == G_OPTION_ARG_DOUBLE)
			memcpy(&now, e->arg_data, 8);
		else
			continue;
		if (now == s->v[n])
			continue;	/* not given, or the default again */
		if (e->arg != G_OPTION_ARG_DOUBLE && now < 0) {
			sa_err(cmd, "--%s takes a number >= 0, not %"
			       G_GINT64_FORMAT, e->long_name, now);
			ret = -1;
		}
		memcpy(&d, &now, 8);
		if (e->arg == G_OPTION_ARG_DOUBLE && (!isfinite(d) || d < 0)) {
			sa_err(cmd, "--%s takes a finite number >= 0, not %g",
			       e->long_name, d);
			ret = -1;
		}
	}
	g_free(s->v);
	g_free(s);
	return ret;
}

int sa_parse_options(int *argc, char ***argv, const char *cmd,
		     const char *params, const char *summary,
		     const char *description, const GOptionEntry *entries)
{
	GOptionContext *ctx = g_option_context_new(params);
	struct sa_opt_values *before = sa_options_save(entries);
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
	if (sa_options_check(cmd, before))
		ret = -1;
	g_option_context_free(ctx);
	g_free(prg);
	return ret;
}

int sa_output_opts_get(const char *cmd, const struct sa_output_opts *o,
		       struct sa_outfile_opts *of)
{
	memset(of, 0, sizeof(*of));
	of->mode = SA_OUTFILE_MODE;
	of->follow_symlink = o->follow;
	if (o->mode && sa_outfile_mode_parse(o->mode, &of->mode)) {
		sa_err(cmd, "bad --mode '%s' (octal permission bits, like "
		       "0600 or 0644)", o->mode);
		return -1;
	}
	return 0;
}

void sa_output_opts_clear(struct sa_output_opts *o)
{
	g_free(o->mode);
	o->mode = NULL;
}

void sa_output_error(const char *cmd, const GError *err)
{
	sa_err(cmd, "%s%s", err->message,
	       g_error_matches(err, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS) ?
	       " (--follow-symlinks writes to the file it points to)" : "");
}

int sa_output_open(const char *cmd, const char *path,
		   const struct sa_outfile_opts *o, struct sa_output *out)
{
	GError *err = NULL;
	int fd;

	memset(out, 0, sizeof(*out));
	out->f = stdout;
	if (!path || !strcmp(path, "-"))
		return 0;
	out->path = g_strdup(path);
	out->file = sa_outfile_open(path, o, &err);
	if (!out->file) {
		sa_output_error(cmd, err);
		g_error_free(err);
		out->f = NULL;
		return -1;
	}
	fd = dup(sa_outfile_fd(out->file));
	out->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out->f) {
		sa_err(cmd, "%s: %s", path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		sa_outfile_abort(out->file);
		out->file = NULL;
		return -1;
	}
	return 0;
}

int sa_output_close(const char *cmd, struct sa_output *out, bool ok)
{
	GError *err = NULL;
	int ret = 0;

	if (!out->file) {
		if (out->f == stdout)
			fflush(stdout);
		out->f = NULL;
		goto done;
	}
	if (fclose(out->f) && ok) {
		sa_err(cmd, "%s: %s", out->path, g_strerror(errno));
		ok = false;
		ret = -1;
	}
	out->f = NULL;
	if (!ok) {
		sa_outfile_abort(out->file);
	} else if (sa_outfile_commit(out->file, &err)) {
		sa_output_error(cmd, err);
		g_error_free(err);
		ret = -1;
	}
	out->file = NULL;
done:
	g_free(out->path);
	out->path = NULL;
	return ret;
}

/*
 * The crash guard of the commands that read files: a file mapped into
 * memory and cut short by another program while it is read raises SIGBUS,
 * which is the input's doing and is said so (exit 1). Any other crash is
 * a bug of slabacct or of a library it uses, whatever the input: it is
 * reported as an internal error, not blamed on the file, and then left to
 * the handler that was there before (a sanitizer's report, or the default
 * action with its core dump).
 */
static const int guarded[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
static struct sigaction before[G_N_ELEMENTS(guarded)];
static char who[80];			/* "slabacct CMD: " */
static char file[600];			/* escaped, or "" */

static void put(const char *s)
{
	ssize_t r = write(2, s, strlen(s));

	(void)r;
}

/* A number, async-signal-safe. */
static void put_u64(guint64 v)
{
	char b[24];
	int i = sizeof(b) - 1;

	b[i] = 0;
	do
		b[--i] = '0' + v % 10;
	while ((v /= 10) && i);
	put(b + i);
}

static const char *sig_name(int sig)
{
	return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" :
	       sig == SIGFPE ? "SIGFPE" : "SIGILL";
}

static void handler(int sig, siginfo_t *si, void *uc)
{
	static int entered;
	const char *path;
	guint64 was, now;
	unsigned int i;

	/* one thread says it; another faulting meanwhile waits for the end */
	if (__atomic_exchange_n(&entered, 1, __ATOMIC_SEQ_CST))
		for (;;)
			pause();
	if (sig == SIGBUS && sa_input_shrunk(&path, &was, &now)) {
		put(who);
		put(file[0] ? file : "the input");
		put(": the file was cut from ");
		put_u64(was);
		put(" to ");
		put_u64(now);
		put(" bytes while it was read: another program truncated or "
		    "rewrote it in place\n");
		_exit(SA_EXIT_FAIL);
	}
	put(who);
	put("internal error: ");
	put(sig_name(sig));
	if (file[0]) {
		put(" while reading ");
		put(file);
	}
	put(". This is a bug of slabacct or of a library it uses, not a "
	    "sign that the input is damaged: please report it\n");
	/* the fault comes again, to the handler that was there before */
	for (i = 0; i < G_N_ELEMENTS(guarded); i++)
		if (guarded[i] == sig)
			sigaction(sig, &before[i], NULL);
	if (si->si_code <= 0)	/* sent, not a fault: send it again */
		raise(sig);
}

void sa_crash_guard(const char *cmd, const char *path)
{
	static bool installed;
	struct sigaction sa;
	unsigned int i;

	snprintf(who, sizeof(who), "slabacct %s: ", cmd);
	g_strlcpy(file, path ? sa_esc(path) : "", sizeof(file));
	if (installed)
		return;
	installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < G_N_ELEMENTS(guarded); i++)
		sigaction(guarded[i], &sa, &before[i]);
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
