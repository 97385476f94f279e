/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stack of its own for a thread's signal handlers (sigaltstack): a
 * stack overflow leaves no stack to run a handler on, so without one the
 * crash guard (cli/crash.c) cannot say anything and the process dies
 * silently. The main thread gets one from the crash guard; every other
 * thread slabacct starts is started by sa_thread_new, which gives it one
 * for its life. A handler installed with SA_ONSTACK then runs on it.
 */
#ifndef SLABACCT_SIGSTACK_H
#define SLABACCT_SIGSTACK_H

#include <stdbool.h>

#include <glib.h>

/*
 * Give the calling thread a signal stack, and note where its own stack
 * ends (for sa_sigstack_overflow). Returns it, for sa_sigstack_free
 * before the thread ends; NULL if it could not be set.
 */
void *sa_sigstack_new(void);
void sa_sigstack_free(void *st);

/*
 * From a signal handler (async-signal-safe): whether addr, a fault's
 * address, lies just below the stack of the calling thread (its guard
 * gap, or a frame that jumped it): a stack overflow. false for a thread
 * without sa_sigstack_new.
 */
bool sa_sigstack_overflow(const void *addr);

/* g_thread_new, the thread running fn with a signal stack of its own. */
GThread *sa_thread_new(const char *name, GThreadFunc fn, gpointer data);

#endif /* SLABACCT_SIGSTACK_H */
