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

#endif /* SLABACCT_EMIT_BUDGET_H */
