// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: signal stacks (util/sigstack.h). A child process recurses
 * without end, in its main thread or in a thread of its own, with a
 * SIGSEGV handler on SA_ONSTACK that exits 42 when the fault is a stack
 * overflow by sa_sigstack_overflow (43 when not): the handler runs only
 * where the thread has a signal stack; a thread started by g_thread_new
 * has none, and its overflow kills the process with no word.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "util/sigstack.h"

Suite *suite(void);

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	_exit(sa_sigstack_overflow(si->si_addr) ? 42 : 43);
}

static int recurse(int n)
{
	volatile char frame[512];

	frame[0] = (char)n;
	if (n == G_MAXINT)	/* never: a stack ends long before */
		return 0;
	return recurse(n + 1) + frame[0];
}

static gpointer deep(gpointer data)
{
	return GINT_TO_POINTER(recurse(1));
}

enum where { MAIN, SA_THREAD, G_THREAD };

/* The wait status of a child that overflows its stack there */
static int overflow(enum where w)
{
	pid_t pid = fork();
	int status = 0;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct rlimit rl = { 8 << 20, 8 << 20 };
		struct sigaction sa = { 0 };
		GThread *t;

		setrlimit(RLIMIT_STACK, &rl);
		sa.sa_sigaction = on_segv;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, NULL);
		if (w == MAIN) {
			sa_sigstack_new();
			recurse(1);
		}
		t = w == SA_THREAD ? sa_thread_new("deep", deep, NULL) :
				     g_thread_new("deep", deep, NULL);
		g_thread_join(t);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

START_TEST(overflow_is_caught_and_told)
{
	int s;

	s = overflow(MAIN);
	ck_assert_msg(WIFEXITED(s) && WEXITSTATUS(s) == 42, "main: %#x", s);
	s = overflow(SA_THREAD);
	ck_assert_msg(WIFEXITED(s) && WEXITSTATUS(s) == 42, "thread: %#x", s);
	/* the referee: a thread with no signal stack dies of the overflow */
	s = overflow(G_THREAD);
	ck_assert_msg(WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV,
		      "g_thread_new: %#x", s);
}
END_TEST

static gpointer value(gpointer data)
{
	return data;
}

START_TEST(thread_runs_its_function)
{
	int x;
	GThread *t = sa_thread_new("v", value, &x);

	ck_assert_ptr_eq(g_thread_join(t), &x);
	/* and its stack is no overflow of ours */
	ck_assert(!sa_sigstack_overflow(&x));
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("sigstack");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, overflow_is_caught_and_told);
	tcase_add_test(tc, thread_runs_its_function);
	suite_add_tcase(s, tc);
	return s;
}
