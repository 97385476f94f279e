// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol ranges from /proc/kallsyms text ("ADDR TYPE NAME [MODULE]").
 */
#include <errno.h>
#include <string.h>

#include "symbols/kallsyms-range.h"

int sa_kallsyms_range(const char *kallsyms, const char *sym, guint64 *lo,
		      guint64 *hi)
{
	const char *line = kallsyms;
	guint64 start = 0, next = G_MAXUINT64;
	gboolean found = FALSE;
	size_t symlen = strlen(sym);

	if (!symlen) {
		errno = EINVAL;
		return -1;
	}
	/* First the symbol, then the lowest address above it. */
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *name = strchr(line, ' ');

		if (name && (name = strchr(name + 1, ' '))) {
			size_t len = strcspn(++name, "\t\n ");

			if (len == symlen && !strncmp(name, sym, len)) {
				start = g_ascii_strtoull(line, NULL, 16);
				found = start != 0;
				if (found)
					break;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	for (line = kallsyms; line && *line;) {
		const char *nl = strchr(line, '\n');
		guint64 a = g_ascii_strtoull(line, NULL, 16);

		if (a > start && a < next)
			next = a;
		line = nl ? nl + 1 : NULL;
	}
	*lo = start;
	*hi = next == G_MAXUINT64 ? start + 1 : next;
	return 0;
}
