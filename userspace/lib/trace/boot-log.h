/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel log says of the boot's ring buffers: a CPU whose buffer
 * the kernel could not allocate as the CPU came up (trace_rb_cpu_prepare:
 * "failed to allocate ring buffer on CPU N", with a warning) is refused
 * by the hotplug step and stays down, so it looks merely offline.
 */
#ifndef SLABACCT_BOOT_LOG_H
#define SLABACCT_BOOT_LOG_H

#include <stdbool.h>

/*
 * Whether the kernel log (read with klogctl: root) says that cpu's ring
 * buffer could not be allocated. False when it does not, or cannot be
 * read.
 */
bool sa_boot_log_buffer_failed(int cpu);

/*
 * Whether the kernel log says the boot's whole ring buffer could not be
 * allocated ("tracer: failed to allocate ring buffer!": trace_buf_size
 * over the memory early in boot; there is no boot trace at all).
 */
bool sa_boot_log_no_tracer(void);

#endif /* SLABACCT_BOOT_LOG_H */
