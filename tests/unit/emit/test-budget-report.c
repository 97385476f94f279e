// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the budget section of report. The captured 6.1 guest's
 * sources (tests/data/proc/6.1-budget) stored in a system snapshot, read
 * back, must give the section in text, JSON and CSV that `slabacct
 * budget --root` gives live for the same tree: its golden outputs,
 * tests/data/budget/6.1.{text,json,csv}, byte for byte. Then the
 * snapshot's budget member: round trip, older snapshots without it, and
 * hostile ones; and the section's error paths (say why, never zeros).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "emit/emit-budget.h"
#include "report/agg/budget.h"
#include "report/pipeline.h"
#include "snapshot/snapshot.h"
#include "util/json.h"

Suite *suite(void);

static char *top_path(const char *rel)
{
	const char *top = getenv("SLABACCT_TOP");

	return g_build_filename(top ? top : ".", rel, NULL);
}

static char *golden(const char *name)
{
	char *p = top_path(name);
	char *t = NULL;

	ck_assert_msg(g_file_get_contents(p, &t, NULL, NULL),
		      "cannot read %s (run from the top of the tree)", p);
	g_free(p);
	return t;
}

/* The sources as `cd tree && slabacct budget --root .` reads them. */
static struct sa_budget_input *capture_61(void)
{
	char *dir = top_path("tests/data/proc/6.1-budget");
	char *cwd = g_get_current_dir();
	struct sa_budget_input *in;

	ck_assert_int_eq(chdir(dir), 0);
	in = sa_budget_capture(".");
	ck_assert_int_eq(chdir(cwd), 0);
	g_free(dir);
	g_free(cwd);
	return in;
}

static const char MINIMAL[] =
	"{\"kind\": \"slabacct-snapshot\", \"schema_version\": 1, "
	"\"page_size\": 4096, \"sources\": {}}";

/* A snapshot's JSON, as record stores it, with these sources. */
static char *stored(struct sa_budget_input *in)
{
	struct sa_snapshot *s = sa_snapshot_from_json(MINIMAL, "t", NULL);
	char *json;

	ck_assert_ptr_nonnull(s);
	s->budget = in;
	json = sa_snapshot_to_json(s, false);
	sa_snapshot_free(s);
	return json;
}

static struct sa_report *run(char *snapshot_end)
{
	struct sa_report_opts opts = { 0 };
	struct sa_report *rep = sa_report_new("synthetic",
					      SA_SECBIT(SA_SEC_BUDGET),
					      &opts);
	struct sa_pipeline p;

	rep->origin.snapshot_end = snapshot_end;
	sa_pipeline_init(&p, rep);
	sa_pipeline_finish(&p);
	return rep;
}

static const struct sa_budget_result *result(const struct sa_report *rep)
{
	ck_assert_ptr_nonnull(rep->result[SA_SEC_BUDGET]);
	return rep->result[SA_SEC_BUDGET];
}

typedef void (*emit_fn)(struct sa_emit *, const struct sa_report *,
			const void *);

static char *emit(emit_fn fn, const struct sa_report *rep)
{
	struct sa_emit e = { 0 };
	char *buf = NULL;
	size_t len = 0;

	e.out = open_memstream(&buf, &len);
	fn(&e, rep, rep->result[SA_SEC_BUDGET]);
	fclose(e.out);
	return buf;
}

static char *emit_json(const struct sa_report *rep)
{
	struct sa_emit e = { 0 };
	JsonNode *n;
	char *s;

	e.jb = json_builder_new();
	json_builder_begin_object(e.jb);
	sa_json_budget(&e, rep, rep->result[SA_SEC_BUDGET]);
	json_builder_end_object(e.jb);
	n = json_builder_get_root(e.jb);
	g_object_unref(e.jb);
	s = json_to_string(n, TRUE);
	json_node_unref(n);
	return s;
}

