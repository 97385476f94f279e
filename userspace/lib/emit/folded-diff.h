/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff --folded: the stacks of two recordings folded (as report
 * --folded writes them), each line's weight the change from A to B.
 */
#ifndef SLABACCT_EMIT_FOLDED_DIFF_H
#define SLABACCT_EMIT_FOLDED_DIFF_H

#include <stdio.h>

#include "emit/emit.h"

/*
 * Write to out one line per stack of a or b, "FRAME;...;LEAF DELTA",
 * DELTA the key's weight in b minus that in a (signed; lines of no
 * change left out), sorted. A row with no stack is its leaf alone, as in
 * report --folded. Returns 0, or -1 (errno) on a write error.
 */
int sa_folded_diff_write(FILE *out, const struct sa_report *a,
			 const struct sa_report *b, enum sa_fold_key key);

#endif /* SLABACCT_EMIT_FOLDED_DIFF_H */
