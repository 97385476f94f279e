// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the one JSON reader (util/json-read.h). The referee of the
 * depth it measures is json-glib itself: its parser says, by its
 * array-start and object-start signals, how deep it went into a text,
 * and the reader must measure exactly that depth on every text json-glib
 * accepts, and at least that on the others (up to where json-glib
 * stopped). The texts are generated around what json-glib's scanner
 * reads its own way: comments from '/' to '/', '...' strings, \u escapes
 * short of four digits, lone surrogates, numbers that swallow the next
 * character.
 */
#include <stdbool.h>
#include <string.h>

#include <check.h>

#include "util/json-read.h"

Suite *suite(void);

struct seen {
	int cur, max;
};

static void in(JsonParser *p, gpointer data)
{
	struct seen *s = data;

	if (++s->cur > s->max)
		s->max = s->cur;
}

/* array-end and object-end pass the array or object before data */
static void out(JsonParser *p, gpointer what, gpointer data)
{
	((struct seen *)data)->cur--;
}

/* How deep json-glib went into text; whether it accepted it. */
static int glib_depth(const GString *t, bool *ok)
{
	JsonParser *p = json_parser_new();
	struct seen s = { 0, 0 };

	g_signal_connect(p, "array-start", G_CALLBACK(in), &s);
	g_signal_connect(p, "object-start", G_CALLBACK(in), &s);
	g_signal_connect(p, "array-end", G_CALLBACK(out), &s);
	g_signal_connect(p, "object-end", G_CALLBACK(out), &s);
	*ok = json_parser_load_from_data(p, t->str, t->len, NULL);
	g_object_unref(p);
	return s.max;
}

static int measured(const GString *t, guint max)
{
	guint line;

	return sa_json_depth_check(t->str, t->len, max, &line);
}

/* What json-glib's scanner takes for blanks between two tokens */
static void blank(GRand *r, GString *t)
{
	static const char *const junk[] = {
		"]", "[", "}", "{", "\"", "'", "*", "\\", "\n", "x", " ",
		"]]]]", "{\"a\":[", "\\\"",
	};
	int i, n;

	switch (g_rand_int_range(r, 0, 8)) {
	case 0:
		g_string_append_c(t, ' ');
		break;
	case 1:
		g_string_append(t, "\n\t\r ");
		break;
	case 2:		/* a comment: from '/' to the next '/' */
		g_string_append_c(t, '/');
		n = g_rand_int_range(r, 0, 5);
		for (i = 0; i < n; i++)
			g_string_append(t, junk[g_rand_int_range(r, 0,
						G_N_ELEMENTS(junk))]);
		g_string_append_c(t, '/');
		break;
	case 3:		/* written as C would, read the other way */
		g_string_append(t, "/* ");
		g_string_append(t, junk[g_rand_int_range(r, 0,
					G_N_ELEMENTS(junk))]);
		g_string_append(t, " */");
		break;
	case 4:
		g_string_append(t, "// ");
		g_string_append(t, junk[g_rand_int_range(r, 0,
					G_N_ELEMENTS(junk))]);
		g_string_append_c(t, '\n');
		break;
	default:
		break;
	}
}

static void string(GRand *r, GString *t)
{
	static const char *const part[] = {
		"a", "]", "[", "{", "}", "'", "/", " ", "\\\"", "\\\\",
		"\\n", "\\u00e9", "\\u12", "\\u1", "\\ud83d\\ude00",
		"\\ud800", "\\ud800x", "\\udc00\\u0041", "\\101", "\\7",
		"\\x", "\\/", "\\u", "\\uD83D", "\\uzz",
	};
	int i, n = g_rand_int_range(r, 0, 6);

	if (!g_rand_int_range(r, 0, 6)) {	/* '...' has no escapes */
		g_string_append_c(t, '\'');
		for (i = 0; i < n; i++)
			g_string_append(t, g_rand_boolean(r) ? "]\"[" : "a\\");
		g_string_append_c(t, '\'');
		return;
	}
	g_string_append_c(t, '"');
	for (i = 0; i < n; i++)
		g_string_append(t, part[g_rand_int_range(r, 0,
					G_N_ELEMENTS(part))]);
	g_string_append_c(t, '"');
}

