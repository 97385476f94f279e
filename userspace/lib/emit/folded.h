/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The folded stacks' pieces that report --folded (emit/folded.c) and
 * diff --folded (emit/folded-diff.c) share: a row's weight by the key,
 * and its "FRAME;...;LEAF" text.
 */
#ifndef SLABACCT_EMIT_FOLDED_H
#define SLABACCT_EMIT_FOLDED_H

#include "emit/emit.h"
#include "report/agg/callsite.h"

/* s's weight by key: bytes allocated, allocations, live bytes, slack */
guint64 sa_fold_weight(const struct sa_site *s, enum sa_fold_key key);
/*
 * s's stack as one folded line's text, outermost frame first, then its
 * leaf (a control character in a name, and a ';' in the leaf, as '_').
 * g_free it.
 */
char *sa_fold_stack(const struct sa_site *s);

#endif /* SLABACCT_EMIT_FOLDED_H */
