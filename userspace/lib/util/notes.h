/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notes: what could not be computed, and why ("kmalloc has no field
 * 'bytes_req'"), kept in order, each once.
 */
#ifndef SLABACCT_NOTES_H
#define SLABACCT_NOTES_H

#include <stdarg.h>
#include <glib.h>

/* Add a note to notes (a GPtrArray of char *, freed with g_free), once. */
void sa_notes_add(GPtrArray *notes, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void sa_notes_addv(GPtrArray *notes, const char *fmt, va_list ap);

#endif /* SLABACCT_NOTES_H */
