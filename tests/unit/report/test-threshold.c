// SPDX-License-Identifier: GPL-2.0
/* Unit tests: diff --fail-on, its grammar and what crosses a limit. */
#include <check.h>

#include "report/diff.h"
#include "report/threshold.h"

Suite *suite(void);

START_TEST(grammar)
{
	struct sa_thresholds t;
	GError *err = NULL;

	ck_assert_int_eq(sa_thresholds_parse("total:+64K,site:+10%,"
					     "new-site:16K", &t, &err), 0);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_int_eq(t.rule[0].scope, SA_THRESHOLD_TOTAL);
	ck_assert_int_eq(t.rule[0].measure, SA_DIFF_SORT_BYTES);
	ck_assert_int_eq(t.rule[0].n_limits, 1);
	ck_assert(!t.rule[0].limit[0].pct);
	ck_assert_uint_eq(t.rule[0].limit[0].amount, 65536);
	ck_assert_int_eq(t.rule[1].scope, SA_THRESHOLD_SITE);
	ck_assert(t.rule[1].limit[0].pct);
	ck_assert(t.rule[1].limit[0].percent == 10.0);
	ck_assert_int_eq(t.rule[2].scope, SA_THRESHOLD_NEW_SITE);
	ck_assert_uint_eq(t.rule[2].limit[0].amount, 16384);
	ck_assert_str_eq(t.rule[2].text, "new-site:16K");
	sa_thresholds_clear(&t);

	/* measures, several limits, units, spaces around separators */
	ck_assert_int_eq(sa_thresholds_parse(" site/live : +2.5% & +1M , "
					     "total/allocs:1000,"
					     "site/slack:0.5k,total:1G,"
					     "total:2T", &t, &err), 0);
	ck_assert_uint_eq(t.n, 5);
	ck_assert_int_eq(t.rule[0].measure, SA_DIFF_SORT_LIVE);
	ck_assert_int_eq(t.rule[0].n_limits, 2);
	ck_assert(t.rule[0].limit[0].percent == 2.5);
	ck_assert_uint_eq(t.rule[0].limit[1].amount, 1048576);
	ck_assert_int_eq(t.rule[1].measure, SA_DIFF_SORT_ALLOCS);
	ck_assert_uint_eq(t.rule[1].limit[0].amount, 1000);
	ck_assert_int_eq(t.rule[2].measure, SA_DIFF_SORT_SLACK);
	ck_assert_uint_eq(t.rule[2].limit[0].amount, 512);
	ck_assert_uint_eq(t.rule[3].limit[0].amount, 1073741824);
	ck_assert_uint_eq(t.rule[4].limit[0].amount, 2199023255552ULL);
	sa_thresholds_clear(&t);
}
END_TEST

/* Every malformed rule is refused with a message that says why. */
START_TEST(bad_grammar)
{
	static const struct { const char *rules, *says; } bad[] = {
		{ "", "no rule given" },
		{ ",", "rule 1 is empty" },
		{ "total:+1K,", "rule 2 is empty" },
		{ "total", "expected SCOPE:LIMIT" },
		{ ":1K", "expected SCOPE:LIMIT" },
		{ "site:", "expected SCOPE:LIMIT" },
		{ "sites:1K", "unknown scope 'sites'" },
		{ "site/size:1K", "unknown measure 'size'" },
		{ "site:10x", "unknown unit 'x'" },
		{ "site:10KB", "unknown unit 'KB'" },
		{ "site:-1K", "is not a limit" },
		{ "site:K", "is not a limit" },
		{ "site:1K&", "'' is not a limit" },
		{ "site:nan", "is not a limit" },
		{ "site:1e400", "is not a number" },
		{ "site:99999999999T", "too large" },
		{ "site:2000000000%", "at most" },
		{ "new-site:10%", "not a percentage" },
		{ "site:1&2&3&4&5", "at most 4 limits" },
	};
	struct sa_thresholds t;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;

		ck_assert_msg(sa_thresholds_parse(bad[i].rules, &t, &err) == -1,
			      "'%s' was taken", bad[i].rules);
		ck_assert_ptr_nonnull(err);
		ck_assert_msg(strstr(err->message, bad[i].says),
			      "'%s': '%s' does not say '%s'", bad[i].rules,
			      err->message, bad[i].says);
		ck_assert_uint_eq(t.n, 0);
		g_error_free(err);
	}
}
END_TEST

static void put(struct sa_diff_side *s, const char *key, guint64 bytes,
		guint64 allocs, gint64 live)
{
	struct sa_diff_vals *v = g_new0(struct sa_diff_vals, 1);

	v->bytes_alloc = bytes;
	v->allocs = allocs;
	v->live_bytes = live;
	s->total.bytes_alloc += bytes;
	s->total.allocs += allocs;
	s->total.live_bytes += live;
	g_hash_table_insert(s->rows, g_strdup(key), v);
}

