/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of the RAM budget (snapshot/budget.h): text (a tree under 80
 * columns), JSON and CSV. They format; the budget is computed before.
 */
#ifndef SLABACCT_EMIT_BUDGET_H
#define SLABACCT_EMIT_BUDGET_H

#include <stdbool.h>
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

#endif /* SLABACCT_EMIT_BUDGET_H */
