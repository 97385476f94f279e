// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct top: a live, slabtop-like view of the call sites that allocate
 * the most, from /proc/slab_account when slab_account.ko is loaded, else
 * from a private tracefs instance. On a terminal it redraws every
 * interval on the alternate screen, with keys to change the sort; q,
 * Ctrl-C, every signal that would end it (SIGTERM, SIGHUP, SIGQUIT,
 * SIGPIPE, ...: sa_end_signals, as record) and errors all restore the
 * terminal and remove the tracing instance. Without a terminal (or with
 * --plain) it prints -n plain snapshots. Exit status: 0 for a normal end
 * (q and those signals included), 1 for an error, 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <glib-unix.h>

#include "cli/cmd.h"
#include "top/top.h"

static const char top_help[] =
"Sources (--source): account reads /proc/slab_account (slab_account.ko),\n"
"  trace a private tracefs instance with the kmem events, its ring buffers\n"
"  read as they fill (a reader per CPU) and every event counted; auto\n"
"  (default) the module when it is loaded, else tracefs. Both need root.\n"
"\n"
"Columns: ALLOCS/s and BYTES/s over the last interval, SLACK (bytes_alloc -\n"
"  bytes_req) and LIVE_B (bytes allocated and not freed) since the source\n"
"  started counting: the module's load or reset, or slabacct top's start.\n"
"  The header adds the totals and, next to the rates, the events lost in\n"
"  the last interval ('LOST' when there were: the rates are too low by\n"
"  them) and since the start: ring-buffer overruns, or allocations the\n"
"  module's tables had no room for.\n"
"\n"
"Keys: a sort by allocations/s, b by bytes/s, s by slack, l by live bytes;\n"
"  q (or Ctrl-C) quits.\n"
"\n"
"Exit status: 0 when it ends normally (after COUNT refreshes, or by q,\n"
"  Ctrl-C or any signal that would end it: SIGTERM, SIGHUP, SIGQUIT, ...),\n"
"  1 on an error, 2 on bad usage.\n"
"\n"
"Without a terminal (or with --plain) it prints COUNT plain snapshots (-n,\n"
"  default 1; 0: until stopped), one every interval, each headed by a line\n"
"  starting 'slabacct top:'; --json prints each as one JSON object on a\n"
"  line instead. Stopped by a signal, it prints a last snapshot of the\n"
"  counts up to then, and exits 0.\n"
"\n"
"Examples:\n"
"  slabacct top\n"
"  slabacct top --sort live -d 2\n"
"  slabacct top -n 3 -d 0.5 --top 10 > snapshots.txt\n"
"  slabacct top --json -n 0 --comm make > top.jsonl   # until Ctrl-C";

static volatile sig_atomic_t stop_signal, resized, suspend;
static struct termios saved_tio;
static bool tio_saved, screen_on;
/* written by the signal handler, so that a wait ends at once */
static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int e = errno;

	if (sig == SIGWINCH)
		resized = 1;
	else if (sig == SIGTSTP)
		suspend = 1;
	else
		stop_signal = sig;
	/* a full pipe has a wake-up pending already: no check */
	if (sig_pipe[1] >= 0) {
		ssize_t n = write(sig_pipe[1], "", 1);

		(void)n;
	}
	errno = e;
}

static void term_restore(void)
{
	if (screen_on) {
		/* show the cursor, leave the alternate screen */
		fputs("\033[?25h\033[?1049l", stdout);
		fflush(stdout);
		screen_on = false;
	}
	if (tio_saved) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
		tio_saved = false;
	}
}

static int term_setup(void)
{
	static bool registered;
	struct termios tio;

	if (tcgetattr(STDIN_FILENO, &saved_tio))
		return -1;
	tio_saved = true;
	if (!registered)
		atexit(term_restore);
	registered = true;
	tio = saved_tio;
	/* keys one at a time, no echo; ISIG stays: Ctrl-C is SIGINT */
	tio.c_lflag &= ~(ICANON | ECHO);
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &tio))
		return -1;
	fputs("\033[?1049h\033[?25l", stdout);
	screen_on = true;
	return 0;
}

