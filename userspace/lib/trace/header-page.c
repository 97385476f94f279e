// SPDX-License-Identifier: GPL-2.0
/* The ring-buffer page layout of a header_page text (trace/header-page.h). */
#include <string.h>

#include <event-parse.h>
#include <glib.h>

#include "trace/header-page.h"

/* header_page is a few hundred bytes; anything far larger is not one */
#define MAX_HEADER_PAGE	(64u << 10)

int sa_header_page_long_size(const char *text, size_t len)
{
	struct tep_handle *tep;
	char *copy;
	int size = -1, ts;

	if (!text || !len || len > MAX_HEADER_PAGE)
		return -1;
	tep = tep_alloc();
	if (!tep)
		return -1;
	/* the parser reads a NUL-terminated, writable copy */
	copy = g_malloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = 0;
	/* the long size given is used only for a header_page it cannot read */
	if (!tep_parse_header_page(tep, copy, len, 0)) {
		size = tep_get_header_page_size(tep);
		ts = tep_get_header_timestamp_size(tep);
		if (ts != 8 || (size != 4 && size != 8))
			size = -1;
	}
	g_free(copy);
	tep_free(tep);
	return size;
}
