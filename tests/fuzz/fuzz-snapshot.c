// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a snapshot file as slabacct snapshot --load and
 * --compare read it (a raw snapshot, or a snapshot report that carries
 * one under "raw"; the same reader reads the snapshot a trace.dat
 * carries), then the parse of each source it holds (snapshot/view.c), its
 * comparison with itself, and the report in text, JSON and CSV; with
 * the RAM budget's sources (its "budget" member), the budget of them in
 * text, JSON and CSV.
 */
#include <json-glib/json-glib.h>

#include "emit/emit-budget.h"
#include "emit/snapshot-emit.h"
#include "snapshot/diff.h"
#include "snapshot/snapshot.h"
#include "snapshot/view.h"
#include "util/json-read.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void use(struct sa_snapshot *snap)
{
	struct sa_snapshot_emit_opts opts = { .top = 10, .raw = true };
	struct sa_snapshot_view *v = sa_snapshot_view_new(snap);
	GString *out = g_string_new(NULL);
	char *json = sa_snapshot_to_json(snap, false);
	GArray *d = sa_snapshot_diff(v, v);

	sa_snapshot_emit_text(out, v, &opts);
	json_node_unref(sa_snapshot_view_to_json(v, &opts));
	sa_snapshot_emit_csv(out, v);
	sa_snapshot_emit_diff_text(out, d, 0);
	json_node_unref(sa_snapshot_diff_to_json(d));
	sa_snapshot_emit_diff_csv(out, d);
	g_array_unref(d);
	/* the RAM budget of its sources, as report --what budget */
	if (snap->budget) {
		struct sa_budget *b = sa_budget_compute(snap->budget, NULL);

		if (b) {
			sa_budget_emit_text(out, b);
			sa_budget_emit_csv(out, b);
			json_node_unref(sa_budget_to_json(b, snap->budget));
			sa_budget_free(b);
		}
	}
	g_free(json);
	g_string_free(out, TRUE);
	sa_snapshot_view_free(v);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sa_snapshot *snap = NULL;
	JsonNode *root, *node;
	GError *err = NULL;

	/* as cmd-snapshot.c's load(), through the one JSON reader */
	root = sa_json_read((const char *)data, size, "fuzz.json", &err);
	if (!root) {
		g_clear_error(&err);
		return 0;
	}
	node = root;
	if (JSON_NODE_HOLDS_OBJECT(root) &&
	    json_object_has_member(json_node_get_object(root), "raw"))
		node = json_object_get_member(json_node_get_object(root),
					      "raw");
	snap = sa_snapshot_from_node(node, &err);
	g_clear_error(&err);
	if (snap) {
		use(snap);
		sa_snapshot_free(snap);
	}
	json_node_unref(root);
	return 0;
}
