// SPDX-License-Identifier: GPL-2.0
/*
 * System snapshots in traces: the "system" sections of report and diff
 * (the capture for the recorder is snapshot/snapshot.c's).
 */
#include <string.h>

#include "snapshot/diff.h"
#include "emit/snapshot-emit.h"
#include "emit/snapshot-origin.h"

struct loaded {
	struct sa_snapshot *snap;
	struct sa_snapshot_view *view;
};

static bool load(const char *json, struct loaded *l)
{
	memset(l, 0, sizeof(*l));
	if (json)
		l->snap = sa_snapshot_from_json(json, "the system snapshot",
						NULL);
	if (!l->snap)
		return false;
	l->view = sa_snapshot_view_new(l->snap);
	return true;
}

static void unload(struct loaded *l)
{
	sa_snapshot_view_free(l->view);
	sa_snapshot_free(l->snap);
}

static void put(FILE *f, GString *s)
{
	fwrite(s->str, 1, s->len, f);
	g_string_truncate(s, 0);
}

static void one_text(FILE *f, GString *s, const char *title,
		     const struct loaded *l)
{
	if (l->view)
		sa_snapshot_emit_system_text(s, title, l->view);
	else
		g_string_append_printf(s, "%s\n  not available\n", title);
	put(f, s);
}

static void pair_text(FILE *f, const char *a_json, const char *b_json,
		      const char *heading, const char *a_title,
		      const char *b_title, const char *change_title, int top)
{
	struct loaded a, b;
	GString *s;

	if (!a_json && !b_json)
		return;
	load(a_json, &a);
	load(b_json, &b);
	s = g_string_new(NULL);
	fprintf(f, "\n== %s ==\n", heading);
	one_text(f, s, a_title, &a);
	one_text(f, s, b_title, &b);
	if (a.view && b.view) {
		GArray *d = sa_snapshot_diff(a.view, b.view);

		g_string_append_printf(s, "%s\n", change_title);
		sa_snapshot_emit_diff_text(s, d, top);
		put(f, s);
		g_array_unref(d);
	}
	g_string_free(s, TRUE);
	unload(&a);
	unload(&b);
}

void sa_snapshot_origin_text(FILE *f, const char *start, const char *end)
{
	pair_text(f, start, end, "system (slabacct snapshot)", "at start:",
		  "at end:", "changes, start (A) -> end (B):", 3);
}

static JsonNode *view_json(const struct loaded *l)
{
	return l->view ? sa_snapshot_system_to_json(l->view) :
		json_node_new(JSON_NODE_NULL);
}

static JsonNode *pair_json(const char *a_json, const char *b_json,
			   const char *a_name, const char *b_name)
{
	JsonObject *o;
	JsonNode *n;
	struct loaded a, b;

	if (!a_json && !b_json)
		return json_node_new(JSON_NODE_NULL);
	load(a_json, &a);
	load(b_json, &b);
	o = json_object_new();
	json_object_set_member(o, a_name, view_json(&a));
	json_object_set_member(o, b_name, view_json(&b));
	if (a.view && b.view) {
		GArray *d = sa_snapshot_diff(a.view, b.view);

		json_object_set_member(o, "changes",
				       sa_snapshot_diff_to_json(d));
		g_array_unref(d);
	}
	n = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(n, o);
	unload(&a);
	unload(&b);
	return n;
}

JsonNode *sa_snapshot_origin_json(const char *start, const char *end)
{
	return pair_json(start, end, "start", "end");
}

static void one_csv(FILE *f, const char *which, const struct loaded *l)
{
	const struct sa_memfree *m;
	const struct sa_slab_table *t;

	if (!l->view) {
		fprintf(f, "# system_%s: not available\n", which);
		return;
	}
	m = &l->view->mem;
	if (l->view->meminfo)
		fprintf(f, "# system_%s_mem_total_kb: %" G_GUINT64_FORMAT "\n"
			"# system_%s_mem_available_kb: %" G_GUINT64_FORMAT "\n"
			"# system_%s_slab_kb: %" G_GUINT64_FORMAT "\n"
			"# system_%s_swap_used_kb: %" G_GUINT64_FORMAT "\n",
			which, m->total, which, m->available, which, m->slab,
			which, m->swap_used);
	t = sa_view_slab(l->view);
	if (t)
		fprintf(f, "# system_%s_slab_space: %" G_GUINT64_FORMAT "\n"
			"# system_%s_slab_loss: %" G_GUINT64_FORMAT "\n",
			which, t->tot.space, which, t->tot.loss);
	if (sa_view_has(l->view, SA_SRC_PSI))
		fprintf(f, "# system_%s_psi_some_avg10: %.2f\n", which,
			l->view->psi.some.avg10);
	if (l->view->ooms)
		fprintf(f, "# system_%s_oom_kills: %u\n", which,
			l->view->ooms->len);
}

static void pair_csv(FILE *f, const char *a_json, const char *b_json,
		     const char *a_name, const char *b_name)
{
	struct loaded a, b;

	if (!a_json && !b_json)
		return;
	load(a_json, &a);
	load(b_json, &b);
	one_csv(f, a_name, &a);
	one_csv(f, b_name, &b);
	unload(&a);
	unload(&b);
}

void sa_snapshot_origin_csv(FILE *f, const char *start, const char *end)
{
	pair_csv(f, start, end, "start", "end");
}

void sa_snapshot_origin_diff_csv(FILE *f, const char *a, const char *b)
{
	pair_csv(f, a, b, "a", "b");
}

void sa_snapshot_origin_diff_text(FILE *f, const char *a, const char *b)
{
	pair_text(f, a, b, "system (slabacct snapshot at the end of each)",
		  "A:", "B:", "changes, A -> B:", 5);
}

JsonNode *sa_snapshot_origin_diff_json(const char *a, const char *b)
{
	return pair_json(a, b, "a", "b");
}
