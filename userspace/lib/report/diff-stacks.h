/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stacks of two recordings side by side, for the diff page's
 * differential flame graph (report/diff-stacks.c): each stack (its
 * frames outermost first, then the row's --by caller name, as report
 * --folded makes the line) with its weights in A and in B.
 */
#ifndef SLABACCT_DIFF_STACKS_H
#define SLABACCT_DIFF_STACKS_H

#include <glib.h>

struct sa_report;

enum { SA_DSW_ALLOCS, SA_DSW_BYTES, SA_DSW_LIVE_BYTES, SA_DSW_SLACK,
       SA_DSW_NR };

struct sa_diff_stack {
	char **frames;			/* NULL-terminated, the leaf last */
	guint64 w[2][SA_DSW_NR];	/* [A, B][weight] */
};

/*
 * The stacks of the call-site sections of a and b (read --by stack),
 * sorted by their folded line. Returns a GPtrArray of struct
 * sa_diff_stack * that frees them.
 */
GPtrArray *sa_diff_stacks(const struct sa_report *a,
			  const struct sa_report *b);

#endif /* SLABACCT_DIFF_STACKS_H */
