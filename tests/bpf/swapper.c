// SPDX-License-Identifier: GPL-2.0
/*
 * swapper PAGES: fill PAGES anonymous pages, push them out to swap with
 * madvise(MADV_PAGEOUT), then read each back: swap-ins, once swap is
 * configured (swapin's test): exactly PAGES of them. It stays on one CPU
 * so that the pages faulted in are all on the LRU lists the madvise call
 * drains. Should memory run out anyway, it is the
 * OOM killer's first choice (oom_score_adj 1000).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 256;
	long page = sysconf(_SC_PAGESIZE), i;
	unsigned long sum = 0;
	volatile char *p;
	cpu_set_t cpus;
	FILE *f;

	if (n < 1 || n > 1 << 20) {
		fprintf(stderr, "usage: swapper PAGES\n");
		return 2;
	}
	f = fopen("/proc/self/oom_score_adj", "w");
	if (f) {
		fputs("1000\n", f);
		fclose(f);
	}
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		memset((void *)(p + i * page), (int)(i & 0xff) | 1, page);
	if (madvise((void *)p, n * page, MADV_PAGEOUT) != 0) {
		perror("madvise MADV_PAGEOUT");
		return 1;
	}
	for (i = 0; i < n; i++)
		sum += p[i * page];
	printf("sum %lu\n", sum);
	return 0;
}
