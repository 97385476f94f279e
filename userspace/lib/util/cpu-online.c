// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a CPU is online (util/cpu-online.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "util/cpu-online.h"

bool sa_cpu_offline(const char *root, unsigned int cpu)
{
	char rel[64], c = 0;
	struct stat st;
	bool off = false;
	char *path;
	int fd;

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/online",
		 cpu);
	path = g_build_filename(root ? root : "/", rel, NULL);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		off = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
		      read(fd, &c, 1) == 1 && c == '0';
		close(fd);
	}
	g_free(path);
	return off;
}
