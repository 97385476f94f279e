/* SPDX-License-Identifier: GPL-2.0 */
/* The trace layer's errors: a G_IO_ERROR of a code, with a message. */
#ifndef SLABACCT_TRACE_FAIL_H
#define SLABACCT_TRACE_FAIL_H

#include <gio/gio.h>

/* Set *err (G_IO_ERROR, code) to the formatted message; returns -1. */
int sa_trace_fail(GError **err, int code, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

#endif /* SLABACCT_TRACE_FAIL_H */
