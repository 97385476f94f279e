// SPDX-License-Identifier: GPL-2.0
/*
 * sa_crash_guard (cli/cmd.h).
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "util/escape.h"
#include "util/input-file.h"
#include "util/sigstack.h"

/*
 * The crash guard of the commands that read files: a file mapped into
 * memory and cut short by another program while it is read raises SIGBUS,
 * which is the input's doing and is said so (exit 1). Any other crash is
 * a bug of slabacct or of a library it uses, whatever the input: it is
 * reported as an internal error, not blamed on the file, and then left to
 * the handler that was there before (a sanitizer's report, or the default
 * action with its core dump).
 *
 * A stack overflow (a recursion too deep) leaves no stack to run a
 * handler on: the handler runs on a stack of its own (util/sigstack.h,
 * the main thread's set here, the other threads' by sa_thread_new), and
 * a fault just below the thread's stack is said to be an overflow.
 *
 * A command that traces (top) names its tracefs instance: whatever the
 * crash (SIGABRT, SIGTRAP and SIGSYS too, as record), the handler first
 * turns the instance's tracing off, so that it does not go on tracing
 * system-wide until the next command removes it.
 */
static const int guarded[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL,
	SIGABRT, SIGTRAP, SIGSYS,	/* with an instance */
};
#define GUARDED_ALWAYS	4
static struct sigaction before[G_N_ELEMENTS(guarded)];
static struct sigaction mine;
static void *main_sigstack;		/* reachable, for LeakSanitizer */
static char tracing_on[PATH_MAX], events_enable[PATH_MAX];
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
	       sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" :
	       sig == SIGABRT ? "SIGABRT" : sig == SIGTRAP ? "SIGTRAP" :
	       "SIGSYS";
}

static void write_zero(const char *path)
{
	int fd = path[0] ? open(path, O_WRONLY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		ssize_t n = write(fd, "0", 1);

		(void)n;
		close(fd);
	}
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
	write_zero(tracing_on);
	write_zero(events_enable);
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
	if (sig == SIGSEGV && si->si_code > 0 &&
	    sa_sigstack_overflow(si->si_addr))
		put("stack overflow (SIGSEGV)");
	else
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

/*
 * A test hook: with SLABACCT_TEST_STACK_OVERFLOW in the environment, the
 * guard once installed recurses without end, as json-glib did on nested
 * input, for a test to see the overflow reported.
 */
static int recurse(int n)
{
	volatile char frame[512];

	frame[0] = (char)n;
	if (n == G_MAXINT)	/* never: a stack ends long before */
		return 0;
	return recurse(n + 1) + frame[0];
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
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	/* until exit; the threads get theirs from sa_thread_new */
	main_sigstack = sa_sigstack_new();
	sigemptyset(&sa.sa_mask);
	mine = sa;
	for (i = 0; i < GUARDED_ALWAYS; i++)
		sigaction(guarded[i], &sa, &before[i]);
	if (getenv("SLABACCT_TEST_STACK_OVERFLOW"))
		fprintf(stderr, "%d\n", recurse(1));
}

void sa_crash_guard_instance(const char *dir)
{
	static bool installed;
	unsigned int i;

	if (!dir)
		return;
	snprintf(tracing_on, sizeof(tracing_on), "%s/tracing_on", dir);
	snprintf(events_enable, sizeof(events_enable), "%s/events/enable",
		 dir);
	if (installed || !mine.sa_sigaction)
		return;
	installed = true;
	for (i = GUARDED_ALWAYS; i < G_N_ELEMENTS(guarded); i++)
		sigaction(guarded[i], &mine, &before[i]);
}
