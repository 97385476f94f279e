// SPDX-License-Identifier: GPL-2.0
/*
 * The merge of top's event stream: records of several CPUs fed in
 * timestamp order (equal stamps from the lower CPU first), those stamped
 * at or after the round's start held for the next round, where they come
 * before anything read later.
 */
#include <check.h>

#include "top/stream.h"

Suite *suite(void);

/* The ids (v[0]) of the records fed, in order. */
static void collect(struct sa_rec *r, void *data)
{
	g_array_append_val((GArray *)data, r->v[0]);
}

static void add(GArray *a, guint64 ts, guint64 id)
{
	struct sa_rec r = { .ts = ts, .v = { id } };

	g_array_append_val(a, r);
}

static void fed_is(GArray *fed, const guint64 *ids, guint n)
{
	guint i;

	ck_assert_uint_eq(fed->len, n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(g_array_index(fed, guint64, i), ids[i]);
	g_array_set_size(fed, 0);
}

START_TEST(by_timestamp_with_hold_back)
{
	GArray *recs[2], *fed = g_array_new(FALSE, FALSE, sizeof(guint64));
	static const guint64 first[] = { 1, 2, 3, 4, 5, 6 };
	static const guint64 second[] = { 7, 8, 9, 10 };
	int i;

	for (i = 0; i < 2; i++)
		recs[i] = g_array_new(FALSE, FALSE, sizeof(struct sa_rec));
	/* id = order of the stamps */
	add(recs[0], 100, 1);
	add(recs[0], 400, 4);
	add(recs[0], 500, 5);
	add(recs[0], 900, 9);
	add(recs[1], 200, 2);
	add(recs[1], 300, 3);
	add(recs[1], 600, 6);
	add(recs[1], 700, 7);
	/* the round began at 700: 700 and 900 wait */
	sa_top_stream_merge(recs, 2, 700, collect, fed);
	fed_is(fed, first, G_N_ELEMENTS(first));
	ck_assert_uint_eq(recs[0]->len, 1);
	ck_assert_uint_eq(recs[1]->len, 1);
	/* read in the next round; what waited comes first */
	add(recs[0], 950, 10);
	add(recs[1], 800, 8);
	sa_top_stream_merge(recs, 2, G_MAXUINT64, collect, fed);
	fed_is(fed, second, G_N_ELEMENTS(second));
	ck_assert_uint_eq(recs[0]->len, 0);
	ck_assert_uint_eq(recs[1]->len, 0);
	for (i = 0; i < 2; i++)
		g_array_free(recs[i], TRUE);
	g_array_free(fed, TRUE);
}
END_TEST

START_TEST(equal_stamps_lower_cpu_first)
{
	GArray *recs[3], *fed = g_array_new(FALSE, FALSE, sizeof(guint64));
	static const guint64 order[] = { 1, 2, 3, 4, 5, 6 };
	int i;

	for (i = 0; i < 3; i++)
		recs[i] = g_array_new(FALSE, FALSE, sizeof(struct sa_rec));
	add(recs[2], 10, 3);
	add(recs[2], 20, 6);
	add(recs[1], 10, 2);
	add(recs[1], 20, 5);
	add(recs[0], 10, 1);
	add(recs[0], 20, 4);
	sa_top_stream_merge(recs, 3, G_MAXUINT64, collect, fed);
	fed_is(fed, order, G_N_ELEMENTS(order));
	/* a CPU with nothing, and nothing at all */
	sa_top_stream_merge(recs, 3, G_MAXUINT64, collect, fed);
	ck_assert_uint_eq(fed->len, 0);
	for (i = 0; i < 3; i++)
		g_array_free(recs[i], TRUE);
	g_array_free(fed, TRUE);
}
END_TEST

START_TEST(everything_held)
{
	GArray *recs[1], *fed = g_array_new(FALSE, FALSE, sizeof(guint64));

	recs[0] = g_array_new(FALSE, FALSE, sizeof(struct sa_rec));
	add(recs[0], 500, 1);
	sa_top_stream_merge(recs, 1, 500, collect, fed);
	ck_assert_uint_eq(fed->len, 0);
	ck_assert_uint_eq(recs[0]->len, 1);
	g_array_free(recs[0], TRUE);
	g_array_free(fed, TRUE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("top-stream");
	TCase *tc = tcase_create("merge");

	tcase_add_test(tc, by_timestamp_with_hold_back);
	tcase_add_test(tc, equal_stamps_lower_cpu_first);
	tcase_add_test(tc, everything_held);
	suite_add_tcase(s, tc);
	return s;
}