START_TEST(same_as_live)
{
	struct sa_report *rep = run(stored(capture_61()));
	const struct sa_budget_result *r = result(rep);
	char *want = golden("tests/data/budget/6.1.text");
	char *text = emit(sa_text_budget, rep);
	char *head = "\n== budget (the RAM by owner, kB, at the end of the "
		     "trace) ==\n";
	char *csv, *wcsv, *got, *json;
	GString *strip;
	JsonNode *n, *g;
	JsonObject *o;
	char **lines, **l;

	ck_assert_ptr_nonnull(r->budget);
	ck_assert_ptr_null(r->why);
	/* text: the heading, then budget's text byte for byte */
	ck_assert(g_str_has_prefix(text, head));
	ck_assert_str_eq(text + strlen(head), want);
	g_free(want);
	free(text);

	/* CSV: budget's, each line led by "budget," */
	csv = emit(sa_csv_budget, rep);
	wcsv = golden("tests/data/budget/6.1.csv");
	strip = g_string_new(NULL);
	lines = g_strsplit(csv, "\n", -1);
	ck_assert_str_eq(lines[0], "");
	for (l = lines + 1; *l; l++) {
		if (!**l)
			continue;
		ck_assert_msg(g_str_has_prefix(*l, "budget,"), "%s", *l);
		g_string_append_printf(strip, "%s\n", *l + 7);
	}
	ck_assert_str_eq(strip->str, wcsv);
	g_strfreev(lines);
	g_string_free(strip, TRUE);
	g_free(wcsv);
	free(csv);

	/* JSON: budget --json's object, with "raw" added (--raw) */
	json = emit_json(rep);
	n = json_from_string(json, NULL);
	ck_assert_ptr_nonnull(n);
	o = json_node_get_object(n);
	g = json_object_dup_member(o, "budget");
	o = json_node_get_object(g);
	ck_assert(json_object_has_member(o, "raw"));
	ck_assert_str_eq(json_object_get_string_member(
		json_object_get_object_member(o, "raw"), "meminfo"),
		r->in->text[SA_BSRC_MEMINFO]);
	json_object_remove_member(o, "raw");
	got = json_to_string(g, TRUE);
	want = golden("tests/data/budget/6.1.json");
	g_strchomp(want);
	ck_assert_str_eq(got, want);
	g_free(want);
	g_free(got);
	g_free(json);
	json_node_unref(g);
	json_node_unref(n);
	sa_report_free(rep);
}
END_TEST

