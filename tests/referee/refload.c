// SPDX-License-Identifier: GPL-2.0
/*
 * refload: the workload of the referee tests. One process (comm
 * "refload", so that recorders can follow it with a comm filter) runs
 * the actions given on its command line, in order, without forking:
 *
 *   netlink N        N netlink dumps (RTM_GETLINK, RTM_GETADDR) read with
 *                    a 32 KB buffer: the kernel's dump skbs are then 32 KB
 *                    (a large kmalloc, traced twice on 6.10+)
 *   anon MB          map MB of anonymous memory, touch every page, unmap
 *                    (page allocations, and frees in batches)
 *   file DIR MB      write MB into a new file in DIR, then unlink it
 *   write FILE TEXT  write TEXT into FILE (/proc/sa_test commands,
 *                    /sys/kernel/slab/CACHE/shrink)
 *   slabinfo CACHE   keep CACHE's line of /proc/slabinfo
 *   vmstat           keep the pgalloc_* and pgfree lines of /proc/vmstat,
 *                    read in one read(): one snapshot of the counters
 *
 * What was kept is printed at the end, after the last action, so that
 * printing it is outside every measured window:
 *   vmstat K NAME VALUE       (K counts the vmstat actions from 1)
 *   slabinfo CACHE LINE...
 * Exits 1 with a message on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_KEPT	64
#define VMSTAT_BUF	65536

static char *kept[MAX_KEPT];
static int nr_kept, nr_vmstat;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "refload: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void keep(char *s)
{
	if (nr_kept == MAX_KEPT)
		die("too many results");
	kept[nr_kept++] = s;
}

static long number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 0 || v > 1000000)
		die("bad number '%s'", s);
	return v;
}

static void dump_once(int fd, int type, unsigned int seq)
{
	struct {
		struct nlmsghdr nh;
		struct rtgenmsg g;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = type,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = seq },
		.g = { .rtgen_family = AF_UNSPEC },
	};
	static char buf[32768];

	if (send(fd, &req, sizeof(req), 0) < 0)
		die("netlink send: %s", strerror(errno));
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0)
			die("netlink recv: %s", strerror(errno));
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return;
			if (h->nlmsg_type == NLMSG_ERROR)
				die("netlink dump failed");
		}
	}
}

static void do_netlink(long n)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	long i;

	if (fd < 0)
		die("netlink socket: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		dump_once(fd, RTM_GETLINK, 2 * i + 1);
		dump_once(fd, RTM_GETADDR, 2 * i + 2);
	}
	close(fd);
}

static void do_anon(long mb)
{
	size_t len = (size_t)mb << 20, i;
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %ld MB: %s", mb, strerror(errno));
	for (i = 0; i < len; i += page)
		p[i] = 1;
	if (munmap(p, len))
		die("munmap: %s", strerror(errno));
}

static void do_file(const char *dir, long mb)
{
	static char block[65536];
	char *path;
	long i;
	int fd;

	if (asprintf(&path, "%s/refload.%d", dir, (int)getpid()) < 0)
		die("out of memory");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	memset(block, 0x5a, sizeof(block));
	for (i = 0; i < mb * 16; i++)
		if (write(fd, block, sizeof(block)) != sizeof(block))
			die("%s: write: %s", path, strerror(errno));
	if (close(fd) || unlink(path))
		die("%s: %s", path, strerror(errno));
	free(path);
}

static void do_write(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	size_t len = strlen(text);

	if (fd < 0)
		die("%s: %s", file, strerror(errno));
	if (write(fd, text, len) != (ssize_t)len)
		die("%s: write '%s': %s", file, text, strerror(errno));
	close(fd);
}

static char *read_all(const char *file, size_t *len)
{
	char *buf = malloc(VMSTAT_BUF);
	ssize_t n;
	int fd;

	if (!buf)
		die("out of memory");
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("%s: %s", file, strerror(errno));
	/* one read(): the first chunk of a seq_file comes from one start() */
	n = read(fd, buf, VMSTAT_BUF - 1);
	if (n < 0)
		die("%s: read: %s", file, strerror(errno));
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

static void do_vmstat(void)
{
	size_t len;
	char *text = read_all("/proc/vmstat", &len), *line, *save = NULL;
	int found = 0;

	nr_vmstat++;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s;

		if (strncmp(line, "pgalloc_", 8) && strncmp(line, "pgfree ", 7))
			continue;
		if (asprintf(&s, "vmstat %d %s", nr_vmstat, line) < 0)
			die("out of memory");
		keep(s);
		found |= line[2] == 'f' ? 2 : 1;
	}
	/* all from the first read's snapshot, or the window is not exact */
	if (found != 3)
		die("pgalloc_*/pgfree not in the first %zu bytes of "
		    "/proc/vmstat", len);
	free(text);
}

static void do_slabinfo(const char *cache)
{
	FILE *f = fopen("/proc/slabinfo", "r");
	size_t n = strlen(cache);
	char line[512], *s;

	if (!f)
		die("/proc/slabinfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, cache, n) && line[n] == ' ') {
			line[strcspn(line, "\n")] = 0;
			if (asprintf(&s, "slabinfo %s", line) < 0)
				die("out of memory");
			keep(s);
			fclose(f);
			return;
		}
	die("no cache %s in /proc/slabinfo", cache);
}

int main(int argc, char **argv)
{
	int i;

	/* the comm the recorders filter on, whatever this file is called */
	prctl(PR_SET_NAME, "refload", 0, 0, 0);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "netlink") && i + 1 < argc) {
			do_netlink(number(argv[++i]));
		} else if (!strcmp(a, "anon") && i + 1 < argc) {
			do_anon(number(argv[++i]));
		} else if (!strcmp(a, "file") && i + 2 < argc) {
			do_file(argv[i + 1], number(argv[i + 2]));
			i += 2;
		} else if (!strcmp(a, "write") && i + 2 < argc) {
			do_write(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(a, "slabinfo") && i + 1 < argc) {
			do_slabinfo(argv[++i]);
		} else if (!strcmp(a, "vmstat")) {
			do_vmstat();
		} else {
			die("unknown action '%s' (see the source)", a);
		}
	}
	for (i = 0; i < nr_kept; i++)
		printf("%s\n", kept[i]);
	return fflush(stdout) ? 1 : 0;
}
