// SPDX-License-Identifier: GPL-2.0
/*
 * The boot buffers in the kernel log (trace/boot-log.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>

#include <glib.h>

#include "trace/boot-log.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10
#define LOG_MAX		(32 * 1024 * 1024)

/* Whether the kernel log holds needle. */
static bool log_has(const char *needle)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), n;
	bool found = false;
	char *buf;

	if (size <= 0)
		return false;
	if (size > LOG_MAX)
		size = LOG_MAX;
	buf = g_malloc(size + 1);
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n > 0) {
		buf[n] = '\0';
		found = strstr(buf, needle) != NULL;
	}
	g_free(buf);
	return found;
}

bool sa_boot_log_buffer_failed(int cpu)
{
	char needle[64];

	snprintf(needle, sizeof(needle),
		 "failed to allocate ring buffer on CPU %d\n", cpu);
	return log_has(needle);
}

bool sa_boot_log_no_tracer(void)
{
	return log_has("tracer: failed to allocate ring buffer!");
}