static void value(GRand *r, GString *t, int depth)
{
	static const char *const scalar[] = {
		"1", "-2", "1.5e+3", "0x1f", "$ff", ".5", "0b101", "1e5", "0",
		"07", "true", "false", "null", "-0.25E-2", "0x1e-5", ".[",
		"$\"", "var",
	};
	int i, n, kind = g_rand_int_range(r, 0, depth > 90 ? 2 : 7);

	blank(r, t);
	if (kind == 0) {
		g_string_append(t, scalar[g_rand_int_range(r, 0,
					  G_N_ELEMENTS(scalar))]);
	} else if (kind == 1) {
		string(r, t);
	} else {
		bool obj = kind >= 5;

		g_string_append_c(t, obj ? '{' : '[');
		n = g_rand_int_range(r, 0, depth < 20 ? 4 : 2);
		for (i = 0; i < n; i++) {
			if (i)
				g_string_append_c(t, ',');
			if (obj) {
				blank(r, t);
				string(r, t);
				blank(r, t);
				g_string_append_c(t, ':');
			}
			value(r, t, depth + 1);
		}
		blank(r, t);
		g_string_append_c(t, obj ? '}' : ']');
	}
	blank(r, t);
}

/* The measure against json-glib's depth on t: exact if it accepts t */
static void agrees(const GString *t, guint *accepted)
{
	bool ok;
	int d = glib_depth(t, &ok);

	if (ok) {
		(*accepted)++;
		ck_assert_msg(measured(t, d) == 0,
			      "deeper than json-glib's %d: %s", d, t->str);
	}
	ck_assert_msg(d == 0 || measured(t, d - 1) == -1,
		      "shallower than json-glib's %d (%s): %s", d,
		      ok ? "accepted" : "refused", t->str);
}

START_TEST(depth_as_json_glib_goes)
{
	GRand *r = g_rand_new_with_seed(28);
	GString *t = g_string_new(NULL);
	guint i, j, accepted = 0, n = 0;

	for (i = 0; i < 20000; i++) {
		g_string_truncate(t, 0);
		if (!g_rand_int_range(r, 0, 20))
			g_string_append(t, "\xef\xbb\xbf");
		value(r, t, 0);
		if (!g_rand_int_range(r, 0, 10))	/* a second statement */
			value(r, t, 0);
		agrees(t, &accepted);
		n++;
		/* and damaged: bytes changed into structural ones */
		for (j = 0; j < 3 && t->len; j++) {
			static const char c[] = "[]{}\"'/\\*,:\n";

			t->str[g_rand_int_range(r, 0, t->len)] =
				c[g_rand_int_range(r, 0, sizeof(c) - 1)];
			agrees(t, &accepted);
			n++;
		}
	}
	/* both kinds were met, in numbers */
	ck_assert_uint_gt(accepted, n / 10);
	ck_assert_uint_lt(accepted, n - n / 10);
	g_string_free(t, TRUE);
	g_rand_free(r);
}
END_TEST

/* text, the depth json-glib goes to, whether json-glib accepts it */
static const struct {
	const char *text;
	guint depth;
	bool valid;
} known[] = {
	/* json-glib's "comment": '/' to '/' */
	{ "{/* ]]]] */\"x\":[[1]]}", 3, true },
	{ "{/* \" */\"x\":[[1]]}", 3, true },
	{ "[// ]\n1]", 1, false },	/* "//" is empty: ']' ends it */
	{ "[// [\n1]]", 2, true },
	{ "['a]\\', [1]]", 2, true },	/* no escape in '...' */
	{ "[\"\\\"]\", [1]]", 2, true },
	{ "[\"\\u1\"]\"]", 1, true },	/* \u1 takes the '"' after it */
	{ "[\"\\ud800\"]\"]", 1, true },	/* a lone surrogate takes two */
	{ "[\"\\101\", [[]]]", 3, true },
	{ "[.[1]]", 1, false },		/* '.' swallows the '[' */
	/* "var NAME = " recurses once per assignment */
	{ "var a = var b = [[1]]", 4, true },
	{ "var a = 1; var b = [2]; var c = [[3]];", 3, true },
	{ "[][[]]{}", 2, true },
	{ "\xef\xbb\xbf[[]]", 2, true },
};

