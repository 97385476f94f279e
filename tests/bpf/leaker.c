// SPDX-License-Identifier: GPL-2.0
/*
 * The program memleak's tests trace: leaker K makes exactly K mallocs in
 * leak_malloc() and never frees them, and K allocations of each other
 * kind in its own function (leak_calloc, leak_realloc, leak_memalign,
 * leak_aligned); churn() allocates and frees 10*K blocks, which must not
 * show. Built with -O0 -fno-builtin so nothing is inlined or elided.
 * leaker K wait: the same once SIGUSR1 arrives, then waits to be killed
 * (for memleak -p). leaker K large: the same kinds, each block of 1 MiB
 * or more, which glibc serves by mmap from inside the allocator (the
 * threshold is 128 KiB, and only a free raises it). leaker K deep: K
 * mallocs in leak_malloc at the bottom of 200 nested calls of leak_deep
 * (a stack too deep to keep whole), and nothing else.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *keep[1 << 16];
static int nkeep;

__attribute__((noinline)) void leak_malloc(size_t n)
{
	keep[nkeep++] = malloc(n);
}

__attribute__((noinline)) void leak_calloc(size_t n)
{
	keep[nkeep++] = calloc(n, 2);
}

__attribute__((noinline)) void leak_realloc(size_t n)
{
	void *p = malloc(8);

	keep[nkeep++] = realloc(p, n);
}

__attribute__((noinline)) void leak_memalign(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n) == 0)
		keep[nkeep++] = p;
}

__attribute__((noinline)) void leak_aligned(size_t n)
{
	keep[nkeep++] = aligned_alloc(256, 256 * n);
}

/* leak_malloc at the bottom of n nested calls: a stack deeper than a
 * BPF stack map keeps (127 frames) */
__attribute__((noinline)) void leak_deep(int n, size_t size)
{
	if (n > 0)
		leak_deep(n - 1, size);
	else
		leak_malloc(size);
	keep[nkeep] = NULL;	/* not a tail call */
}

__attribute__((noinline)) void churn(int k)
{
	int i;

	for (i = 0; i < 10 * k; i++)
		free(malloc(64 + i));
}

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 10;
	int wait = argc > 2 && !strcmp(argv[2], "wait");
	/* large: sizes of 1 MiB and up, so every kind goes through mmap */
	size_t big = argc > 2 && !strcmp(argv[2], "large") ? 1 << 20 : 0;
	int i;

	if (k < 1 || k > 10000) {
		fprintf(stderr, "usage: leaker K [wait] (K: 1..10000)\n");
		return 2;
	}
	if (argc > 2 && !strcmp(argv[2], "deep")) {
		for (i = 0; i < k; i++)
			leak_deep(200, 100);
		return 0;
	}
	if (wait) {
		signal(SIGUSR1, on_usr1);
		while (!go)
			pause();
	}
	for (i = 0; i < k; i++) {
		leak_malloc(big + 100 + i);
		leak_calloc(big / 2 + 50);
		leak_realloc(big + 4000);
		leak_memalign(big + 300);
		leak_aligned(big / 256 + 1);
	}
	churn(k);
	while (wait)
		pause();
	return 0;
}
