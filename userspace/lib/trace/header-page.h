/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layout of the ring-buffer pages, as the kernel describes it in
 * events/header_page (saved in every trace.dat): a u64 timestamp, then
 * the commit field, a local_t, as wide as the KERNEL's long, then the
 * data. That width, not the long-size byte of a trace.dat header nor the
 * sizeof(long) of the program that wrote or reads it, is what the pages
 * hold: a 32-bit kernel's pages have 4-byte commit fields even in a file
 * trace-cmd converted on a 64-bit machine (it writes 8 there), and a
 * 32-bit slabacct on a 64-bit kernel records 8-byte ones.
 */
#ifndef SLABACCT_TRACE_HEADER_PAGE_H
#define SLABACCT_TRACE_HEADER_PAGE_H

#include <stddef.h>

/*
 * The width of the commit field (4 or 8) that the len bytes of
 * header_page text describe, read by libtraceevent's own parser; -1 if
 * the text does not describe a timestamp of 8 bytes followed by a commit
 * field of 4 or 8 (an empty text: a kernel before 2.6.31).
 */
int sa_header_page_long_size(const char *text, size_t len);

#endif /* SLABACCT_TRACE_HEADER_PAGE_H */
