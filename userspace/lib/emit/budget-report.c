// SPDX-License-Identifier: GPL-2.0
/*
 * The budget section of report in text, JSON and CSV
 * (emit/emit-budget.h): the formatting of `slabacct budget`, on the
 * sources the trace stores.
 */
#include <string.h>

#include "emit/emit.h"
#include "emit/emit-budget.h"
#include "report/agg/budget.h"
#include "util/textfold.h"

void sa_text_budget(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_budget_result *r = result;
	GString *s;
	char *t;

	fprintf(e->out, "\n== budget (the RAM by owner, kB, at the end of "
		"the trace) ==\n");
	if (!r->budget) {
		fprintf(e->out, "# not available: %s\n", r->why);
		return;
	}
	s = g_string_new(NULL);
	sa_budget_emit_text(s, r->budget);
	t = sa_text_fold(s->str, 80);
	fputs(t, e->out);
	g_free(t);
	g_string_free(s, TRUE);
}

void sa_json_budget(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_budget_result *r = result;
	JsonBuilder *b = e->jb;

	json_builder_set_member_name(b, "budget");
	if (!r->budget) {
		json_builder_begin_object(b);
		sa_json_put_bool(b, "available", false);
		sa_json_put_str(b, "why", r->why);
		json_builder_end_object(b);
		return;
	}
	json_builder_add_value(b, sa_budget_to_json(r->budget, r->in));
}

void sa_csv_budget(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_budget_result *r = result;
	GString *s = g_string_new(NULL);
	char **lines, **l;

	fputc('\n', e->out);
	if (!r->budget) {
		fputs("budget,section,key,label,depth,kb,pct,leaf,source\n",
		      e->out);
		fprintf(e->out, "# budget not available: %s\n", r->why);
		g_string_free(s, TRUE);
		return;
	}
	sa_budget_emit_csv(s, r->budget);
	lines = g_strsplit(s->str, "\n", -1);
	for (l = lines; *l; l++)
		if (**l)
			fprintf(e->out, "budget,%s\n", *l);
	g_strfreev(lines);
	g_string_free(s, TRUE);
}
