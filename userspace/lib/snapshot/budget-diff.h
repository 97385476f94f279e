/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two RAM budgets (budget.h) side by side, owner by owner: for two
 * kernel configurations booted on the same board, which owner grew and
 * by how much. Rows are matched by their stable key; A's tree order
 * first, then B's rows that A has not, each after its B predecessor's
 * place at the end.
 */
#ifndef SLABACCT_BUDGET_DIFF_H
#define SLABACCT_BUDGET_DIFF_H

#include "snapshot/budget.h"

struct sa_budget_delta {
	char *key, *label;
	int depth;
	bool leaf, unexplained;
	bool in_a, in_b;	/* the owner is in that budget */
	gint64 a_kb, b_kb;	/* 0 where not in it */
	gint64 d_kb;		/* b_kb - a_kb */
};

/* struct sa_budget_delta, RAM first; then "unexplained" (the total) */
GArray *sa_budget_diff(const struct sa_budget *a, const struct sa_budget *b);

#endif /* SLABACCT_BUDGET_DIFF_H */
