// SPDX-License-Identifier: GPL-2.0
/*
 * The program the snooping tools' tests trace. memops N does, N times
 * each, from its own function:
 *   do_brks      brk(0), as a raw system call (so the user stack's first
 *                frame is do_brks itself)
 *   do_mmaps     mmap(NULL, MARK_LEN, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS)
 *                and munmap; MARK_LEN (13 pages + 1 byte) is a length
 *                nothing else asks for
 *   do_shm       shmget, shmat, shmdt and shmctl(IPC_RMID)
 *   do_touch     the first write to each of N fresh anonymous pages
 *                (transparent huge pages off for them): N page faults
 * memops N FILE also writes once to each of the first N pages of FILE
 * mapped privately (do_cow_file): N copy-on-write faults, each through
 * the file's ->fault (filemap_fault for a page-cache file).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MARK_LEN	(13 * 4096 + 1)

__attribute__((noinline)) void do_brks(int n)
{
	long ret;
	int i;

	for (i = 0; i < n; i++)
		__asm__ volatile("syscall" : "=a"(ret)
				 : "0"((long)SYS_brk), "D"(0L)
				 : "rcx", "r11", "memory");
}

__attribute__((noinline)) void do_mmaps(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		void *p = mmap(NULL, MARK_LEN, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		munmap(p, MARK_LEN);
	}
}

__attribute__((noinline)) void do_shm(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
		void *p;

		if (id < 0) {
			perror("shmget");
			exit(1);
		}
		p = shmat(id, NULL, 0);
		if (p == (void *)-1) {
			perror("shmat");
			exit(1);
		}
		shmdt(p);
		shmctl(id, IPC_RMID, NULL);
	}
}

__attribute__((noinline)) void do_touch(int n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	int i;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, n * page);
}

__attribute__((noinline)) void do_cow_file(const char *path, int n)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY);
	volatile char *p;
	int i;

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, n * page);
	close(fd);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	if (n < 1 || n > 100000) {
		fprintf(stderr, "usage: memops N [FILE] (N: 1..100000)\n");
		return 2;
	}
	do_brks(n);
	do_mmaps(n);
	do_shm(n);
	do_touch(n);
	if (argc > 2)
		do_cow_file(argv[2], n);
	return 0;
}
