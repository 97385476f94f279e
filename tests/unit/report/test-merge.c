// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: slabacct merge (sums and spreads over runs, a missing site
 * counting 0) and our JSON read back as a diff or merge input.
 */
#include <check.h>
#include <string.h>

#include "procfs/account.h"
#include "report/diff.h"
#include "report/merge.h"

Suite *suite(void);

START_TEST(spread)
{
	guint64 odd[] = { 7, 1, 5 }, even[] = { 10, 1, 4, 3 };
	guint64 big[] = { G_MAXUINT64, G_MAXUINT64 - 1 }, one[] = { 42 };
	struct sa_spread s;

	sa_spread_of(odd, 3, &s);
	ck_assert_uint_eq(s.sum, 13);
	ck_assert_uint_eq(s.min, 1);
	ck_assert_uint_eq(s.median, 5);
	ck_assert_uint_eq(s.max, 7);
	/* even: the mean of 3 and 4, rounded down */
	sa_spread_of(even, 4, &s);
	ck_assert_uint_eq(s.median, 3);
	ck_assert_uint_eq(s.sum, 18);
	/* no overflow in the median; the sum saturates */
	sa_spread_of(big, 2, &s);
	ck_assert_uint_eq(s.median, G_MAXUINT64 - 1);
	ck_assert_uint_eq(s.sum, G_MAXUINT64);
	sa_spread_of(one, 1, &s);
	ck_assert(s.min == 42 && s.median == 42 && s.max == 42);
	sa_spread_of(one, 0, &s);
	ck_assert(s.sum == 0 && s.max == 0);
}
END_TEST

static void side(struct sa_diff_side *s, const char *file)
{
	memset(s, 0, sizeof(*s));
	s->file = g_strdup(file);
	s->source = "trace";
	s->kernel = g_strdup("6.1.0-test");
	s->lost_known = true;
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
}

static void put(struct sa_diff_side *s, const char *key, guint64 bytes,
		gint64 live_bytes)
{
	struct sa_diff_vals *v = g_new0(struct sa_diff_vals, 1);

	v->bytes_alloc = bytes;
	v->bytes_req = bytes / 2;
	v->slack = bytes - bytes / 2;
	v->allocs = 1;
	v->live_bytes = live_bytes;
	v->live = live_bytes > 0;
	s->total.bytes_alloc += bytes;
	s->total.live_bytes += live_bytes;
	s->total.allocs++;
	g_hash_table_insert(s->rows, g_strdup(key), v);
}

static const struct sa_merge_row *row(const struct sa_merge *m,
				      const char *site)
{
	guint i;

	for (i = 0; i < m->rows->len; i++)
		if (!strcmp(g_array_index(m->rows, struct sa_merge_row,
					  i).site, site))
			return &g_array_index(m->rows, struct sa_merge_row, i);
	return NULL;
}

