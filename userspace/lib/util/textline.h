/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A line of a text input (a /proc file or a saved copy) taken apart:
 * tokens separated by spaces, decimal numbers checked for overflow, and
 * errors that name the line and the column.
 */
#ifndef SLABACCT_TEXTLINE_H
#define SLABACCT_TEXTLINE_H

#include <glib.h>

#include "util/input-file.h"

struct sa_line {
	const char *s;			/* not NUL-terminated */
	size_t len;
	guint64 no;			/* from 1 */
};

/*
 * The next token separated by spaces at or after *pos: *tok and *tlen,
 * and *pos moved past it. FALSE at the end of the line.
 */
gboolean sa_line_token(const struct sa_line *l, const char **pos,
		       const char **tok, size_t *tlen);

/*
 * All the tokens of l, as sa_line_token finds them, each a copy, in a
 * NULL-terminated vector (g_strfreev it); *n is their count.
 */
char **sa_line_fields(const struct sa_line *l, int *n);

/*
 * Set *error (domain, code) to "line N, column C: MESSAGE", the column
 * that of at (within l).
 */
G_GNUC_PRINTF(6, 7)
void sa_line_error(GError **error, GQuark domain, int code,
		   const struct sa_line *l, const char *at,
		   const char *fmt, ...);

/*
 * The len bytes at s as a decimal number: digits only (sa_dec_s64: a
 * leading '-' too), within the type. FALSE, with *v undefined, if not.
 */
gboolean sa_dec_u64(const char *s, size_t len, guint64 *v);
gboolean sa_dec_s64(const char *s, size_t len, gint64 *v);

/*
 * The len bytes at text, line by line, as sa_input_lines reads a file: fn
 * gets each line (without its '\n'; the last one also when it has none;
 * none for an empty text) until it returns FALSE (its error set) or the
 * text ends. Returns TRUE at the end of the text, FALSE as fn did.
 */
gboolean sa_text_lines(const char *text, size_t len, sa_input_line_fn fn,
		       void *data, GError **err);

#endif /* SLABACCT_TEXTLINE_H */
