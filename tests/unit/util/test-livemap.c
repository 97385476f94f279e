// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the live-object map against GHashTable. */
#include <check.h>

#include "util/livemap.h"

Suite *suite(void);

static void count_one(const struct sa_live_obj *o, void *data)
{
	GHashTable *seen = data;

	ck_assert(g_hash_table_add(seen, GUINT_TO_POINTER(o->site)));
}

START_TEST(basic)
{
	struct sa_livemap m;
	struct sa_live_obj *o, out;
	GHashTable *seen = g_hash_table_new(NULL, NULL);

	sa_livemap_init(&m);
	ck_assert(!sa_livemap_take(&m, 0x1000, &out));	/* empty, no table */
	sa_livemap_foreach(&m, count_one, seen);
	ck_assert_uint_eq(g_hash_table_size(seen), 0);
	o = sa_livemap_put(&m, 0x1000);
	ck_assert_uint_eq(o->ptr, 0);			/* new: the caller fills */
	o->ptr = 0x1000;
	o->site = 7;
	o->bytes_alloc = 128;
	o = sa_livemap_put(&m, 0x1000);
	ck_assert_uint_eq(o->ptr, 0x1000);		/* live: the same object */
	ck_assert_uint_eq(o->site, 7);
	ck_assert_uint_eq(m.len, 1);
	ck_assert(!sa_livemap_take(&m, 0x2000, &out));
	ck_assert(!sa_livemap_take(&m, 0, &out));
	sa_livemap_foreach(&m, count_one, seen);
	ck_assert_uint_eq(g_hash_table_size(seen), 1);
	ck_assert(sa_livemap_take(&m, 0x1000, &out));
	ck_assert_uint_eq(out.ptr, 0x1000);
	ck_assert_uint_eq(out.site, 7);
	ck_assert_uint_eq(out.bytes_alloc, 128);
	ck_assert_uint_eq(m.len, 0);
	ck_assert(!sa_livemap_take(&m, 0x1000, &out));
	sa_livemap_clear(&m);
	g_hash_table_destroy(seen);
}
END_TEST

/*
 * Random puts and takes over a small set of aligned pointers (long
 * collision runs, wrap-around at the table's end, growth past its first
 * size), every result checked against GHashTable, and every pointer
 * looked up at the end; foreach visits each live object once.
 */
START_TEST(against_ghash)
{
	struct sa_livemap m;
	GHashTable *ref = g_hash_table_new(g_int64_hash, g_int64_equal);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GRand *rnd = g_rand_new_with_seed(4321);
	guint64 keys[8192];
	int i, round;

	for (i = 0; i < 8192; i++)
		keys[i] = 0xffff888000000000ULL + (guint64)i * 64;
	sa_livemap_init(&m);
	for (round = 0; round < 300000; round++) {
		guint64 *k = &keys[g_rand_int_range(rnd, 0, round < 150000 ?
						    8192 : 400)];
		gpointer rv = g_hash_table_lookup(ref, k);
		struct sa_live_obj *o, out;

		if (g_rand_int_range(rnd, 0, 3)) {
			o = sa_livemap_put(&m, *k);
			ck_assert_int_eq(o->ptr == *k, rv != NULL);
			if (rv)
				ck_assert_uint_eq(o->site,
						  GPOINTER_TO_UINT(rv));
			else
				ck_assert_uint_eq(o->ptr, 0);
			o->ptr = *k;
			o->site = round + 1;
			g_hash_table_insert(ref, k, GUINT_TO_POINTER(round + 1));
		} else {
			gboolean had = sa_livemap_take(&m, *k, &out);

			ck_assert_int_eq(had, rv != NULL);
			if (rv) {
				ck_assert_uint_eq(out.ptr, *k);
				ck_assert_uint_eq(out.site,
						  GPOINTER_TO_UINT(rv));
			}
			g_hash_table_remove(ref, k);
		}
		ck_assert_uint_eq(m.len, g_hash_table_size(ref));
	}
	for (i = 0; i < 8192; i++) {
		gpointer rv = g_hash_table_lookup(ref, &keys[i]);
		struct sa_live_obj *o = sa_livemap_slot(&m, keys[i]);

		ck_assert_int_eq(o->ptr == keys[i], rv != NULL);
		if (rv)
			ck_assert_uint_eq(o->site, GPOINTER_TO_UINT(rv));
	}
	sa_livemap_foreach(&m, count_one, seen);
	ck_assert_uint_eq(g_hash_table_size(seen), g_hash_table_size(ref));
	sa_livemap_clear(&m);
	g_rand_free(rnd);
	g_hash_table_destroy(seen);
	g_hash_table_destroy(ref);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("livemap");
	TCase *tc = tcase_create("core");

	/* 300,000 checked operations: Check's 4 s is short on a busy host */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, basic);
	tcase_add_test(tc, against_ghash);
	suite_add_tcase(s, tc);
	return s;
}
