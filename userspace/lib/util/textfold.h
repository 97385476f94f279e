/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output under a width (80 columns by default): every line longer
 * than the width is folded at spaces, nothing is cut away. The emitters
 * lay their lines out to fit; this is the guarantee behind them, for
 * values wider than their columns (a path, a 10-digit count).
 */
#ifndef SLABACCT_TEXTFOLD_H
#define SLABACCT_TEXTFOLD_H

#include <stdio.h>

#include <glib.h>

/*
 * text with each line of more than width characters (UTF-8) folded: at
 * the last space that fits (a word goes whole onto the next line), or,
 * in a word longer than a whole line, at the width. A continuation line starts like its line with two more columns
 * of indent ("#   " for a "# " comment); in help text, an option's
 * description ("  -t, --top=N     show ...") continues under its own
 * first column. width <= 0: text unchanged. g_free the result.
 */
char *sa_text_fold(const char *text, int width);

/* Write text folded to width to f. Returns 0, or -1 (errno) on error. */
int sa_text_fold_write(FILE *f, const char *text, size_t len, int width);

#endif /* SLABACCT_TEXTFOLD_H */