/* Three runs: every / two / one of them have a site. */
START_TEST(merge_runs)
{
	struct sa_diff_side s[3];
	struct sa_merge m;
	const struct sa_merge_row *r;
	GError *err = NULL;
	int i;

	for (i = 0; i < 3; i++)
		side(&s[i], "run");
	put(&s[0], "0\tall+0x1", 100, 10);
	put(&s[1], "0\tall+0x1", 300, 30);
	put(&s[2], "0\tall+0x1", 200, -5);	/* live below 0 counts 0 */
	put(&s[0], "1\ttwo+0x2", 1000, 0);
	put(&s[2], "1\ttwo+0x2", 3000, 0);
	put(&s[1], "0\tone+0x3", 50, 0);
	s[1].lost = 7;
	g_free(s[2].kernel);
	s[2].kernel = g_strdup("6.12.0-test");

	sa_merge_init(&m, SA_DIFF_BY_SITE);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(sa_merge_add(&m, &s[i], &err), 0);
	sa_merge_finish(&m, 0);
	ck_assert_uint_eq(m.runs->len, 3);
	ck_assert_uint_eq(m.lost, 7);
	ck_assert(m.lost_known);
	ck_assert_ptr_null(m.kernel);	/* two kernels */
	/* run totals: 1100, 350, 3200 */
	ck_assert_uint_eq(m.total[SA_MERGE_BYTES].sum, 4650);
	ck_assert_uint_eq(m.total[SA_MERGE_BYTES].min, 350);
	ck_assert_uint_eq(m.total[SA_MERGE_BYTES].median, 1100);
	ck_assert_uint_eq(m.total[SA_MERGE_BYTES].max, 3200);
	ck_assert_uint_eq(m.total[SA_MERGE_LIVE_BYTES].median, 10);
	/* by the sum of bytes: two 4000, all 600, one 50 */
	ck_assert_uint_eq(m.rows->len, 3);
	ck_assert_str_eq(g_array_index(m.rows, struct sa_merge_row, 0).site,
			 "two+0x2");
	r = row(&m, "two+0x2");
	ck_assert_int_eq(r->kind, 1);
	ck_assert_uint_eq(r->runs, 2);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].sum, 4000);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].min, 0);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].median, 1000);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].max, 3000);
	ck_assert_uint_eq(r->v[SA_MERGE_SLACK].sum, 2000);
	r = row(&m, "all+0x1");
	ck_assert_uint_eq(r->runs, 3);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].min, 100);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].median, 200);
	ck_assert_uint_eq(r->v[SA_MERGE_LIVE_BYTES].min, 0);
	ck_assert_uint_eq(r->v[SA_MERGE_LIVE_BYTES].median, 10);
	ck_assert_uint_eq(r->v[SA_MERGE_LIVE_BYTES].sum, 40);
	ck_assert_uint_eq(r->v[SA_MERGE_LIVE].sum, 2);
	r = row(&m, "one+0x3");
	ck_assert_uint_eq(r->runs, 1);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].median, 0);
	ck_assert_uint_eq(r->v[SA_MERGE_BYTES].max, 50);
	sa_merge_clear(&m);

	/* --top 1 keeps the largest and counts the rest */
	sa_merge_init(&m, SA_DIFF_BY_SITE);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(sa_merge_add(&m, &s[i], &err), 0);
	sa_merge_finish(&m, 1);
	ck_assert_uint_eq(m.rows->len, 1);
	ck_assert_uint_eq(m.hidden, 2);
	sa_merge_clear(&m);

	/* a merge cannot be merged again */
	s[0].runs = 3;
	sa_merge_init(&m, SA_DIFF_BY_SITE);
	ck_assert_int_eq(sa_merge_add(&m, &s[0], &err), -1);
	ck_assert(strstr(err->message, "cannot be merged again"));
	g_clear_error(&err);
	sa_merge_clear(&m);
	for (i = 0; i < 3; i++)
		sa_diff_side_clear(&s[i]);
}
END_TEST

static int load(const char *text, enum sa_diff_by by,
		struct sa_diff_side *s, GError **err)
{
	struct sa_diff_opts o = { .by = by };

	memset(s, 0, sizeof(*s));
	s->file = g_strdup("in.json");
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	return sa_diff_side_load_json(s, "in.json", text, strlen(text), &o,
				      err);
}

/* text must be refused with a message saying says, from in.json */
static void refused(const char *text, const char *says)
{
	struct sa_diff_side s;
	GError *err = NULL;

	ck_assert_msg(load(text, SA_DIFF_BY_SITE, &s, &err) == -1,
		      "taken: %.200s", text);
	ck_assert_msg(strstr(err->message, says), "'%s' does not say '%s'",
		      err->message, says);
	ck_assert(g_str_has_prefix(err->message, "in.json: "));
	g_clear_error(&err);
	sa_diff_side_clear(&s);
}

static const struct sa_diff_vals *val(const struct sa_diff_side *s,
				      const char *key)
{
	return g_hash_table_lookup(s->rows, key);
}

