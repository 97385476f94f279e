// SPDX-License-Identifier: GPL-2.0
/*
 * An allocator with prefixed symbols, for memleak --lib --symbol-prefix:
 * xx_malloc and xx_free live in this program itself. prefixed K leaks K
 * blocks from leak_prefixed() and frees 2*K from churn_prefixed().
 */
#include <stdio.h>
#include <stdlib.h>

static char arena[1 << 20];
static size_t used;

__attribute__((noinline)) void *xx_malloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (used + n > sizeof(arena))
		return NULL;
	p = arena + used;
	used += n;
	return p;
}

__attribute__((noinline)) void xx_free(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) void leak_prefixed(size_t n)
{
	__asm__ volatile("" : : "r"(xx_malloc(n)) : "memory");
}

__attribute__((noinline)) void churn_prefixed(int k)
{
	int i;

	for (i = 0; i < 2 * k; i++)
		xx_free(xx_malloc(32));
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 10;
	int i;

	if (k < 1 || k > 1000) {
		fprintf(stderr, "usage: prefixed K (1..1000)\n");
		return 2;
	}
	for (i = 0; i < k; i++)
		leak_prefixed(64);
	churn_prefixed(k);
	return 0;
}
