// SPDX-License-Identifier: GPL-2.0
/*
 * The messages of the command layers (cli/ and the BPF tools' front ends):
 * "slabacct CMD: message" on standard error. Library code never calls
 * these: it returns its errors.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/escape.h"
#include "util/msg.h"

/* Messages quote the input (file names, tokens): escaped, one line. */
static void vmsg(const char *kind, const char *cmd, const char *fmt,
		 va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);

	fprintf(stderr, "slabacct%s%s: %s%s\n", cmd ? " " : "",
		cmd ? cmd : "", kind, sa_esc(msg));
	g_free(msg);
}

void sa_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", cmd, fmt, ap);
	va_end(ap);
}

void sa_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", cmd, fmt, ap);
	va_end(ap);
}
