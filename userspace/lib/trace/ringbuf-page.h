/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking one ring-buffer page (sub-buffer) of a trace.dat before
 * libtraceevent's kbuffer reads it. kbuffer trusts the page: it reads the
 * lost-events count stored after the data wherever the commit field puts
 * it, reads each event's header without looking at the commit, and steps
 * backwards on a negative padding length. So every page the report or
 * libtracecmd hands to kbuffer is walked here first, with kbuffer's own
 * rules (kbuffer-parse.c, the format after Linux 2.6.31): every header
 * and every event's data must lie inside the commit, the commit inside
 * the page, and each step must move forward.
 */
#ifndef SLABACCT_RINGBUF_PAGE_H
#define SLABACCT_RINGBUF_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

/* How the pages of a trace are laid out, as kbuffer reads them. */
struct sa_page_fmt {
	int long_size;		/* of the commit field: 4 or 8 */
	bool big_endian;
};

/*
 * Check the page at p, of which avail bytes are there to read (the page
 * size, or less at the end of a CPU's data). Returns 0, or -1 with *bad
 * set to the offset of the damage in the page and *why to what it is.
 */
int sa_ringbuf_page_check(const guint8 *p, size_t avail,
			  const struct sa_page_fmt *f, size_t *bad,
			  const char **why);

#endif /* SLABACCT_RINGBUF_PAGE_H */