START_TEST(round_trip)
{
	struct sa_budget_input *in = capture_61();
	char *json;
	struct sa_snapshot *s;
	int i, have = 0, missing = 0;

	/* what a source's absence says is kept too */
	g_clear_pointer(&in->text[SA_BSRC_VMALLOCINFO], g_free);
	g_free(in->why[SA_BSRC_VMALLOCINFO]);
	in->why[SA_BSRC_VMALLOCINFO] = g_strdup("gone for the test");
	json = stored(in);
	in = capture_61();
	g_clear_pointer(&in->text[SA_BSRC_VMALLOCINFO], g_free);
	s = sa_snapshot_from_json(json, "t", NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(s->budget);
	ck_assert_uint_eq(s->budget->page_size, in->page_size);
	for (i = 0; i < SA_BSRC_NR; i++) {
		ck_assert_str_eq(s->budget->text[i] ? s->budget->text[i] : "-",
				 in->text[i] ? in->text[i] : "-");
		if (in->text[i]) {
			ck_assert_ptr_null(s->budget->why[i]);
			have++;
		} else {
			ck_assert_ptr_nonnull(s->budget->why[i]);
			missing++;
		}
	}
	ck_assert_str_eq(s->budget->why[SA_BSRC_VMALLOCINFO],
			 "gone for the test");
	ck_assert_int_eq(have + missing, SA_BSRC_NR);
	ck_assert_int_ge(have, 6);
	sa_snapshot_free(s);
	sa_budget_input_free(in);
	g_free(json);

	/* an older snapshot: no budget member, no budget, no error */
	s = sa_snapshot_from_json(MINIMAL, "t", NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(s->budget);
	json = sa_snapshot_to_json(s, false);
	ck_assert_ptr_null(strstr(json, "budget"));
	g_free(json);
	sa_snapshot_free(s);
}
END_TEST

static void refused(const char *budget, const char *why)
{
	char *json = g_strdup_printf("{\"kind\": \"slabacct-snapshot\", "
				     "\"schema_version\": 1, \"page_size\": "
				     "4096, \"sources\": {}, \"budget\": %s}",
				     budget);
	GError *e = NULL;
	struct sa_snapshot *s = sa_snapshot_from_json(json, "t", &e);

	ck_assert_msg(!s, "accepted %s", budget);
	ck_assert_msg(strstr(e->message, why), "%s: %s", budget,
		      e->message);
	g_error_free(e);
	g_free(json);
}

START_TEST(hostile)
{
	struct sa_snapshot *s;

	refused("[]", "budget is not an object");
	refused("{}", "bad page_size");
	refused("{\"page_size\": 4096}", "budget without sources");
	refused("{\"page_size\": 4095, \"sources\": {}}", "bad page_size");
	refused("{\"page_size\": 0, \"sources\": {}}", "bad page_size");
	refused("{\"page_size\": -4096, \"sources\": {}}", "bad page_size");
	refused("{\"page_size\": 1099511627776, \"sources\": {}}",
		"bad page_size");
	refused("{\"page_size\": \"4096\", \"sources\": {}}",
		"bad page_size");
	/* a source of another type is absent, said so */
	s = sa_snapshot_from_json("{\"kind\": \"slabacct-snapshot\", "
				  "\"schema_version\": 1, \"page_size\": 4096, "
				  "\"sources\": {}, \"budget\": {\"page_size\":"
				  " 4096, \"sources\": {\"meminfo\": 7}, "
				  "\"missing\": {\"meminfo\": []}}}", "t", NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(s->budget->text[SA_BSRC_MEMINFO]);
	ck_assert_str_eq(s->budget->why[SA_BSRC_MEMINFO],
			 "not in the snapshot");
	sa_snapshot_free(s);
}
END_TEST

static void not_available(char *snapshot_end, const char *why)
{
	struct sa_report *rep = run(snapshot_end);
	const struct sa_budget_result *r = result(rep);
	char *text, *json, *csv;

	ck_assert_ptr_null(r->budget);
	ck_assert_msg(strstr(r->why, why), "%s", r->why);
	text = emit(sa_text_budget, rep);
	ck_assert_msg(strstr(text, "# not available: "), "%s", text);
	ck_assert_ptr_null(strstr(text, "\nRAM "));
	ck_assert_ptr_null(strstr(text, "100.0"));
	json = emit_json(rep);
	ck_assert_msg(strstr(json, "\"available\" : false"), "%s", json);
	ck_assert_ptr_null(strstr(json, "_kb"));
	csv = emit(sa_csv_budget, rep);
	ck_assert_msg(strstr(csv, "# budget not available: "), "%s", csv);
	ck_assert_ptr_null(strstr(csv, "owner,"));
	free(text);
	g_free(json);
	free(csv);
	sa_report_free(rep);
}

START_TEST(errors)
{
	struct sa_budget_input *in;

	not_available(NULL, "no system snapshot at its end");
	not_available(g_strdup(MINIMAL), "has no budget sources");
	not_available(g_strdup("{\"kind\": \"other\"}"), "cannot be read");
	/* sources without meminfo: the budget's own error */
	in = capture_61();
	g_clear_pointer(&in->text[SA_BSRC_MEMINFO], g_free);
	not_available(stored(in), "meminfo");
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("budget-report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, same_as_live);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, hostile);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}
