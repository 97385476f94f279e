// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the scope tests (host/record-scope, guest/record-scope),
 * built static: each open of /dev/null, and each exec of it, allocates
 * one struct file.
 *   scope-workload K N M KID: open M times, then fork K children that
 *     exec KID (a copy of this program) as "KID kid N": N opens each
 *   scope-workload noise: an open every millisecond, until killed
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void opens(int n)
{
	int i, fd;

	for (i = 0; i < n; i++) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
}

int main(int argc, char **argv)
{
	int i, k, n;

	if (argc == 2 && !strcmp(argv[1], "noise")) {
		for (;;) {
			opens(1);
			usleep(1000);
		}
	}
	if (argc == 3 && !strcmp(argv[1], "kid")) {
		opens(atoi(argv[2]));
		return 0;
	}
	if (argc != 5)
		return 2;
	k = atoi(argv[1]);
	n = atoi(argv[2]);
	opens(atoi(argv[3]));
	for (i = 0; i < k; i++) {
		if (fork() == 0) {
			execl(argv[4], "scopekid", "kid", argv[2], (char *)0);
			_exit(127);
		}
	}
	usleep(100000);		/* the unrelated loop runs meanwhile */
	while (wait(NULL) > 0)
		;
	return 0;
}