static void sides(struct sa_diff *d)
{
	struct sa_diff_opts o = { 0 };
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < 2; i++)
		d->side[i].rows = g_hash_table_new_full(g_str_hash,
							g_str_equal, g_free,
							g_free);
	/* A: 10000 bytes; B: 10000 + 1000 + 3000 + 64 - 500 + 20100 */
	put(&d->side[0], "0\tsame", 1000, 1, 0);
	put(&d->side[1], "0\tsame", 1000, 1, 0);
	put(&d->side[0], "0\tgrows10", 4000, 4, 0);
	put(&d->side[1], "0\tgrows10", 5000, 5, 100);	/* +25% +1000 */
	put(&d->side[0], "0\tgrows3000", 4000, 4, 0);
	put(&d->side[1], "0\tgrows3000", 7000, 7, 0);	/* +75% +3000 */
	put(&d->side[0], "1\tzero", 0, 0, 0);
	put(&d->side[1], "1\tzero", 64, 1, 0);		/* from 0 */
	put(&d->side[0], "1\tshrinks", 1000, 1, 0);
	put(&d->side[1], "1\tshrinks", 500, 1, 0);
	put(&d->side[1], "0\tnew", 20000, 2, 0);
	put(&d->side[1], "0\tnew-small", 100, 1, 0);
	put(&d->side[0], "0\tgone", 0, 0, 0);
	sa_diff_compute_rows(d, &o);
}

static guint judge(const char *rules, struct sa_threshold_result *res)
{
	struct sa_thresholds t;
	struct sa_diff d;
	GError *err = NULL;
	guint n;

	ck_assert_msg(!sa_thresholds_parse(rules, &t, &err), "%s", rules);
	sides(&d);
	n = sa_thresholds_check(&t, &d, res);
	sa_thresholds_clear(&t);
	sa_diff_clear(&d);
	return n;
}

START_TEST(judging)
{
	struct sa_threshold_result r;

	/* the total grew by 23664 bytes, 236.64% */
	ck_assert_uint_eq(judge("total:+23664", &r), 0);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("total:+23663", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 1);
	ck_assert_ptr_null(r.hit[0].site);
	ck_assert_uint_eq(r.hit[0].base, 10000);
	ck_assert_uint_eq(r.hit[0].change.mag, 23664);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("total:236.7%", &r), 0);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("total:236.6%", &r), 1);
	sa_threshold_result_clear(&r);

	/* sites in both: grows10 +25%/+1000, grows3000 +75%/+3000, zero
	 * from 0; shrinks and same never */
	ck_assert_uint_eq(judge("site:+25%", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 2);	/* grows3000, zero */
	ck_assert_str_eq(r.hit[0].site, "grows3000");
	ck_assert_uint_eq(r.hit[0].base, 4000);
	ck_assert_uint_eq(r.hit[0].change.mag, 3000);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("site:+24.9%", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 3);
	sa_threshold_result_clear(&r);
	/* both limits: more than 10% and more than 1000 bytes */
	ck_assert_uint_eq(judge("site:+10%&+1000", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 1);
	ck_assert_str_eq(r.hit[0].site, "grows3000");
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("site:+10%&+3000", &r), 0);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("site:+0", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 3);
	sa_threshold_result_clear(&r);

	/* new sites by their value in B; gone ones never */
	ck_assert_uint_eq(judge("new-site:16K", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 1);
	ck_assert_str_eq(r.hit[0].site, "new");
	ck_assert_uint_eq(r.hit[0].change.mag, 20000);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("new-site:+99", &r), 1);
	ck_assert_uint_eq(r.hit[0].count, 2);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("new-site:20000", &r), 0);
	sa_threshold_result_clear(&r);

	/* other measures: allocs and live bytes */
	ck_assert_uint_eq(judge("site/allocs:+2,total/live:+99", &r), 2);
	ck_assert_uint_eq(r.hit[0].count, 1);
	ck_assert_str_eq(r.hit[0].site, "grows3000");
	ck_assert_uint_eq(r.hit[1].change.mag, 100);
	sa_threshold_result_clear(&r);
	ck_assert_uint_eq(judge("total/live:+100,site/live:+100", &r), 0);
	sa_threshold_result_clear(&r);

	/* the lead's example: the new site crosses, the total too */
	ck_assert_uint_eq(judge("total:+64K,site:+10%,new-site:16K", &r), 2);
	ck_assert_uint_eq(r.crossed, 2);
	ck_assert_uint_eq(r.hit[0].count, 0);
	ck_assert_uint_eq(r.hit[1].count, 3);
	ck_assert_uint_eq(r.hit[2].count, 1);
	sa_threshold_result_clear(&r);
}
END_TEST

/*
 * vmalloc-total and percpu-total judge their own totals, not the slab's
 * (which grew by 23664 bytes); an input that did not trace them cannot
 * be judged.
 */