START_TEST(known_texts)
{
	guint i, line;

	for (i = 0; i < G_N_ELEMENTS(known); i++) {
		const char *t = known[i].text;
		JsonParser *p = json_parser_new();

		ck_assert_msg(json_parser_load_from_data(p, t, -1, NULL) ==
			      known[i].valid, "json-glib on %s", t);
		g_object_unref(p);
		ck_assert_msg(!sa_json_depth_check(t, strlen(t),
						   known[i].depth, &line),
			      "%s: deeper than %u", t, known[i].depth);
		ck_assert_msg(sa_json_depth_check(t, strlen(t),
						  known[i].depth - 1, &line),
			      "%s: not %u deep", t, known[i].depth);
	}
}
END_TEST

static void refused(const char *text, gsize len, const char *says)
{
	GError *e = NULL;

	ck_assert_ptr_null(sa_json_read(text, len, "f.json", &e));
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e->message, says), "'%s' lacks '%s'",
		      e->message, says);
	ck_assert_msg(g_str_has_prefix(e->message, "f.json: "), "%s",
		      e->message);
	g_error_free(e);
}

START_TEST(refusals_name_file_and_line)
{
	GString *t = g_string_new("{\n\"a\":\n");
	JsonNode *n;
	guint i;

	for (i = 0; i < 100000; i++)
		g_string_append(t, i % 1000 ? "[" : "[\n");
	/* the 65th level opens on line 4 */
	refused(t->str, t->len, "line 4: JSON nested deeper than 64 levels");
	g_string_assign(t, "");
	for (i = 0; i < 70; i++)
		g_string_append(t, "var a =\n");
	refused(t->str, t->len, "line 65: JSON nested deeper than 64");
	refused("", 0, "an empty file, no JSON value");
	refused(NULL, 0, "an empty file, no JSON value");
	refused(" \n/ a comment /\n", 16, "only blanks and comments");
	refused("[1,\n2,\n\xff]", 9, "line 3: not UTF-8");
	refused("[1]\0[", 5, "line 1: not UTF-8");
	refused("{\"a\":\n", 6, "not valid JSON: line 2, column");
	/*
	 * values: 2^24 with "{", "x" and "[", after a ']' where json-glib
	 * stops at once (the values are counted, the tree never built)
	 */
	g_string_assign(t, "]{\"x\":\n\n[");
	for (i = 0; i < SA_JSON_READ_VALUES - 4; i++)
		g_string_append(t, "1,");
	g_string_append(t, "1]}");
	ck_assert_uint_eq(t->len, 2 * SA_JSON_READ_VALUES + 4);
	refused(t->str, t->len, "f.json: not valid JSON: line 1");
	g_string_insert(t, 9, "2,");
	refused(t->str, t->len, "f.json: line 3: more than 16777216 JSON "
		"values, the most slabacct reads");
	/* 64 levels are read, and the text need not end with a NUL */
	g_string_assign(t, "");
	for (i = 0; i < 64; i++)
		g_string_append_c(t, '[');
	for (i = 0; i < 64; i++)
		g_string_append_c(t, ']');
	g_string_append(t, "garbage");
	n = sa_json_read(t->str, 128, "f.json", NULL);
	ck_assert_ptr_nonnull(n);
	ck_assert(JSON_NODE_HOLDS_ARRAY(n));
	json_node_unref(n);
	g_string_free(t, TRUE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("json-read");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, depth_as_json_glib_goes);
	tcase_add_test(tc, known_texts);
	tcase_add_test(tc, refusals_name_file_and_line);
	suite_add_tcase(s, tc);
	return s;
}
