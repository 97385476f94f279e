// SPDX-License-Identifier: GPL-2.0
/*
 * Signal stacks for slabacct's threads (util/sigstack.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "util/sigstack.h"

/* Below a stack: its guard gap (1 MB by default), or a frame that jumped */
#define STACK_GAP	(4u << 20)

static __thread uintptr_t stack_lo;	/* the thread's lowest address */

static size_t sigstack_size(void)
{
	long min = sysconf(_SC_SIGSTKSZ);
	size_t size = 64 << 10;

	if (min > 0 && (size_t)min * 4 > size)
		size = (size_t)min * 4;
	return size;
}

void *sa_sigstack_new(void)
{
	stack_t st = { 0 };
	pthread_attr_t a;
	void *addr;
	size_t size;

	if (!pthread_getattr_np(pthread_self(), &a)) {
		if (!pthread_attr_getstack(&a, &addr, &size))
			stack_lo = (uintptr_t)addr;
		pthread_attr_destroy(&a);
	}
	st.ss_size = sigstack_size();
	st.ss_sp = g_malloc(st.ss_size);
	if (!sigaltstack(&st, NULL))
		return st.ss_sp;
	g_free(st.ss_sp);
	return NULL;
}

void sa_sigstack_free(void *mem)
{
	stack_t st = { .ss_flags = SS_DISABLE };

	if (!mem)
		return;
	sigaltstack(&st, NULL);
	g_free(mem);
}

bool sa_sigstack_overflow(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	return stack_lo && a < stack_lo && a >= stack_lo - STACK_GAP;
}

struct start {
	GThreadFunc fn;
	gpointer data;
};

static gpointer with_sigstack(gpointer p)
{
	struct start s = *(struct start *)p;
	void *st;
	gpointer ret;

	g_free(p);
	st = sa_sigstack_new();
	ret = s.fn(s.data);
	sa_sigstack_free(st);
	return ret;
}

GThread *sa_thread_new(const char *name, GThreadFunc fn, gpointer data)
{
	struct start *s = g_new(struct start, 1);

	s->fn = fn;
	s->data = data;
	return g_thread_new(name, with_sigstack, s);
}
