// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: capturing a snapshot from the captured trees, its JSON
 * form, sources that are missing or malformed, the emitters and the diff.
 */
#include <string.h>

#include <check.h>
#include <glib/gstdio.h>

#include "snapshot/diff.h"
#include "emit/snapshot-emit.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static struct sa_snapshot *capture(const char *tree)
{
	char *root = tree_path(tree);
	GError *e = NULL;
	struct sa_snapshot *s = sa_snapshot_capture(root, &e);

	ck_assert_msg(s != NULL, "%s", e ? e->message : "");
	g_free(root);
	return s;
}

START_TEST(guest_has_everything)
{
	static const char *const trees[] = { "6.1", "6.12-cloud" };
	struct sa_snapshot *s = capture(trees[_i]);
	struct sa_snapshot_view *v = sa_snapshot_view_new(s);
	int i;

	for (i = 0; i < SA_SRC_NR; i++)
		ck_assert_msg(sa_view_has(v, i), "%s: %s",
			      sa_snap_source_name(i), v->why[i]);
	ck_assert_str_eq(s->release, _i ? "6.12.117+deb12-cloud-amd64" :
			 "6.1.0-56-amd64");
	ck_assert(s->uptime > 0);
	ck_assert_uint_eq(s->samples->len, 1);
	ck_assert_uint_eq(v->rates->len, 0);
	ck_assert_ptr_nonnull(v->slab_sysfs);
	ck_assert(sa_view_slab(v) == v->slab_sysfs);
	ck_assert_uint_eq(v->ooms->len, 1);
	sa_snapshot_view_free(v);
	sa_snapshot_free(s);
}
END_TEST

START_TEST(host_missing_sources)
{
	struct sa_snapshot *s = capture("host");
	struct sa_snapshot_view *v = sa_snapshot_view_new(s);
	GString *out = g_string_new(NULL);

	ck_assert(sa_view_has(v, SA_SRC_MEMINFO));
	ck_assert(sa_view_has(v, SA_SRC_SLABINFO));
	ck_assert(!sa_view_has(v, SA_SRC_SLAB_SYSFS));
	ck_assert(!sa_view_has(v, SA_SRC_PROCS));
	ck_assert(!sa_view_has(v, SA_SRC_OOMLOG));
	ck_assert(sa_view_slab(v) == v->slab_proc);
	sa_snapshot_emit_text(out, v, NULL);
	ck_assert_ptr_nonnull(strstr(out->str, "dev/kmsg: not available"));
	ck_assert_ptr_nonnull(strstr(out->str,
		"proc/PID/smaps_rollup: not available"));
	ck_assert_ptr_nonnull(strstr(out->str, "objsize is the slot size"));
	g_string_free(out, TRUE);
	sa_snapshot_view_free(v);
	sa_snapshot_free(s);
}
END_TEST

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = g_build_filename(dir, rel, NULL);
	char *d = g_path_get_dirname(path);

	ck_assert_int_eq(g_mkdir_with_parents(d, 0755), 0);
	ck_assert(g_file_set_contents(path, text, -1, NULL));
	g_free(d);
	g_free(path);
}

