/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The budget section: the RAM budget (snapshot/budget.h) of the system
 * the trace was recorded on, computed from the budget's sources stored
 * in the system snapshot at the end of the trace (record and boot collect
 * store them; older traces have none). It reads no event: the figures
 * are those `slabacct budget` shows live for the same sources.
 *
 * Not in --what all: a trace without the sources would show a section
 * that says so, in every older report. Asked by name on such a trace,
 * the report fails and says why (never a budget of zeros).
 */
#ifndef SLABACCT_AGG_BUDGET_H
#define SLABACCT_AGG_BUDGET_H

#include "report/report.h"
#include "snapshot/budget.h"

struct sa_budget_result {
	struct sa_budget *budget;	/* NULL: why says why */
	struct sa_budget_input *in;	/* the stored sources, or NULL */
	char *why;
};

extern const struct sa_agg sa_agg_budget;

#endif /* SLABACCT_AGG_BUDGET_H */