START_TEST(area_totals)
{
	struct sa_thresholds t;
	struct sa_threshold_result r;
	struct sa_diff d;
	GError *err = NULL;
	struct { const char *rules; guint crossed; } c[] = {
		/* vmalloc: 1 MB in 4 areas -> 1.5 MB in 5, 128K live more */
		{ "vmalloc-total:+512K", 0 },
		{ "vmalloc-total:+524287", 1 },
		{ "vmalloc-total:50%", 0 },
		{ "vmalloc-total:49.9%", 1 },
		{ "vmalloc-total/allocs:+1", 0 },
		{ "vmalloc-total/allocs:+0", 1 },
		{ "vmalloc-total/live:+128K", 0 },
		{ "vmalloc-total/live:+131071", 1 },
		/* percpu shrank: never */
		{ "percpu-total:+0,percpu-total/allocs:+0", 0 },
		/* the slab's is apart: 23664 bytes */
		{ "total:+23664,vmalloc-total:+512K", 0 },
		{ "total:+23663,vmalloc-total:+512K", 1 },
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(c); i++) {
		ck_assert_msg(!sa_thresholds_parse(c[i].rules, &t, &err), "%s",
			      c[i].rules);
		sides(&d);
		d.side[0].area[SA_DIFF_AREA_VMALLOC] = (struct sa_diff_area_total){
			true, { .allocs = 4, .bytes_alloc = 1 << 20,
				.live_bytes = 1 << 20 } };
		d.side[1].area[SA_DIFF_AREA_VMALLOC] = (struct sa_diff_area_total){
			true, { .allocs = 5, .bytes_alloc = 3 << 19,
				.live_bytes = (1 << 20) + (128 << 10) } };
		d.side[0].area[SA_DIFF_AREA_PERCPU] = (struct sa_diff_area_total){
			true, { .allocs = 10, .bytes_alloc = 1000 } };
		d.side[1].area[SA_DIFF_AREA_PERCPU] = (struct sa_diff_area_total){
			true, { .allocs = 9, .bytes_alloc = 900 } };
		ck_assert_int_eq(sa_thresholds_judgeable(&t, &d, &err), 0);
		ck_assert_msg(sa_thresholds_check(&t, &d, &r) == c[i].crossed,
			      "%s", c[i].rules);
		if (c[i].crossed && !strncmp(c[i].rules, "vmalloc-total:+",
					     15)) {
			ck_assert_ptr_null(r.hit[0].site);
			ck_assert_uint_eq(r.hit[0].base, 1 << 20);
			ck_assert_uint_eq(r.hit[0].change.mag, 1 << 19);
		}
		/* not traced by A: the rule cannot be judged */
		d.side[0].area[SA_DIFF_AREA_VMALLOC].traced = false;
		d.side[1].area[SA_DIFF_AREA_PERCPU].traced = false;
		ck_assert_int_eq(sa_thresholds_judgeable(&t, &d, &err), -1);
		ck_assert(strstr(err->message, "nothing to judge"));
		g_clear_error(&err);
		sa_threshold_result_clear(&r);
		sa_thresholds_clear(&t);
		sa_diff_clear(&d);
	}
	/* the slab's rules need no area */
	ck_assert(!sa_thresholds_parse("total:+1,site:+1", &t, &err));
	sides(&d);
	ck_assert_int_eq(sa_thresholds_judgeable(&t, &d, &err), 0);
	sa_thresholds_clear(&t);
	sa_diff_clear(&d);
	/* no slack in a vmap area or a percpu chunk */
	ck_assert(sa_thresholds_parse("vmalloc-total/slack:+1", &t, &err));
	ck_assert(strstr(err->message, "vmalloc-total has no slack"));
	g_clear_error(&err);
}
END_TEST

/* Percentages of huge values do not overflow. */
START_TEST(extremes)
{
	struct sa_thresholds t;
	struct sa_threshold_result r;
	struct sa_diff_opts o = { 0 };
	struct sa_diff d = { 0 };
	GError *err = NULL;
	int i;

	for (i = 0; i < 2; i++)
		d.side[i].rows = g_hash_table_new_full(g_str_hash,
						       g_str_equal, g_free,
						       g_free);
	put(&d.side[0], "0\tbig", G_MAXUINT64 / 3, 1, 0);	/* +200% */
	put(&d.side[1], "0\tbig", G_MAXUINT64, 1, 0);
	sa_diff_compute_rows(&d, &o);
	ck_assert(!sa_thresholds_parse("site:+199.9%", &t, &err));
	ck_assert_uint_eq(sa_thresholds_check(&t, &d, &r), 1);
	sa_threshold_result_clear(&r);
	sa_thresholds_clear(&t);
	ck_assert(!sa_thresholds_parse("site:+200.1%", &t, &err));
	ck_assert_uint_eq(sa_thresholds_check(&t, &d, &r), 0);
	sa_threshold_result_clear(&r);
	sa_thresholds_clear(&t);
	sa_diff_clear(&d);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("threshold");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, grammar);
	tcase_add_test(tc, bad_grammar);
	tcase_add_test(tc, judging);
	tcase_add_test(tc, area_totals);
	tcase_add_test(tc, extremes);
	suite_add_tcase(s, tc);
	return s;
}
