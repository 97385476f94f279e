// SPDX-License-Identifier: GPL-2.0
/*
 * hog: allocate and touch memory 1 MiB at a time until the OOM killer
 * ends it. It makes itself the preferred victim (oom_score_adj 1000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "w");

	if (f) {
		fputs("1000\n", f);
		fclose(f);
	}
	for (;;) {
		char *p = malloc(1 << 20);

		if (!p)
			return 1;
		memset(p, 0x5a, 1 << 20);
	}
}
