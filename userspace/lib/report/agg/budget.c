// SPDX-License-Identifier: GPL-2.0
/*
 * The budget section (report/agg/budget.h): the budget of the sources
 * the trace's snapshot at its end carries.
 */
#include "report/agg/budget.h"
#include "snapshot/snapshot.h"

static void *budget_create(const struct sa_report_opts *opts,
			   struct sa_pipeline *p)
{
	return g_new0(char, 1);
}

static void budget_event(void *state, struct sa_rec *r)
{
}

static void *budget_finish(void *state, struct sa_report *rep)
{
	struct sa_budget_result *res = g_new0(struct sa_budget_result, 1);
	struct sa_snapshot *snap;
	GError *e = NULL;

	if (!rep->origin.snapshot_end) {
		res->why = g_strdup("the trace carries no system snapshot at "
				    "its end (recorded with --no-snapshot, "
				    "or not by slabacct)");
		return res;
	}
	snap = sa_snapshot_from_json(rep->origin.snapshot_end,
				     "the system snapshot at the end", &e);
	if (!snap) {
		res->why = g_strdup_printf("its system snapshot at the end "
					   "cannot be read: %s", e->message);
		g_error_free(e);
		return res;
	}
	if (!snap->budget) {
		res->why = g_strdup("its system snapshot has no budget sources "
				    "(recorded by a slabacct before the "
				    "budget)");
	} else {
		res->in = snap->budget;
		snap->budget = NULL;
		res->budget = sa_budget_compute(res->in, &e);
		if (!res->budget) {
			res->why = g_strdup(e->message);
			g_error_free(e);
		}
	}
	sa_snapshot_free(snap);
	return res;
}

static void budget_destroy(void *state)
{
	g_free(state);
}

static void budget_free_result(void *result)
{
	struct sa_budget_result *res = result;

	if (!res)
		return;
	sa_budget_free(res->budget);
	sa_budget_input_free(res->in);
	g_free(res->why);
	g_free(res);
}

const struct sa_agg sa_agg_budget = {
	.events = 0,
	.create = budget_create,
	.event = budget_event,
	.finish = budget_finish,
	.destroy = budget_destroy,
	.free_result = budget_free_result,
};
