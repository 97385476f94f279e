// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the merge's output. Its JSON, read back as a diff's side,
 * gives each site's median and the median run's totals; its CSV has the
 * same figures; its text stays within 80 columns.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "report/merge.h"

Suite *suite(void);

static void run(struct sa_merge *m, const char *file, guint64 a, guint64 b)
{
	struct sa_diff_side s = { 0 };
	struct sa_diff_vals *v;
	GError *err = NULL;

	s.file = (char *)file;
	s.source = "trace";
	s.lost_known = true;
	s.rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       g_free);
	v = g_new0(struct sa_diff_vals, 1);
	v->bytes_alloc = a;
	v->allocs = 1;
	g_hash_table_insert(s.rows, g_strdup("0\ta_very_long_function_name_"
					     "that_does_not_fit+0x1a [mod]"),
			    v);
	s.total.bytes_alloc = a;
	s.total.allocs = 1;
	if (b) {
		v = g_new0(struct sa_diff_vals, 1);
		v->bytes_alloc = b;
		v->allocs = 2;
		g_hash_table_insert(s.rows, g_strdup("1\tb+0x2"), v);
		s.total.bytes_alloc += b;
		s.total.allocs += 2;
	}
	ck_assert_int_eq(sa_merge_add(m, &s, &err), 0);
	g_hash_table_destroy(s.rows);
}

static char *emit(const struct sa_merge *m, enum sa_format fmt, size_t *len)
{
	struct sa_emit e = { .fmt = fmt, .width = 80 };
	char *buf = NULL;

	e.out = open_memstream(&buf, len);
	ck_assert_int_eq(sa_emit_merge(&e, m), 0);
	fclose(e.out);
	return buf;
}

START_TEST(round_trip)
{
	struct sa_diff_opts o = { 0 };
	struct sa_diff_side s = { 0 };
	struct sa_diff_vals *v;
	struct sa_merge m;
	GError *err = NULL;
	char *json, *csv, *text, *line;
	size_t len;

	sa_merge_init(&m, SA_DIFF_BY_SITE);
	run(&m, "r1", 100, 0);
	run(&m, "r2", 300, 1000);
	run(&m, "r3", 200, 3000);
	sa_merge_finish(&m, 0);

	json = emit(&m, SA_FMT_JSON, &len);
	s.file = g_strdup("m.json");
	s.rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       g_free);
	ck_assert_int_eq(sa_diff_side_load_json(&s, "m.json", json, len, &o,
						&err), 0);
	ck_assert_uint_eq(s.runs, 3);
	v = g_hash_table_lookup(s.rows, "0\ta_very_long_function_name_that_"
				"does_not_fit+0x1a [mod]");
	ck_assert(v && v->bytes_alloc == 200 && v->allocs == 1);
	v = g_hash_table_lookup(s.rows, "1\tb+0x2");
	ck_assert(v && v->bytes_alloc == 1000 && v->allocs == 2);
	/* the median run's total: 100, 1300, 3200 */
	ck_assert_uint_eq(s.total.bytes_alloc, 1300);
	sa_diff_side_clear(&s);

	csv = emit(&m, SA_FMT_CSV, &len);
	ck_assert(strstr(csv, "\nmerge,b+0x2,cache,2,4,0,2,2,0,0,0,0,4000,0,"
			 "1000,3000,"));
	ck_assert(strstr(csv, "\ntotal,3,7,1,3,3,0,0,0,0,4600,100,1300,3200,"));

	text = emit(&m, SA_FMT_TEXT, &len);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		ck_assert_msg(strlen(line) <= 80, "too wide: %s", line);
	free(json);
	free(csv);
	free(text);
	sa_merge_clear(&m);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("merge-emit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	return s;
}
