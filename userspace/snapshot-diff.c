// SPDX-License-Identifier: GPL-2.0
/*
 * The difference of two snapshots, from their flattened figures.
 */
#include <math.h>
#include <string.h>

#include "snapshot-diff.h"
#include "snapshot-figures.h"

static bool compared(const struct sa_figure *f)
{
	static const char *const sections[] = {
		"memory", "slabinfo_totals", "slab_sysfs_totals", "psi", "oom",
		"unusable_index",
	};
	size_t i;

	if (f->text)
		return false;
	if (!strcmp(f->section, "slabinfo_cache") ||
	    !strcmp(f->section, "slab_sysfs_cache"))
		return !strcmp(f->field, "size") || !strcmp(f->field, "loss") ||
			!strcmp(f->field, "active_objs");
	for (i = 0; i < G_N_ELEMENTS(sections); i++)
		if (!strcmp(f->section, sections[i]))
			return true;
	return false;
}

static char *key(const struct sa_figure *f)
{
	return g_strdup_printf("%s\x1f%s\x1f%s", f->section, f->name,
			       f->field);
}

static void delta_clear(gpointer p)
{
	struct sa_snap_delta *d = p;

	g_free(d->name);
	g_free(d->field);
}

static int section_rank(const char *s)
{
	static const char *const order[] = {
		"memory", "slabinfo_totals", "slab_sysfs_totals",
		"slabinfo_cache", "slab_sysfs_cache", "unusable_index", "psi",
		"oom",
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(order); i++)
		if (!strcmp(s, order[i]))
			return i;
	return G_N_ELEMENTS(order);
}

static int by_section_delta(gconstpointer pa, gconstpointer pb)
{
	const struct sa_snap_delta *x = pa, *y = pb;
	int r = section_rank(x->section) - section_rank(y->section);
	double dx = fabs(x->b - x->a), dy = fabs(y->b - y->a);

	if (r)
		return r;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	r = strcmp(x->name, y->name);
	return r ? r : strcmp(x->field, y->field);
}

GArray *sa_snapshot_diff(const struct sa_snapshot_view *a,
			 const struct sa_snapshot_view *b)
{
	GArray *fa = sa_snapshot_figures(a), *fb = sa_snapshot_figures(b);
	GHashTable *idx = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	GArray *out = g_array_new(FALSE, TRUE, sizeof(struct sa_snap_delta));
	guint i;

	g_array_set_clear_func(out, delta_clear);
	for (i = 0; i < fa->len; i++) {
		struct sa_figure *f = &g_array_index(fa, struct sa_figure, i);
		struct sa_snap_delta d = { 0 };

		if (!compared(f))
			continue;
		d.section = f->section;
		d.name = g_strdup(f->name);
		d.field = g_strdup(f->field);
		d.a = f->value;
		d.in_a = true;
		g_array_append_val(out, d);
		g_hash_table_insert(idx, key(f), GUINT_TO_POINTER(out->len));
	}
	for (i = 0; i < fb->len; i++) {
		struct sa_figure *f = &g_array_index(fb, struct sa_figure, i);
		char *k;
		guint pos;

		if (!compared(f))
			continue;
		k = key(f);
		pos = GPOINTER_TO_UINT(g_hash_table_lookup(idx, k));
		g_free(k);
		if (pos) {
			struct sa_snap_delta *d = &g_array_index(out,
					struct sa_snap_delta, pos - 1);

			d->b = f->value;
			d->in_b = true;
		} else {
			struct sa_snap_delta d = {
				.section = f->section,
				.name = g_strdup(f->name),
				.field = g_strdup(f->field),
				.b = f->value,
				.in_b = true,
			};

			g_array_append_val(out, d);
		}
	}
	/* keep what changed; section names are static in both arrays */
	for (i = out->len; i-- > 0;) {
		struct sa_snap_delta *d = &g_array_index(out,
				struct sa_snap_delta, i);

		d->section = g_intern_string(d->section);
		if (d->in_a && d->in_b && d->a == d->b)
			g_array_remove_index(out, i);
	}
	g_array_sort(out, by_section_delta);
	g_hash_table_unref(idx);
	g_array_unref(fa);
	g_array_unref(fb);
	return out;
}

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