/* A container without slabinfo, a kernel without PSI, broken files */
START_TEST(malformed_and_missing)
{
	char *dir = g_dir_make_tmp("snapshot-XXXXXX", NULL);
	char *meminfo = tree_read("6.1", "proc/meminfo");
	struct sa_snapshot *s;
	struct sa_snapshot_view *v;
	GString *out = g_string_new(NULL);
	JsonNode *j;
	char *cmd;

	put(dir, "proc/meminfo", meminfo);
	put(dir, "proc/buddyinfo", "Node 0, zone DMA 1 2 three\n");
	put(dir, "proc/vmstat", "");
	put(dir, "proc/swaps", "no header\n");
	put(dir, "proc/zoneinfo", "nothing\n");
	put(dir, "proc/uptime", "12.50 20.00\n");
	s = sa_snapshot_capture(dir, NULL);
	ck_assert_ptr_nonnull(s);
	v = sa_snapshot_view_new(s);
	ck_assert(sa_view_has(v, SA_SRC_MEMINFO));
	ck_assert_uint_eq(v->mem.available, 433520);
	ck_assert(!sa_view_has(v, SA_SRC_SLABINFO));
	ck_assert(!sa_view_has(v, SA_SRC_PSI));
	ck_assert_str_eq(v->why[SA_SRC_BUDDYINFO],
			 "buddyinfo: line 1 is malformed");
	ck_assert_str_eq(v->why[SA_SRC_VMSTAT], "proc/vmstat is empty");
	ck_assert(!sa_view_has(v, SA_SRC_SWAPS));
	ck_assert(!sa_view_has(v, SA_SRC_ZONEINFO));
	ck_assert_uint_eq(s->samples->len, 0);
	/* every emitter still works */
	sa_snapshot_emit_text(out, v, NULL);
	ck_assert_ptr_nonnull(strstr(out->str, "proc/slabinfo: not available"));
	ck_assert_ptr_nonnull(strstr(out->str,
		"proc/pressure/memory: not available"));
	ck_assert_ptr_nonnull(strstr(out->str, "433520"));
	g_string_truncate(out, 0);
	sa_snapshot_emit_csv(out, v);
	ck_assert_ptr_nonnull(strstr(out->str, "source,psi_memory,available,0"));
	g_string_truncate(out, 0);
	sa_snapshot_emit_system_text(out, "System", v);
	ck_assert_ptr_nonnull(strstr(out->str, "available 433520 kB"));
	j = sa_snapshot_view_to_json(v, NULL);
	ck_assert(json_node_is_null(json_object_get_member(
				json_node_get_object(j), "psi")));
	json_node_unref(j);
	g_string_free(out, TRUE);
	sa_snapshot_view_free(v);
	sa_snapshot_free(s);
	/* no proc/ at all is an error */
	ck_assert_ptr_null(sa_snapshot_capture("/nonexistent-root", NULL));
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
	g_free(meminfo);
	g_free(dir);
}
END_TEST

START_TEST(json_roundtrip)
{
	struct sa_snapshot *s = capture("6.12-cloud"), *t;
	char *json = sa_snapshot_to_json(s, false), *again;
	GError *e = NULL;
	int i;

	sa_snapshot_add_sample(s, tree_path("6.12-cloud"), NULL);
	g_free(json);
	json = sa_snapshot_to_json(s, false);
	t = sa_snapshot_from_json(json, "s.json", &e);
	ck_assert_msg(t != NULL, "%s", e ? e->message : "");
	for (i = 0; i < SA_SRC_NR; i++)
		ck_assert_str_eq(s->text[i], t->text[i]);
	ck_assert_uint_eq(t->samples->len, 2);
	ck_assert_int_eq(t->page_size, 4096);
	again = sa_snapshot_to_json(t, false);
	ck_assert_str_eq(json, again);
	g_free(again);
	sa_snapshot_free(t);
	ck_assert_ptr_null(sa_snapshot_from_json("{\"kind\":\"other\"}", "s.json",
						&e));
	g_clear_error(&e);
	ck_assert_ptr_null(sa_snapshot_from_json("[1,", "s.json", &e));
	g_clear_error(&e);
	/* the snapshot a trace.dat carries is read by the one JSON reader */
	g_free(json);
	json = g_strnfill(100000, '[');
	ck_assert_ptr_null(sa_snapshot_from_json(json, "s.json", &e));
	ck_assert_str_eq(e->message, "s.json: line 1: JSON nested deeper "
			 "than 64 levels, the most slabacct reads");
	g_clear_error(&e);
	ck_assert_ptr_null(sa_snapshot_from_json("", "s.json", &e));
	ck_assert_str_eq(e->message, "s.json: an empty file, no JSON value");
	g_clear_error(&e);
	g_free(json);
	sa_snapshot_free(s);
}
END_TEST

START_TEST(text_fits_80_columns)
{
	struct sa_snapshot *s = capture("6.1");
	struct sa_snapshot_view *v = sa_snapshot_view_new(s);
	GString *out = g_string_new(NULL);
	char **lines, **l;

	sa_snapshot_emit_text(out, v, NULL);
	sa_snapshot_emit_system_text(out, "System at start", v);
	lines = g_strsplit(out->str, "\n", -1);
	for (l = lines; *l; l++)
		ck_assert_msg(strlen(*l) <= 80, "too wide: '%s'", *l);
	/* the figures the unit tests of each source check */
	ck_assert_ptr_nonnull(strstr(out->str,
		"Mem:        466148       32628      433724      7464       16324"
		"      433520"));
	ck_assert_ptr_nonnull(strstr(out->str, "inode_cache"));
	ck_assert_ptr_nonnull(strstr(out->str, "killed 1575 (awk)"));
	g_strfreev(lines);
	g_string_free(out, TRUE);
	sa_snapshot_view_free(v);
	sa_snapshot_free(s);
}
END_TEST