START_TEST(json_inputs)
{
	static const char report[] =
		"{\"schema_version\":1,\"tool\":\"slabacct report\","
		"\"origin\":{\"kernel_release\":\"6.1.0-x\"},"
		"\"lost\":{\"known\":true,\"events\":3},"
		"\"sections\":{\"callsite\":{\"by\":\"callsite\","
		"\"rows_hidden\":0,\"rows\":[{\"site\":\"f+0x1/0x20 [m]\","
		"\"kind\":\"kmalloc\",\"allocs\":2,\"frees\":1,"
		"\"bytes_alloc\":64,\"bytes_req\":40,\"slack\":24,\"live\":1,"
		"\"live_bytes\":32}]}}}";
	static const char account[] =
		"{\"schema_version\":1,\"format_version\":2,\"sites\":8,"
		"\"rows\":[{\"total\":128,\"slack\":28,\"req\":100,\"live\":64,"
		"\"objs\":2,\"allocs\":4,\"frees\":2,\"kind\":\"cache\","
		"\"caller\":\"g+0x2/0x40\"}]}";
	static const char merge[] =
		"{\"schema_version\":1,\"tool\":\"slabacct merge\","
		"\"by\":\"site\",\"runs\":[{},{},{}],"
		"\"lost\":{\"known\":true,\"events\":0},\"rows_hidden\":0,"
		"\"totals\":{"
		"\"allocs\":{\"median\":5},\"frees\":{\"median\":4},"
		"\"bytes_alloc\":{\"median\":1000},\"bytes_req\":{\"median\":900},"
		"\"slack\":{\"median\":100},\"live\":{\"median\":1},"
		"\"live_bytes\":{\"median\":10}},\"rows\":["
		"{\"site\":\"h+0x3\",\"kind\":\"kmalloc\",\"runs\":3,"
		"\"allocs\":{\"median\":2},\"frees\":{\"median\":1},"
		"\"bytes_alloc\":{\"median\":300},\"bytes_req\":{\"median\":200},"
		"\"slack\":{\"median\":100},\"live\":{\"median\":1},"
		"\"live_bytes\":{\"median\":10}},"
		"{\"site\":\"rare+0x4\",\"kind\":\"kmalloc\",\"runs\":1,"
		"\"allocs\":{\"median\":0},\"frees\":{\"median\":0},"
		"\"bytes_alloc\":{\"median\":0},\"bytes_req\":{\"median\":0},"
		"\"slack\":{\"median\":0},\"live\":{\"median\":0},"
		"\"live_bytes\":{\"median\":0}}]}";
	struct sa_diff_side s;
	const struct sa_diff_vals *v;
	GError *err = NULL;

	ck_assert_int_eq(load(report, SA_DIFF_BY_SITE, &s, &err), 0);
	ck_assert_str_eq(s.source, "trace");
	ck_assert_str_eq(s.kernel, "6.1.0-x");
	ck_assert(s.lost_known && s.lost == 3);
	v = val(&s, "0\tf+0x1 [m]");
	ck_assert_ptr_nonnull(v);
	ck_assert(v->allocs == 2 && v->bytes_alloc == 64 && v->slack == 24 &&
		  v->live == 1 && v->live_bytes == 32 && v->bytes_req == 40);
	ck_assert_uint_eq(s.total.bytes_alloc, 64);
	sa_diff_side_clear(&s);

	ck_assert_int_eq(load(account, SA_DIFF_BY_SITE, &s, &err), 0);
	ck_assert_str_eq(s.source, "account");
	ck_assert_ptr_nonnull(s.account);
	ck_assert_uint_eq(s.account->sites, 8);
	v = val(&s, "1\tg+0x2");
	ck_assert(v && v->bytes_alloc == 128 && v->live_bytes == 64 &&
		  v->live == 2 && v->bytes_req == 100);
	sa_diff_side_clear(&s);

	/* a merge: medians; the totals are the median run's; a site not
	 * in the median run is left out */
	ck_assert_int_eq(load(merge, SA_DIFF_BY_SITE, &s, &err), 0);
	ck_assert_str_eq(s.source, "merge");
	ck_assert_uint_eq(s.runs, 3);
	ck_assert_uint_eq(g_hash_table_size(s.rows), 1);
	v = val(&s, "0\th+0x3");
	ck_assert(v && v->bytes_alloc == 300 && v->live_bytes == 10);
	ck_assert_uint_eq(s.total.bytes_alloc, 1000);
	ck_assert_uint_eq(s.total.allocs, 5);
	sa_diff_side_clear(&s);
	/* merged by site: compared by site only */
	ck_assert_int_eq(load(merge, SA_DIFF_BY_FUNCTION, &s, &err), -1);
	ck_assert(strstr(err->message, "compare it --by site"));
	g_clear_error(&err);
	sa_diff_side_clear(&s);
}
END_TEST

/* A report's JSON head: its callsite section, then S (sections). */
#define AREA_JSON(S)							\
	"{\"schema_version\":1,\"tool\":\"slabacct report\","		\
	"\"sections\":{\"callsite\":{\"rows_hidden\":0,\"rows\":[]}" S "}}"
#define AREA_TOT(a, b, f, l, lb)					\
	"\"totals\":{\"allocs\":" #a ",\"bytes\":" #b ",\"frees\":" #f	\
	",\"live\":" #l ",\"live_bytes\":" #lb "}"
