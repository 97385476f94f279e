/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a CPU is online, from sysfs (the running system's, or a copy
 * of it under a root directory).
 */
#ifndef SLABACCT_CPU_ONLINE_H
#define SLABACCT_CPU_ONLINE_H

#include <stdbool.h>

/*
 * Whether root's sys/devices/system/cpu/cpuN/online says '0' (root NULL:
 * "/"). A CPU without the file is online, as cpu0 often is. The file is
 * read only if it is a regular file (no symlink, FIFO or device).
 */
bool sa_cpu_offline(const char *root, unsigned int cpu);

#endif /* SLABACCT_CPU_ONLINE_H */
