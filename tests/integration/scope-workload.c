// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the scope tests (host/record-scope, guest/record-scope),
 * built static: each open of /dev/null, and each exec of it, allocates
 * one struct file.
 *   scope-workload K N M KID: open M times, then fork K children that
 *     exec KID (a copy of this program) as "KID kid N": N opens each
 *   scope-workload noise: an open every millisecond, until killed
 *   scope-workload tcp N: listen on the loopback, and connect to it and
 *     accept N times: each connection allocates its client socket in
 *     this task and the listener's child in softirq context (the final
 *     ACK's receipt), one sk_prot_alloc each
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

static int tcp(int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l, c, s, i;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 8) || getsockname(l, (struct sockaddr *)&a, &len))
		return 1;
	for (i = 0; i < n; i++) {
		c = socket(AF_INET, SOCK_STREAM, 0);
		if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
			return 1;
		s = accept(l, NULL, NULL);
		if (s < 0)
			return 1;
		close(s);
		close(c);
	}
	close(l);
	return 0;
}

int main(int argc, char **argv)
{
	int i, k;

	if (argc == 3 && !strcmp(argv[1], "tcp"))
		return tcp(atoi(argv[2]));
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
