// SPDX-License-Identifier: GPL-2.0
/*
 * The budgets of two traces side by side (emit/emit-budget.h), for
 * slabacct diff: from the sources each trace's snapshot at its end
 * stores; nothing when neither has them.
 */
#include <string.h>

#include "emit/emit-budget.h"
#include "emit/snapshot-emit.h"
#include "snapshot/budget-diff.h"
#include "snapshot/snapshot.h"
#include "util/json.h"

struct side {
	bool sources;		/* the snapshot stores the budget's */
	struct sa_budget *b;	/* NULL: why */
	char *why;
};

static void load(const char *json, struct side *s)
{
	struct sa_snapshot *snap = NULL;
	GError *e = NULL;

	memset(s, 0, sizeof(*s));
	if (json)
		snap = sa_snapshot_from_json(json, "the system snapshot", &e);
	if (!snap || !snap->budget) {
		s->why = g_strdup(!json ? "no system snapshot at its end" :
				  !snap ? e->message :
				  "its snapshot has no budget sources");
		g_clear_error(&e);
		sa_snapshot_free(snap);
		return;
	}
	s->sources = true;
	s->b = sa_budget_compute(snap->budget, &e);
	if (!s->b) {
		s->why = g_strdup(e->message);
		g_error_free(e);
	}
	sa_snapshot_free(snap);
}

static void unload(struct side *s)
{
	sa_budget_free(s->b);
	g_free(s->why);
}

/* Both loaded; false (nothing to show) when neither has the sources. */
static bool load_pair(const char *a, const char *b, struct side s[2])
{
	load(a, &s[0]);
	load(b, &s[1]);
	if (s[0].sources || s[1].sources)
		return true;
	unload(&s[0]);
	unload(&s[1]);
	return false;
}

void sa_budget_diff_text(FILE *f, const char *a, const char *b)
{
	struct side s[2];
	GArray *d;
	guint i;
	int k;

	if (!load_pair(a, b, s))
		return;
	fprintf(f, "\n== budget (the RAM by owner, kB, at the end of each) "
		"==\n");
	for (k = 0; k < 2; k++)
		if (!s[k].b)
			fprintf(f, "# %c: not available: %s\n", "AB"[k],
				s[k].why);
	if (s[0].b && s[1].b) {
		d = sa_budget_diff(s[0].b, s[1].b);
		fprintf(f, "%-29s %11s %11s %11s\n", "owner", "A", "B",
			"B - A");
		for (i = 0; i < d->len; i++) {
			const struct sa_budget_delta *x = &g_array_index(d,
					struct sa_budget_delta, i);
			char label[64], av[24], bv[24], dv[24];

			if (!strcmp(x->key, "unexplained"))
				fputc('\n', f);
			g_snprintf(label, sizeof(label), "%*s%s",
				   2 * x->depth, "", x->label);
			g_snprintf(av, sizeof(av), "%" G_GINT64_FORMAT,
				   x->a_kb);
			g_snprintf(bv, sizeof(bv), "%" G_GINT64_FORMAT,
				   x->b_kb);
			/* a change has its sign; none is 0 */
			g_snprintf(dv, sizeof(dv), x->d_kb ? "%+" G_GINT64_FORMAT
				   : "%" G_GINT64_FORMAT, x->d_kb);
			fprintf(f, "%-29s %11s %11s %11s\n", label,
				x->in_a ? av : "-", x->in_b ? bv : "-", dv);
		}
		g_array_unref(d);
	}
	unload(&s[0]);
	unload(&s[1]);
}

JsonNode *sa_budget_diff_json(const char *a, const char *b)
{
	JsonBuilder *j;
	JsonNode *n;
	struct side s[2];
	guint i;
	int k;

	if (!load_pair(a, b, s))
		return NULL;
	j = json_builder_new();
	json_builder_begin_object(j);
	for (k = 0; k < 2; k++) {
		json_builder_set_member_name(j, k ? "b" : "a");
		json_builder_begin_object(j);
		sa_json_put_bool(j, "available", s[k].b != NULL);
		if (s[k].b) {
			sa_json_put_int(j, "ram_kb", s[k].b->ram_kb);
			sa_json_put_int(j, "unexplained_kb",
					s[k].b->unexplained_kb);
		} else {
			sa_json_put_str(j, "why", s[k].why);
		}
		json_builder_end_object(j);
	}
	if (s[0].b && s[1].b) {
		GArray *d = sa_budget_diff(s[0].b, s[1].b);

		json_builder_set_member_name(j, "owners");
		json_builder_begin_array(j);
		for (i = 0; i < d->len; i++) {
			const struct sa_budget_delta *x = &g_array_index(d,
					struct sa_budget_delta, i);

			json_builder_begin_object(j);
			sa_json_put_str(j, "key", x->key);
			sa_json_put_str(j, "label", x->label);
			sa_json_put_int(j, "depth", x->depth);
			sa_json_put_bool(j, "leaf", x->leaf);
			json_builder_set_member_name(j, "a_kb");
			if (x->in_a)
				json_builder_add_int_value(j, x->a_kb);
			else
				json_builder_add_null_value(j);
			json_builder_set_member_name(j, "b_kb");
			if (x->in_b)
				json_builder_add_int_value(j, x->b_kb);
			else
				json_builder_add_null_value(j);
			sa_json_put_int(j, "d_kb", x->d_kb);
			json_builder_end_object(j);
		}
		json_builder_end_array(j);
		g_array_unref(d);
	}
	json_builder_end_object(j);
	n = json_builder_get_root(j);
	g_object_unref(j);
	unload(&s[0]);
	unload(&s[1]);
	return n;
}

void sa_budget_diff_csv(FILE *f, const char *a, const char *b)
{
	struct side s[2];
	GString *out;
	GArray *d;
	guint i;
	int k;

	if (!load_pair(a, b, s))
		return;
	out = g_string_new("\nbudget,key,label,depth,leaf,a_kb,b_kb,d_kb\n");
	for (k = 0; k < 2; k++)
		if (!s[k].b)
			g_string_append_printf(out, "# budget_%c not "
					       "available: %s\n", "ab"[k],
					       s[k].why);
	if (s[0].b && s[1].b) {
		d = sa_budget_diff(s[0].b, s[1].b);
		for (i = 0; i < d->len; i++) {
			const struct sa_budget_delta *x = &g_array_index(d,
					struct sa_budget_delta, i);

			g_string_append(out, "budget,");
			sa_csv_cell(out, x->key);
			g_string_append_c(out, ',');
			sa_csv_cell(out, x->label);
			g_string_append_printf(out, ",%d,%d,", x->depth,
					       x->leaf);
			if (x->in_a)
				g_string_append_printf(out, "%"
						       G_GINT64_FORMAT, x->a_kb);
			g_string_append_c(out, ',');
			if (x->in_b)
				g_string_append_printf(out, "%"
						       G_GINT64_FORMAT, x->b_kb);
			g_string_append_printf(out, ",%" G_GINT64_FORMAT "\n",
					       x->d_kb);
		}
		g_array_unref(d);
	}
	fwrite(out->str, 1, out->len, f);
	g_string_free(out, TRUE);
	unload(&s[0]);
	unload(&s[1]);
}
