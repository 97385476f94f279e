// SPDX-License-Identifier: GPL-2.0
/* The trace layer's errors (trace/fail.h). */
#include <stdarg.h>

#include "trace/fail.h"

int sa_trace_fail(GError **err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_propagate_error(err, g_error_new_valist(G_IO_ERROR, code, fmt, ap));
	va_end(ap);
	return -1;
}
