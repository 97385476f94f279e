// SPDX-License-Identifier: GPL-2.0
/*
 * The difference of two snapshots, from their flattened figures.
 */
#include <math.h>
#include <string.h>

#include "snapshot/diff.h"
#include "snapshot/figures.h"

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