#define AREA_ROW(site, a, b, f, l, lb)					\
	"{\"site\":\"" site "\",\"allocs\":" #a ",\"bytes\":" #b		\
	",\"frees\":" #f ",\"live\":" #l ",\"live_bytes\":" #lb "}"

/*
 * A report's vmalloc and percpu sections: their rows and totals, apart
 * from the slab's; a section without its events, or none, not traced.
 */
START_TEST(json_areas)
{
	static const char both[] = AREA_JSON(
		",\"vmalloc\":{\"present\":true,"
		AREA_TOT(3, 12288, 1, 2, 8192) ",\"rows\":["
		AREA_ROW("vmalloc_node_range <- g+0x7d", 2, 8192, 0, 2, 8192) ","
		AREA_ROW("(no kernel stack)", 1, 4096, 1, 0, 0) "]},"
		"\"percpu\":{\"present\":false,"
		AREA_TOT(0, 0, 0, 0, 0) ",\"rows\":[]}");
	static const char none[] = AREA_JSON("");
	const struct sa_diff_vals *v;
	struct sa_diff_side s;
	GError *err = NULL;

	ck_assert_int_eq(load(both, SA_DIFF_BY_SITE, &s, &err), 0);
	ck_assert(s.area[SA_DIFF_AREA_VMALLOC].traced);
	ck_assert(!s.area[SA_DIFF_AREA_PERCPU].traced);
	ck_assert_uint_eq(s.area[SA_DIFF_AREA_VMALLOC].total.allocs, 3);
	ck_assert_uint_eq(s.area[SA_DIFF_AREA_VMALLOC].total.bytes_alloc,
			  12288);
	ck_assert_int_eq(s.area[SA_DIFF_AREA_VMALLOC].total.live_bytes, 8192);
	ck_assert_uint_eq(s.total.bytes_alloc, 0);	/* the slab's */
	v = val(&s, "3\tvmalloc_node_range <- g+0x7d");
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->allocs, 2);
	ck_assert_int_eq(v->live, 2);
	ck_assert_ptr_nonnull(val(&s, "3\t(no kernel stack)"));
	sa_diff_side_clear(&s);
	ck_assert_int_eq(load(none, SA_DIFF_BY_SITE, &s, &err), 0);
	ck_assert(!s.area[SA_DIFF_AREA_VMALLOC].traced);
	ck_assert_uint_eq(g_hash_table_size(s.rows), 0);
	sa_diff_side_clear(&s);
}
END_TEST