START_TEST(csv_and_json)
{
	struct sa_snapshot *s = capture("6.1");
	struct sa_snapshot_view *v = sa_snapshot_view_new(s);
	struct sa_snapshot_emit_opts o = { .top = 3, .raw = true };
	GString *out = g_string_new(NULL);
	JsonNode *j;
	JsonObject *root, *mem, *slab;

	sa_snapshot_emit_csv(out, v);
	ck_assert(g_str_has_prefix(out->str, "section,name,field,value\n"));
	ck_assert_ptr_nonnull(strstr(out->str, "\nmemory,,available,433520\n"));
	ck_assert_ptr_nonnull(strstr(out->str,
		"\nslab_sysfs_cache,inode_cache,loss,544160\n"));
	ck_assert_ptr_nonnull(strstr(out->str,
		"\nunusable_index,node0/DMA,order10,0.1930\n"));
	j = sa_snapshot_view_to_json(v, &o);
	root = json_node_get_object(j);
	ck_assert_int_eq(json_object_get_int_member(root, "schema_version"), 1);
	mem = json_object_get_object_member(root, "memory");
	ck_assert_int_eq(json_object_get_int_member(mem, "available_kb"),
			 433520);
	slab = json_object_get_object_member(root, "slab");
	ck_assert_str_eq(json_object_get_string_member(slab, "origin"),
			 "sysfs");
	ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(
				slab, "top_by_loss")), 3);
	ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(
				slab, "totals"), "loss"), 900760);
	ck_assert(json_object_has_member(root, "raw"));
	json_node_unref(j);
	g_string_free(out, TRUE);
	sa_snapshot_view_free(v);
	sa_snapshot_free(s);
}
END_TEST

START_TEST(diff_61_612)
{
	struct sa_snapshot *a = capture("6.1"), *b = capture("6.12-cloud");
	struct sa_snapshot_view *va = sa_snapshot_view_new(a);
	struct sa_snapshot_view *vb = sa_snapshot_view_new(b);
	GArray *d = sa_snapshot_diff(va, vb), *none;
	GString *out = g_string_new(NULL);
	guint i;
	bool seen = false;

	for (i = 0; i < d->len; i++) {
		const struct sa_snap_delta *x = &g_array_index(d,
				struct sa_snap_delta, i);

		ck_assert(!(x->in_a && x->in_b && x->a == x->b));
		if (!strcmp(x->section, "memory") &&
		    !strcmp(x->field, "total")) {
			ck_assert(x->a == 466148 && x->b == 474752);
			seen = true;
		}
	}
	ck_assert(seen);
	ck_assert_str_eq(g_array_index(d, struct sa_snap_delta, 0).section,
			 "memory");
	sa_snapshot_emit_diff_text(out, d, 5);
	ck_assert_ptr_nonnull(strstr(out->str, "8604"));	/* total */
	g_string_truncate(out, 0);
	sa_snapshot_emit_diff_csv(out, d);
	ck_assert(g_str_has_prefix(out->str, "section,name,field,a,b,delta\n"));
	ck_assert_ptr_nonnull(strstr(out->str,
		"memory,,total,466148,474752,8604\n"));
	none = sa_snapshot_diff(va, va);
	ck_assert_uint_eq(none->len, 0);
	g_array_unref(none);
	g_array_unref(d);
	g_string_free(out, TRUE);
	sa_snapshot_view_free(va);
	sa_snapshot_view_free(vb);
	sa_snapshot_free(a);
	sa_snapshot_free(b);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("snapshot");

	tcase_add_loop_test(tc, guest_has_everything, 0, 2);
	tcase_add_test(tc, host_missing_sources);
	tcase_add_test(tc, malformed_and_missing);
	tcase_add_test(tc, json_roundtrip);
	tcase_add_test(tc, text_fits_80_columns);
	tcase_add_test(tc, csv_and_json);
	tcase_add_test(tc, diff_61_612);
	suite_add_tcase(s, tc);
	return s;
}
