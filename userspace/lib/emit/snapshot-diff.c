// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison of two snapshots (snapshot/diff.h), as text, JSON and
 * CSV.
 */
#include <math.h>
#include <string.h>

#include "snapshot/diff.h"
#include "emit/snapshot-emit.h"
#include "snapshot/figures.h"

static void num(GString *out, bool present, double v)
{
	if (!present)
		g_string_append_printf(out, " %13s", "-");
	else if (v == floor(v) && fabs(v) < 1e13)
		g_string_append_printf(out, " %13.0f", v);
	else
		g_string_append_printf(out, " %13.3f", v);
}

void sa_snapshot_emit_diff_text(GString *out, const GArray *d, int top)
{
	const char *section = NULL;
	int rows = 0;
	guint i;

	if (!d->len) {
		g_string_append(out, "  no difference in the system figures\n");
		return;
	}
	for (i = 0; i < d->len; i++) {
		const struct sa_snap_delta *x = &g_array_index(d,
				struct sa_snap_delta, i);
		char *label;

		if (section != x->section) {
			section = x->section;
			rows = 0;
			g_string_append_printf(out, "  %-34s %13s %13s %13s\n",
					       section, "A", "B", "B - A");
		}
		if (top > 0 && rows++ >= top)
			continue;
		label = *x->name ? g_strdup_printf("%s %s", x->name, x->field)
			: g_strdup(x->field);
		g_string_append_printf(out, "    %-32.32s", label);
		num(out, x->in_a, x->a);
		num(out, x->in_b, x->b);
		num(out, true, x->b - x->a);
		g_string_append_c(out, '\n');
		g_free(label);
	}
}

JsonNode *sa_snapshot_diff_to_json(const GArray *d)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *node;
	guint i;

	json_builder_begin_array(b);
	for (i = 0; i < d->len; i++) {
		const struct sa_snap_delta *x = &g_array_index(d,
				struct sa_snap_delta, i);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "section");
		json_builder_add_string_value(b, x->section);
		json_builder_set_member_name(b, "name");
		json_builder_add_string_value(b, x->name);
		json_builder_set_member_name(b, "field");
		json_builder_add_string_value(b, x->field);
		json_builder_set_member_name(b, "a");
		if (x->in_a)
			json_builder_add_double_value(b, x->a);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "b");
		if (x->in_b)
			json_builder_add_double_value(b, x->b);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "delta");
		json_builder_add_double_value(b, x->b - x->a);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	node = json_builder_get_root(b);
	g_object_unref(b);
	return node;
}

void sa_snapshot_emit_diff_csv(GString *out, const GArray *d)
{
	guint i;

	g_string_append(out, "section,name,field,a,b,delta\n");
	for (i = 0; i < d->len; i++) {
		const struct sa_snap_delta *x = &g_array_index(d,
				struct sa_snap_delta, i);

		sa_csv_cell(out, x->section);
		g_string_append_c(out, ',');
		sa_csv_cell(out, x->name);
		g_string_append_c(out, ',');
		sa_csv_cell(out, x->field);
		g_string_append_c(out, ',');
		if (x->in_a)
			sa_figure_append_value(out, x->a);
		g_string_append_c(out, ',');
		if (x->in_b)
			sa_figure_append_value(out, x->b);
		g_string_append_c(out, ',');
		sa_figure_append_value(out, x->b - x->a);
		g_string_append_c(out, '\n');
	}
}
