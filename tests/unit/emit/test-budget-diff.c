// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: slabacct diff of two budgets. The captured 6.1 guest
 * (tests/data/proc/6.1-budget) against itself booted with a 4 MB larger
 * trace buffer: its tracefs size 4096 kB more, MemFree 4096 kB less, as
 * the kernel takes those pages from the free lists. The difference must
 * be under trace buffers (and the free memory it came from), nowhere
 * else; the text against its golden output
 * (tests/data/budget/diff-6.1.text; UPDATE=1 rewrites it). Then one side
 * without the sources, and neither (nothing shown).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit-budget.h"
#include "snapshot/budget-diff.h"
#include "snapshot/snapshot.h"

Suite *suite(void);

static char *top_path(const char *rel)
{
	const char *top = getenv("SLABACCT_TOP");

	return g_build_filename(top ? top : ".", rel, NULL);
}

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
	in->page_size = 4096;
	return in;
}

static const char MINIMAL[] =
	"{\"kind\": \"slabacct-snapshot\", \"schema_version\": 1, "
	"\"page_size\": 4096, \"sources\": {}}";

static char *stored(struct sa_budget_input *in)
{
	struct sa_snapshot *s = sa_snapshot_from_json(MINIMAL, "t", NULL);
	char *json;

	s->budget = in;
	json = sa_snapshot_to_json(s, false);
	sa_snapshot_free(s);
	return json;
}

/* A with 4 MB more of trace buffer, taken from MemFree */
static char *bigger_buffer(void)
{
	struct sa_budget_input *in = capture_61();
	char *mi = in->text[SA_BSRC_MEMINFO];
	char *at = strstr(mi, "MemFree:          164072 kB");

	ck_assert_ptr_nonnull(at);
	memcpy(at, "MemFree:          159976 kB", 27);
	ck_assert_str_eq(in->text[SA_BSRC_TRACEBUF], ". 14 (expanded: 2816)\n");
	g_free(in->text[SA_BSRC_TRACEBUF]);
	in->text[SA_BSRC_TRACEBUF] = g_strdup(". 4110\n");
	return stored(in);
}

static char *text_of(const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sa_budget_diff_text(f, a, b);
	fclose(f);
	return buf;
}

START_TEST(trace_buf_size)
{
	char *a = stored(capture_61()), *b = bigger_buffer();
	JsonNode *n = sa_budget_diff_json(a, b);
	JsonArray *o;
	char *text, *path, *want = NULL, *csv = NULL;
	size_t len = 0;
	FILE *f;
	guint i, changed = 0;

	ck_assert_ptr_nonnull(n);
	o = json_object_get_array_member(json_node_get_object(n), "owners");
	ck_assert_uint_gt(json_array_get_length(o), 20);
	for (i = 0; i < json_array_get_length(o); i++) {
		JsonObject *r = json_array_get_object_element(o, i);
		const char *key = json_object_get_string_member(r, "key");
		gint64 d = json_object_get_int_member(r, "d_kb");

		ck_assert_int_eq(d, json_object_get_int_member(r, "b_kb") -
				 json_object_get_int_member(r, "a_kb"));
		if (!strcmp(key, "trace_buffers"))
			ck_assert_int_eq(d, 4096);
		else if (!strcmp(key, "free") ||
			 !strcmp(key, "free.buddy"))
			ck_assert_int_eq(d, -4096);
		else
			ck_assert_msg(d == 0, "%s: %" G_GINT64_FORMAT, key, d);
		changed += d != 0;
	}
	ck_assert_uint_eq(changed, 3);
	json_node_unref(n);

	text = text_of(a, b);
	path = top_path("tests/data/budget/diff-6.1.text");
	if (getenv("UPDATE") && !strcmp(getenv("UPDATE"), "1"))
		ck_assert(g_file_set_contents(path, text, -1, NULL));
	ck_assert_msg(g_file_get_contents(path, &want, NULL, NULL),
		      "cannot read %s", path);
	ck_assert_str_eq(text, want);

	f = open_memstream(&csv, &len);
	sa_budget_diff_csv(f, a, b);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(csv, "\nbudget,key,label,depth,leaf,"
				     "a_kb,b_kb,d_kb\n"));
	ck_assert_ptr_nonnull(strstr(csv, ",trace buffers,2,1,14,4110,4096\n"));
	ck_assert_ptr_nonnull(strstr(csv, "budget,unexplained,unexplained,0,0,"));
	free(csv);
	free(text);
	g_free(want);
	g_free(path);
	g_free(a);
	g_free(b);
}
END_TEST

START_TEST(one_side_or_none)
{
	char *a = stored(capture_61());
	char *text = text_of(MINIMAL, a);
	JsonNode *n;

	/* one side without the sources: said, with why; no owners */
	ck_assert_ptr_nonnull(strstr(text, "# A: not available: its snapshot "
				     "has no budget sources\n"));
	ck_assert_ptr_null(strstr(text, "\nRAM "));
	free(text);
	n = sa_budget_diff_json(NULL, a);
	ck_assert(!json_object_get_boolean_member(json_object_get_object_member(
		json_node_get_object(n), "a"), "available"));
	ck_assert(json_object_get_boolean_member(json_object_get_object_member(
		json_node_get_object(n), "b"), "available"));
	ck_assert(!json_object_has_member(json_node_get_object(n), "owners"));
	json_node_unref(n);
	/* neither: nothing, as before */
	text = text_of(MINIMAL, NULL);
	ck_assert_str_eq(text, "");
	free(text);
	ck_assert_ptr_null(sa_budget_diff_json(MINIMAL, MINIMAL));
	g_free(a);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("budget-diff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, trace_buf_size);
	tcase_add_test(tc, one_side_or_none);
	suite_add_tcase(s, tc);
	return s;
}
