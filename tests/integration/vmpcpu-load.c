// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known vmalloc and percpu allocations, for the tests of
 * the vmalloc and percpu sections: N times, a BPF per-CPU array (one
 * percpu allocation per element) and a BPF array large enough that its
 * memory comes from vmalloc (bpf_map_area_alloc), both closed at once.
 *
 *   vmpcpu-load [N]
 *
 * Exits 0, or 1 if a map cannot be made (no BPF here: the test skips).
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int map_create(unsigned int type, unsigned int value_size,
		      unsigned int entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = value_size;
	a.max_entries = entries;
	return (int)syscall(__NR_bpf, BPF_MAP_CREATE, &a, sizeof(a));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
	long i;

	if (n < 1 || n > 1000) {
		fprintf(stderr, "vmpcpu-load: N from 1 to 1000\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		int pc = map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 24, 16);
		int big = map_create(BPF_MAP_TYPE_ARRAY, 4096, 64);

		if (pc < 0 || big < 0) {
			perror("vmpcpu-load: BPF_MAP_CREATE");
			return 1;
		}
		close(pc);
		close(big);
	}
	return 0;
}