static void term_size(int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void draw(const struct sa_top *t, const char *status)
{
	GString *s = g_string_new("\033[H");
	GString *body = g_string_new(NULL);
	int rows, cols, head = SA_TOP_HEAD_LINES;
	char *p, *nl;

	term_size(&rows, &cols);
	sa_top_format(t, body, cols, rows - head - 1 > 0 ? rows - head - 1 : 1,
		      0);
	if (status)
		g_string_append_printf(body, "%s\n", status);
	/* erase each line's rest, and the screen below the last */
	for (p = body->str; (nl = strchr(p, '\n')); p = nl + 1) {
		g_string_append_len(s, p, nl - p);
		g_string_append(s, "\033[K\r\n");
	}
	g_string_truncate(s, s->len - 2);
	g_string_append(s, "\033[J");
	fputs(s->str, stdout);
	fflush(stdout);
	g_string_free(s, TRUE);
	g_string_free(body, TRUE);
}

/*
 * Every signal that would end top ends it cleanly instead (the terminal
 * restored, the tracing instance removed), as it ends record: installed
 * before the instance is created. SIGXFSZ is ignored (EFBIG, an error).
 * With tty, the window's resizes and Ctrl-Z too.
 */
static void signals_setup(bool tty)
{
	struct sigaction sa = { 0 };
	sigset_t end;
	int sig;

	if (sig_pipe[0] < 0 && !g_unix_open_pipe(sig_pipe, FD_CLOEXEC, NULL))
		sig_pipe[0] = sig_pipe[1] = -1;
	if (sig_pipe[0] >= 0) {
		fcntl(sig_pipe[0], F_SETFL, O_NONBLOCK);
		fcntl(sig_pipe[1], F_SETFL, O_NONBLOCK);
	}
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	sa_end_signals(&end);
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&end, sig) == 1)
			sigaction(sig, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
	if (tty) {
		sigaction(SIGWINCH, &sa, NULL);
		sigaction(SIGTSTP, &sa, NULL);
	}
}

/* Ctrl-Z: give the shell its terminal back, stop, and take it again. */
static int suspend_now(void)
{
	struct sigaction dfl = { 0 }, mine = { 0 };

	suspend = 0;
	term_restore();
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &mine);
	raise(SIGTSTP);
	/* continued (SIGCONT) */
	sigaction(SIGTSTP, &mine, NULL);
	return term_setup();
}

/*
 * Wait up to ms for a key (with_keys) or a signal; returns the key, 0 on
 * timeout or signal.
 */
static int wait_key(int ms, bool with_keys)
{
	struct pollfd pfd[2] = {
		{ .fd = sig_pipe[0], .events = POLLIN },
		{ .fd = STDIN_FILENO, .events = POLLIN },
	};
	unsigned char c;
	char buf[16];

	if (poll(pfd, with_keys ? 2 : 1, ms) <= 0)
		return 0;
	if (pfd[0].revents)
		while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
			;
	if (!with_keys || !(pfd[1].revents & POLLIN) ||
	    read(STDIN_FILENO, &c, 1) != 1)
		return 0;
	return c;
}

/* Sleep s seconds, or less if a signal stops us. */
static void wait_stop(double s)
{
	gint64 end = g_get_monotonic_time() + (gint64)(s * G_USEC_PER_SEC);
	gint64 now;

	while (!stop_signal && (now = g_get_monotonic_time()) < end)
		wait_key((int)((end - now + 999) / 1000), false);
}

