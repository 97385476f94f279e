/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings that come from a trace or a snapshot (process names, symbols,
 * cache and module names, the origin, a snapshot's caller column) are the
 * input's, not ours: a process name may carry ESC sequences that would
 * drive the terminal a text report is read on. Every text and CSV emitter
 * prints such strings through sa_esc(). (JSON is escaped by json-glib,
 * and the HTML page takes its strings from the JSON.)
 */
#ifndef SLABACCT_ESCAPE_H
#define SLABACCT_ESCAPE_H

#include <glib.h>

/*
 * s with each control character (C0, DEL and the C1 range U+0080..U+009F)
 * and each byte that is not part of valid UTF-8 written as \xNN, and each
 * backslash as \\. Returns s itself when there is nothing to escape (the
 * common case, no allocation), else an interned copy (g_intern_string:
 * it lives as long as the process). NULL gives NULL. Thread-safe.
 */
const char *sa_esc(const char *s);

/* The same, of the first len bytes of s, into a new string. */
char *sa_esc_len(const char *s, size_t len);

#endif /* SLABACCT_ESCAPE_H */
