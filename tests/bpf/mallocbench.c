// SPDX-License-Identifier: GPL-2.0
/*
 * mallocbench N: N malloc/free pairs of varied sizes (with a few blocks
 * kept live), timed with CLOCK_MONOTONIC around the loop only. Prints
 * "ns_per_pair <float>" so tracer start-up does not count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	void *keep[64] = { 0 };
	struct timespec a, b;
	long i;

	if (n < 1) {
		fprintf(stderr, "usage: mallocbench N\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		int slot = i & 63;

		free(keep[slot]);
		keep[slot] = malloc(16 + (i * 7919) % 2048);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (i = 0; i < 64; i++)
		free(keep[i]);
	printf("ns_per_pair %.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 +
				      (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