static int run_tty(struct sa_top *t, double delay, int count)
{
	GError *err = NULL;
	gint64 next;
	int i, n = 0;

	if (term_setup()) {
		sa_err("top", "cannot set up the terminal: %s",
		       g_strerror(errno));
		return SA_EXIT_FAIL;
	}
	next = g_get_monotonic_time();
	while (!stop_signal) {
		gint64 now = g_get_monotonic_time();
		int key;

		if (now >= next) {
			if (sa_top_refresh(t, now, &err)) {
				term_restore();
				sa_err("top", "%s", err->message);
				g_error_free(err);
				return SA_EXIT_FAIL;
			}
			draw(t, NULL);
			next = now + (gint64)(delay * G_USEC_PER_SEC);
			if (count && ++n >= count)
				break;
			continue;
		}
		key = wait_key((int)((next - now + 999) / 1000), true);
		if (suspend) {
			if (suspend_now()) {
				sa_err("top", "cannot set up the terminal: %s",
				       g_strerror(errno));
				return SA_EXIT_FAIL;
			}
			resized = 1;
		}
		if (resized) {
			resized = 0;
			draw(t, NULL);
		}
		if (key == 'q' || key == 'Q')
			break;
		for (i = 0; i < SA_TOP_NR_SORTS; i++)
			if (key == sa_top_sort_key(i)) {
				sa_top_set_sort(t, i);
				draw(t, NULL);
			}
	}
	/* q, Ctrl-C, SIGTERM and SIGHUP are all a normal end */
	term_restore();
	return SA_EXIT_OK;
}

/*
 * Plain snapshots (or JSON lines), count of them (0: until stopped). A
 * stop signal ends the wait: the counts up to then are printed as a last
 * snapshot, of a shorter interval, so that nothing counted goes unshown.
 */
static int run_plain(struct sa_top *t, double delay, int count, int top,
		     bool json)
{
	GError *err = NULL;
	int n;

	/* a first sample to take rates from */
	if (sa_top_refresh(t, g_get_monotonic_time(), &err))
		goto error;
	for (n = 0; !count || n < count; n++) {
		wait_stop(delay);
		if (sa_top_refresh(t, g_get_monotonic_time(), &err))
			goto error;
		if (json) {
			char *line = sa_top_json(t, top);

			puts(line);
			g_free(line);
		} else {
			GString *s = g_string_new(NULL);

			sa_top_format(t, s, 0, top, SA_TOP_PLAIN);
			if (n)
				putchar('\n');
			fputs(s->str, stdout);
			g_string_free(s, TRUE);
		}
		fflush(stdout);
		if (stop_signal || ferror(stdout))
			break;
	}
	if (ferror(stdout)) {
		sa_err("top", "writing: %s", g_strerror(errno));
		return SA_EXIT_FAIL;
	}
	return SA_EXIT_OK;
error:
	sa_err("top", "%s", err->message);
	g_error_free(err);
	return SA_EXIT_FAIL;
}

