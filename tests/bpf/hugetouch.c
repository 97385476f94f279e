// SPDX-License-Identifier: GPL-2.0
/*
 * hugetouch N: map N huge pages from the hugetlb pool (MAP_HUGETLB) and
 * write to each once: N hugetlb faults. The pool must hold N pages
 * (/proc/sys/vm/nr_hugepages).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HPAGE	(2UL << 20)

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	volatile char *p;
	int i;

	if (n < 1 || n > 1024) {
		fprintf(stderr, "usage: hugetouch N (1..1024)\n");
		return 2;
	}
	p = mmap(NULL, n * HPAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap MAP_HUGETLB");
		return 1;
	}
	for (i = 0; i < n; i++)
		p[i * HPAGE] = 1;
	return 0;
}
