// SPDX-License-Identifier: GPL-2.0
/*
 * Notes (util/notes.h).
 */
#include <string.h>

#include "util/notes.h"

void sa_notes_addv(GPtrArray *notes, const char *fmt, va_list ap)
{
	char *s = g_strdup_vprintf(fmt, ap);
	guint i;

	for (i = 0; i < notes->len; i++)
		if (!strcmp(notes->pdata[i], s)) {
			g_free(s);
			return;
		}
	g_ptr_array_add(notes, s);
}

void sa_notes_add(GPtrArray *notes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sa_notes_addv(notes, fmt, ap);
	va_end(ap);
}
