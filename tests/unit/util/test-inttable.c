// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the open-addressing integer table against GHashTable. */
#include <check.h>

#include "util/inttable.h"

Suite *suite(void);

START_TEST(basic)
{
	struct sa_inttable t;
	guint32 v = 7, *p;
	bool found;

	sa_inttable_init(&t);
	ck_assert(!sa_inttable_lookup(&t, 0, &v));
	ck_assert(!sa_inttable_take(&t, 0, NULL));
	p = sa_inttable_put(&t, 0, &found);	/* key 0 is a key */
	ck_assert(!found);
	ck_assert_uint_eq(*p, 0);
	*p = 42;
	p = sa_inttable_put(&t, 0, &found);
	ck_assert(found);
	ck_assert_uint_eq(*p, 42);
	ck_assert(sa_inttable_lookup(&t, 0, &v));
	ck_assert_uint_eq(v, 42);
	ck_assert_uint_eq(sa_inttable_len(&t), 1);
	ck_assert(sa_inttable_take(&t, 0, &v));
	ck_assert_uint_eq(v, 42);
	ck_assert_uint_eq(sa_inttable_len(&t), 0);
	ck_assert(!sa_inttable_lookup(&t, 0, &v));
	sa_inttable_clear(&t);
}
END_TEST

/*
 * Random puts and takes over a small key space of aligned pointers (long
 * collision runs, wrap-around at the table's end, growth), every result
 * checked against GHashTable, and every key looked up at the end.
 */
START_TEST(against_ghash)
{
	struct sa_inttable t;
	GHashTable *ref = g_hash_table_new(g_int64_hash, g_int64_equal);
	GRand *rnd = g_rand_new_with_seed(1234);
	guint64 keys[4096];
	int i, round;

	for (i = 0; i < 4096; i++)
		keys[i] = 0xffff888000000000ULL + (guint64)i * 64;
	sa_inttable_init(&t);
	for (round = 0; round < 200000; round++) {
		guint64 *k = &keys[g_rand_int_range(rnd, 0, round < 100000 ?
						    4096 : 300)];
		gpointer rv = g_hash_table_lookup(ref, k);
		guint32 v;

		if (g_rand_int_range(rnd, 0, 3)) {
			bool found;
			guint32 *p = sa_inttable_put(&t, *k, &found);

			ck_assert_int_eq(found, rv != NULL);
			if (rv)
				ck_assert_uint_eq(*p, GPOINTER_TO_UINT(rv));
			*p = round + 1;
			g_hash_table_insert(ref, k, GUINT_TO_POINTER(round + 1));
		} else {
			bool had = sa_inttable_take(&t, *k, &v);

			ck_assert_int_eq(had, rv != NULL);
			if (rv)
				ck_assert_uint_eq(v, GPOINTER_TO_UINT(rv));
			g_hash_table_remove(ref, k);
		}
		ck_assert_uint_eq(sa_inttable_len(&t), g_hash_table_size(ref));
	}
	for (i = 0; i < 4096; i++) {
		gpointer rv = g_hash_table_lookup(ref, &keys[i]);
		guint32 v = 0;

		ck_assert_int_eq(sa_inttable_lookup(&t, keys[i], &v),
				 rv != NULL);
		if (rv)
			ck_assert_uint_eq(v, GPOINTER_TO_UINT(rv));
	}
	sa_inttable_clear(&t);
	g_rand_free(rnd);
	g_hash_table_destroy(ref);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("inttable");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, basic);
	tcase_add_test(tc, against_ghash);
	suite_add_tcase(s, tc);
	return s;
}
