// SPDX-License-Identifier: GPL-2.0
/*
 * Two RAM budgets side by side (budget-diff.h).
 */
#include <string.h>

#include "snapshot/budget-diff.h"

static void clear(gpointer p)
{
	struct sa_budget_delta *d = p;

	g_free(d->key);
	g_free(d->label);
}

static const struct sa_budget_row *find(const struct sa_budget *b,
					const char *key)
{
	guint i;

	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		if (!strcmp(r->key, key))
			return r;
	}
	return NULL;
}

static void put(GArray *out, const struct sa_budget_row *ra,
		const struct sa_budget_row *rb)
{
	const struct sa_budget_row *r = ra ? ra : rb;
	struct sa_budget_delta d = {
		.key = g_strdup(r->key), .label = g_strdup(r->label),
		.depth = r->depth, .leaf = r->leaf,
		.unexplained = r->unexplained,
		.in_a = ra != NULL, .in_b = rb != NULL,
		.a_kb = ra ? ra->kb : 0, .b_kb = rb ? rb->kb : 0,
	};

	d.d_kb = d.b_kb - d.a_kb;
	g_array_append_val(out, d);
}

GArray *sa_budget_diff(const struct sa_budget *a, const struct sa_budget *b)
{
	GArray *out = g_array_new(FALSE, TRUE,
				  sizeof(struct sa_budget_delta));
	struct sa_budget_row ua = { .key = "unexplained",
				    .label = "unexplained",
				    .kb = a->unexplained_kb };
	struct sa_budget_row ub = ua;
	guint i;

	g_array_set_clear_func(out, clear);
	for (i = 0; i < a->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(a->rows,
				struct sa_budget_row, i);

		put(out, r, find(b, r->key));
	}
	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		if (!find(a, r->key))
			put(out, NULL, r);
	}
	ub.kb = b->unexplained_kb;
	put(out, &ua, &ub);
	return out;
}
