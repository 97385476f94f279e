// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML emitter: the page embeds exactly the model the JSON emitter
 * writes for the same report (or merge), the embedding cannot be broken
 * out of by a string in the data ("</script>"), every template marker is
 * filled, and nothing in the page points outside it.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "emit/emit.h"
#include "report/merge.h"
#include "report/report.h"

Suite *suite(void);

#define SMALL "tests/data/tracedat/small.dat"
#define MODEL_OPEN "<script type=\"application/json\" id=\"sa-model\">"

static struct sa_report_opts opts;

static struct sa_report *load(void)
{
	GError *err = NULL;
	guint32 all;
	char *bad = NULL;
	struct sa_report *rep;

	ck_assert_int_eq(sa_what_parse("all", &all, &bad), 0);
	rep = sa_report_read(SMALL, all, &opts, &err);
	ck_assert_msg(rep, "%s", err ? err->message : "?");
	return rep;
}

/* Emit rep in fmt into a string. */
static char *emit(struct sa_report *rep, enum sa_format fmt)
{
	struct sa_emit e = { 0 };
	char *buf = NULL;
	size_t len = 0;

	e.fmt = fmt;
	e.out = open_memstream(&buf, &len);
	e.width = 80;
	ck_assert_int_eq(sa_emit_report(&e, rep), 0);
	fclose(e.out);
	return buf;
}

/* The JSON text inside the page's model element. */
static char *model_of(const char *html)
{
	const char *p = strstr(html, MODEL_OPEN), *end;

	ck_assert_ptr_nonnull(p);
	p += strlen(MODEL_OPEN);
	end = strstr(p, "</script>");
	ck_assert_ptr_nonnull(end);
	return g_strndup(p, end - p);
}

static JsonNode *parse(const char *text)
{
	JsonParser *jp = json_parser_new();
	GError *err = NULL;
	JsonNode *n;

	ck_assert_msg(json_parser_load_from_data(jp, text, -1, &err), "%s",
		      err ? err->message : "?");
	n = json_node_copy(json_parser_get_root(jp));
	g_object_unref(jp);
	return n;
}

START_TEST(page_embeds_the_json_model)
{
	struct sa_report *rep = load();
	char *json = emit(rep, SA_FMT_JSON);
	char *html = emit(rep, SA_FMT_HTML);
	char *model = model_of(html);
	JsonNode *a = parse(json), *b = parse(model);
	JsonObject *cs;

	ck_assert_msg(json_node_equal(a, b),
		      "the page's model differs from --json");
	/* and it is the report of the file: one kmalloc site, 192 bytes */
	cs = json_object_get_object_member(json_object_get_object_member(
		json_node_get_object(b), "sections"), "callsite");
	ck_assert_int_eq(json_array_get_length(
		json_object_get_array_member(cs, "rows")), 1);
	ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(
		json_object_get_array_member(cs, "rows"), 0), "bytes_alloc"),
		192);
	ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(
		json_node_get_object(b), "lost"), "events"), 9);
	json_node_unref(a);
	json_node_unref(b);
	g_free(model);
	g_free(json);
	g_free(html);
	sa_report_free(rep);
}
END_TEST

START_TEST(page_is_self_contained)
{
	struct sa_report *rep = load();
	char *html = emit(rep, SA_FMT_HTML);
	static const char *const banned[] = { "@@", "<script src", "src=\"http",
		"href=\"http", "<link", "@import", "url(", "fetch(",
		"XMLHttpRequest" };
	unsigned int i;

	ck_assert(g_str_has_prefix(html, "<!DOCTYPE html>"));
	ck_assert(g_str_has_suffix(html, "</html>\n"));
	for (i = 0; i < G_N_ELEMENTS(banned); i++)
		ck_assert_msg(!strstr(html, banned[i]), "the page has '%s'",
			      banned[i]);
	/* the title names the file, escaped */
	ck_assert_ptr_nonnull(strstr(html, "<title>slabacct report: " SMALL
				     "</title>"));
	/* the inlined script and style are there */
	ck_assert_ptr_nonnull(strstr(html, "function squarify("));
	ck_assert_ptr_nonnull(strstr(html, "#treemap .tile"));
	g_free(html);
	sa_report_free(rep);
}
END_TEST