/* Malformed vmalloc or percpu sections are errors, never skipped. */
START_TEST(json_areas_refused)
{
	static const struct { const char *text, *says; } bad[] = {
		{ AREA_JSON(",\"vmalloc\":[]"),
		  "the vmalloc section: an object with present" },
		{ AREA_JSON(",\"percpu\":{\"present\":1,"
			    AREA_TOT(0, 0, 0, 0, 0) ",\"rows\":[]}"),
		  "the percpu section: an object with present" },
		{ AREA_JSON(",\"percpu\":{\"present\":true,\"rows\":[]}"),
		  "the percpu section: an object with present" },
		{ AREA_JSON(",\"vmalloc\":{\"present\":true,"
			    AREA_TOT(0, 0, 0, 0, 0) "}"),
		  "the vmalloc section: an object with present" },
		{ AREA_JSON(",\"vmalloc\":{\"present\":false,"
			    AREA_TOT(0, 0, 0, 0, 0) ",\"rows\":["
			    AREA_ROW("f", 1, 1, 0, 1, 1) "]}"),
		  "has rows but not its events" },
		{ AREA_JSON(",\"vmalloc\":{\"present\":true,"
			    AREA_TOT(1, -1, 0, 0, 0) ",\"rows\":[]}"),
		  "the vmalloc section's totals" },
		{ AREA_JSON(",\"percpu\":{\"present\":true,"
			    AREA_TOT(1, 1, 0, 1, 1) ",\"rows\":["
			    AREA_ROW("f", 1, -1, 0, 1, 1) "]}"),
		  "percpu row 0" },
		{ AREA_JSON(",\"percpu\":{\"present\":true,"
			    AREA_TOT(1, 1, 0, 1, 1) ",\"rows\":[3]}"),
		  "percpu row 0" },
		{ AREA_JSON(",\"percpu\":{\"present\":true,"
			    AREA_TOT(1, 1, 0, 1, 1) ",\"rows\":["
			    AREA_ROW("", 1, 1, 0, 1, 1) "]}"),
		  "percpu row 0" },
		{ AREA_JSON(",\"percpu\":{\"present\":true,"
			    AREA_TOT(1, 1, 0, 1, 1) ",\"rows\":["
			    "{\"site\":\"f\",\"allocs\":1,\"bytes\":1.5,"
			    "\"frees\":0,\"live\":1,\"live_bytes\":1}]}"),
		  "percpu row 0" },
		/* cut or altered: the rows are not the totals */
		{ AREA_JSON(",\"vmalloc\":{\"present\":true,"
			    AREA_TOT(2, 2, 0, 2, 2) ",\"rows\":["
			    AREA_ROW("f", 1, 1, 0, 1, 1) "]}"),
		  "do not add up to its totals" },
		{ AREA_JSON(",\"vmalloc\":{\"present\":true,"
			    AREA_TOT(1, 1, 0, 1, 1) ",\"rows\":["
			    AREA_ROW("f", 1, 1, 0, 1, 1) "]},\"percpu\":7"),
		  "the percpu section: an object" },
	};
	GString *big;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++)
		refused(bad[i].text, bad[i].says);
	/* a site name past the bound */
	big = g_string_new(AREA_JSON(",\"percpu\":{\"present\":true,"
				     AREA_TOT(1, 1, 0, 1, 1)
				     ",\"rows\":[{\"site\":\""));
	g_string_truncate(big, big->len - 2);	/* AREA_JSON's closing */
	for (i = 0; i <= SA_JSON_INPUT_NAME_MAX; i++)
		g_string_append_c(big, 'x');
	g_string_append(big, "\",\"allocs\":1,\"bytes\":1,\"frees\":0,"
			"\"live\":1,\"live_bytes\":1}]}}}");
	refused(big->str, "at most 4096 bytes");
	/* more rows than the bound */
	g_string_assign(big, AREA_JSON(",\"percpu\":{\"present\":true,"
				       AREA_TOT(0, 0, 0, 0, 0) ",\"rows\":["));
	g_string_truncate(big, big->len - 2);
	for (i = 0; i <= SA_JSON_INPUT_AREA_ROWS; i++)
		g_string_append(big, i ? ",0" : "0");
	g_string_append(big, "]}}}");
	refused(big->str, "rows, more than");
	g_string_free(big, TRUE);
}
END_TEST

/* Hostile or foreign JSON is refused with a reason, never trusted. */
START_TEST(json_refused)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "{\"a\":", "not valid JSON" },
		{ "{}", "schema_version 1" },
		{ "{\"schema_version\":2,\"tool\":\"slabacct report\"}",
		  "schema_version 1" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct diff\"}",
		  "not of slabacct report, merge or account" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct report\"}",
		  "without its callsite section" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct report\","
		  "\"sections\":{\"callsite\":{\"rows_hidden\":3,\"rows\":[]}}}",
		  "cut by --top" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct report\","
		  "\"sections\":{\"callsite\":{\"by\":\"cache\",\"rows\":[]}}}",
		  "--by cache" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct report\","
		  "\"sections\":{\"callsite\":{\"rows_hidden\":0,\"rows\":"
		  "[{\"site\":\"f\",\"kind\":\"kmalloc\",\"allocs\":-1}]}}}",
		  "row 0" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct report\","
		  "\"sections\":{\"callsite\":{\"rows_hidden\":0,\"rows\":"
		  "[7]}}}", "row 0" },
		{ "{\"schema_version\":1,\"format_version\":2,\"rows\":"
		  "[{\"caller\":\"x\",\"kind\":\"slab\"}]}", "row 0" },
		{ "{\"schema_version\":1,\"tool\":\"slabacct merge\"}",
		  "without its runs" },
	};
	GString *deep = g_string_new("{\"a\":");
	guint i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++)
		refused(bad[i].text, bad[i].says);
	/* nesting is bounded before json-glib recurses into it */
	for (i = 0; i < 100000; i++)
		g_string_append_c(deep, '[');
	refused(deep->str, "nested deeper than 64");
	g_string_free(deep, TRUE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, spread);
	tcase_add_test(tc, merge_runs);
	tcase_add_test(tc, json_inputs);
	tcase_add_test(tc, json_refused);
	tcase_add_test(tc, json_areas);
	tcase_add_test(tc, json_areas_refused);
	suite_add_tcase(s, tc);
	return s;
}