int cmd_top(int argc, char **argv)
{
	gchar *source = NULL, *sort = NULL, *account = NULL;
	gchar *comm = NULL;
	gdouble delay = 1.0;
	gint count = -1, top = 20, buffer_kb = 4096, pid = 0;
	gboolean plain = FALSE, json = FALSE;
	const GOptionEntry entries[] = {
		{ "source", 0, 0, G_OPTION_ARG_STRING, &source,
		  "auto (default), account or trace", "SRC" },
		{ "account-file", 0, 0, G_OPTION_ARG_FILENAME, &account,
		  "read this file in the /proc/slab_account format instead",
		  "FILE" },
		{ "sort", 's', 0, G_OPTION_ARG_STRING, &sort,
		  "rate (allocations/s, default), bytes (bytes/s), slack or "
		  "live", "KEY" },
		{ "delay", 'd', 0, G_OPTION_ARG_DOUBLE, &delay,
		  "seconds between refreshes (default 1)", "S" },
		{ "count", 'n', 0, G_OPTION_ARG_INT, &count,
		  "quit after COUNT refreshes, 0: when stopped (plain: "
		  "snapshots, default 1)", "COUNT" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "plain: call sites per snapshot (default 20, 0 = all)", "N" },
		{ "plain", 'p', 0, G_OPTION_ARG_NONE, &plain,
		  "plain snapshots even on a terminal", NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "plain snapshots as JSON, one object per line", NULL },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_INT, &buffer_kb,
		  "trace: ring buffer per CPU, in KB (default 4096)", "KB" },
		{ "pid", 0, 0, G_OPTION_ARG_INT, &pid,
		  "trace: only the events of this task (thread id)", "PID" },
		{ "comm", 0, 0, G_OPTION_ARG_STRING, &comm,
		  "trace: only the events of tasks with this command name",
		  "COMM" },
		{ NULL },
	};
	enum sa_top_sort key = SA_TOP_RATE;
	struct sa_top_source *src = NULL;
	struct sa_top *t = NULL;
	GError *err = NULL;
	const char *proc = "/proc/slab_account";
	bool tty;
	int ret = SA_EXIT_USAGE;

	if (sa_parse_options(&argc, &argv, "top", "",
			     "A live view of the call sites that allocate the "
			     "most kernel memory.", top_help, entries))
		return SA_EXIT_USAGE;
	if (argc != 1) {
		sa_err("top", "takes no file (see --help)");
		goto out;
	}
	sa_crash_guard("top", NULL);
	if (sort && sa_top_sort_parse(sort, &key)) {
		sa_err("top", "unknown sort '%s' (rate, bytes, slack, live)",
		       sort);
		goto out;
	}
	if (source && strcmp(source, "auto") && strcmp(source, "account") &&
	    strcmp(source, "trace")) {
		sa_err("top", "--source takes auto, account or trace, not '%s'",
		       source);
		goto out;
	}
	if (!(delay >= 0.05 && delay <= 3600) || count < -1 || top < 0 ||
	    buffer_kb < 0 || buffer_kb > 16 * 1024 * 1024 || pid < 0) {
		sa_err("top", "--delay takes 0.05 to 3600 seconds; --count, "
		       "--top, --pid and --buffer-size (at most 16777216) "
		       "numbers >= 0");
		goto out;
	}
	/* a name the filter can quote; the kernel keeps 15 characters */
	if (comm && (!*comm || strlen(comm) > 15 || strpbrk(comm, "\"\\"))) {
		sa_err("top", "--comm takes a command name of 1 to 15 "
		       "characters, without quotes or backslashes");
		goto out;
	}
	if (account) {
		proc = account;
		if (!source)
			source = g_strdup("account");
	}
	if ((pid || comm) && source && strcmp(source, "trace")) {
		sa_err("top", "--pid and --comm filter the trace source only");
		goto out;
	}
	if (!source || !strcmp(source, "auto"))
		source = (g_free(source),
			  g_strdup(pid || comm || access(proc, F_OK) ?
				   "trace" : "account"));
	signals_setup(false);
	if (!strcmp(source, "account")) {
		src = sa_top_source_account(proc, &err);
	} else {
		struct sa_top_trace_opts o = {
			.buffer_kb = buffer_kb, .pid = pid, .comm = comm,
		};

		if (sa_require_tracefs("top"))
			goto out;
		sa_stale_instances("top", true);
		src = sa_top_source_trace(&o, &err);
	}
	ret = SA_EXIT_FAIL;
	if (!src) {
		sa_err("top", "%s", err->message);
		if (g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
		    g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_PERM) ||
		    g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_INVAL))
			ret = SA_EXIT_USAGE;
		g_error_free(err);
		goto out;
	}
	sa_crash_guard_instance(src->instance);
	t = sa_top_new(src, key);
	tty = !plain && !json && isatty(STDIN_FILENO) &&
	      isatty(STDOUT_FILENO);
	signals_setup(tty);
	if (tty)
		ret = run_tty(t, delay, count > 0 ? count : 0);
	else
		ret = run_plain(t, delay, count >= 0 ? count : 1, top, json);
out:
	sa_top_free(t);		/* removes the tracefs instance */
	g_free(source);
	g_free(sort);
	g_free(account);
	g_free(comm);
	return ret;
}