START_TEST(strings_cannot_end_the_model)
{
	struct sa_report *rep = load();
	static const char evil[] = "</script><script>alert(1)</script><!--";
	char *html, *model;
	JsonNode *n;
	JsonArray *notes;
	gboolean found = FALSE;
	guint i;

	sa_report_note(rep, "%s", evil);
	g_free(rep->file);
	rep->file = g_strdup("a<b>&c.dat");
	html = emit(rep, SA_FMT_HTML);
	ck_assert_ptr_null(strstr(html, evil));
	ck_assert_ptr_nonnull(strstr(html, "<title>slabacct report: "
				     "a&lt;b&gt;&amp;c.dat</title>"));
	model = model_of(html);
	n = parse(model);
	notes = json_object_get_array_member(json_node_get_object(n), "notes");
	for (i = 0; i < json_array_get_length(notes); i++)
		if (!strcmp(json_array_get_string_element(notes, i), evil))
			found = TRUE;
	ck_assert_msg(found, "the note did not survive the round trip");
	json_node_unref(n);
	g_free(model);
	g_free(html);
	sa_report_free(rep);
}
END_TEST

/* Emit a merge in fmt into a string. */
static char *emit_merge(struct sa_merge *m, enum sa_format fmt)
{
	struct sa_emit e = { 0 };
	char *buf = NULL;
	size_t len = 0;

	e.fmt = fmt;
	e.out = open_memstream(&buf, &len);
	e.width = 80;
	ck_assert_int_eq(sa_emit_merge(&e, m), 0);
	fclose(e.out);
	return buf;
}

START_TEST(merge_page_embeds_its_json_model)
{
	static const char evil[] = "f+0x1 [</script><img src=x onerror=a()>]";
	struct sa_diff_opts o = { .by = SA_DIFF_BY_SITE };
	struct sa_merge m = { 0 };
	struct sa_merge_row *r;
	GError *err = NULL;
	char *json, *html, *model;
	JsonNode *a, *b;
	JsonObject *row;
	int i;

	sa_merge_init(&m, o.by);
	for (i = 0; i < 2; i++) {
		struct sa_diff_side s;

		ck_assert_msg(!sa_diff_side_load(&s, SMALL, &o, &err), "%s",
			      err ? err->message : "?");
		ck_assert_int_eq(sa_merge_add(&m, &s, &err), 0);
		sa_diff_side_clear(&s);
	}
	sa_merge_finish(&m, 0);
	ck_assert_uint_eq(m.rows->len, 1);
	/* a site named to end the model element and run a script */
	r = &g_array_index(m.rows, struct sa_merge_row, 0);
	g_free(r->site);
	r->site = g_strdup(evil);
	json = emit_merge(&m, SA_FMT_JSON);
	html = emit_merge(&m, SA_FMT_HTML);
	ck_assert(g_str_has_prefix(html, "<!DOCTYPE html>"));
	ck_assert_ptr_nonnull(strstr(html, "<title>slabacct merge</title>"));
	ck_assert_ptr_nonnull(strstr(html, "function mergePage("));
	ck_assert_ptr_null(strstr(html, "</script><img"));
	ck_assert_ptr_null(strstr(html, "@@"));
	model = model_of(html);
	a = parse(json);
	b = parse(model);
	ck_assert_msg(json_node_equal(a, b),
		      "the merge page's model differs from --json");
	/* the merge's figures: two runs of 192 bytes, 9 lost events each */
	row = json_array_get_object_element(json_object_get_array_member(
		json_node_get_object(b), "rows"), 0);
	ck_assert_str_eq(json_object_get_string_member(row, "site"), evil);
	ck_assert_int_eq(json_object_get_int_member(row, "runs"), 2);
	ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(
		row, "bytes_alloc"), "sum"), 384);
	ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(
		json_node_get_object(b), "lost"), "events"), 18);
	json_node_unref(a);
	json_node_unref(b);
	g_free(model);
	g_free(json);
	g_free(html);
	sa_merge_clear(&m);
}
END_TEST

START_TEST(format_name)
{
	enum sa_format f;

	ck_assert_int_eq(sa_format_parse("html", &f), 0);
	ck_assert_int_eq(f, SA_FMT_HTML);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("page");

	tcase_add_test(tc, page_embeds_the_json_model);
	tcase_add_test(tc, page_is_self_contained);
	tcase_add_test(tc, strings_cannot_end_the_model);
	tcase_add_test(tc, merge_page_embeds_its_json_model);
	tcase_add_test(tc, format_name);
	suite_add_tcase(s, tc);
	return s;
}
