/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of the RAM budget (snapshot/budget.h): text (a tree under 80
 * columns), JSON and CSV. They format; the budget is computed before.
 */
#ifndef SLABACCT_EMIT_BUDGET_H
#define SLABACCT_EMIT_BUDGET_H

#include <stdbool.h>
#include <stdio.h>
#include <json-glib/json-glib.h>

#include "snapshot/budget.h"

void sa_budget_emit_text(GString *out, const struct sa_budget *b);
/*
 * {"schema_version":1, "kind":"slabacct-budget", "owners":[...], ...};
 * with in, a "raw" member holds each source's text as read.
 */
JsonNode *sa_budget_to_json(const struct sa_budget *b,
			    const struct sa_budget_input *in);
/* section,key,label,depth,kb,pct,leaf,source with a header */
void sa_budget_emit_csv(GString *out, const struct sa_budget *b);

/*
 * The budget section of report (report/agg/budget.h), from the sources
 * the trace stores: text (the tree of `slabacct budget`, under a
 * heading), JSON (member "budget": the object of `budget --json --raw`,
 * or {"available": false, "why"}), CSV (budget's CSV, each line led by
 * a "budget" column). Without the sources they say why.
 */
struct sa_emit;
struct sa_report;
void sa_text_budget(struct sa_emit *e, const struct sa_report *rep,
		    const void *result);
void sa_json_budget(struct sa_emit *e, const struct sa_report *rep,
		    const void *result);
void sa_csv_budget(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);

/*
 * slabacct diff: the budgets of the sources two snapshots (JSON text, as
 * a trace stores them; NULL: none) carry, owner by owner with B - A:
 * text "== budget ... ==" with a table owner, A, B, B - A; JSON an object
 * {a: {available, ram_kb, unexplained_kb | why}, b: ..., owners: [{key,
 * label, depth, leaf, a_kb, b_kb, d_kb}]}; CSV a table "budget,key,label,
 * depth,leaf,a_kb,b_kb,d_kb". A side without a budget is said, with why;
 * the owners need both. Nothing (NULL) when neither has the sources.
 */
void sa_budget_diff_text(FILE *f, const char *a, const char *b);
JsonNode *sa_budget_diff_json(const char *a, const char *b);
void sa_budget_diff_csv(FILE *f, const char *a, const char *b);

#endif /* SLABACCT_EMIT_BUDGET_H */
