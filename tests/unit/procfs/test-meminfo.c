// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: free(1)'s figures from captured /proc/meminfo files, checked
 * against hand computations (the values are those of the files).
 */
#include <check.h>

#include "procfs/meminfo.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static const struct {
	const char *tree;
	guint64 total, used, free, shared, buff_cache, available;
} want[] = {
	/* used = MemTotal - MemAvailable;
	 * buff/cache = Buffers + Cached + SReclaimable */
	{ "6.1", 466148, 466148 - 433520, 433724, 7464, 0 + 7464 + 8860,
	  433520 },
	{ "6.12-cloud", 474752, 474752 - 441696, 447144, 7584, 0 + 7584 + 672,
	  441696 },
	{ "host", 24684092, 24684092 - 24001136, 22053508, 8856,
	  76600 + 1792704 + 388768, 24001136 },
};

START_TEST(free_figures)
{
	char *text = tree_read(want[_i].tree, "proc/meminfo");
	GHashTable *mi = sa_meminfo_parse(text, NULL);
	struct sa_memfree f;

	ck_assert_ptr_nonnull(mi);
	ck_assert_int_eq(sa_memfree_compute(mi, &f, NULL), 0);
	ck_assert_uint_eq(f.total, want[_i].total);
	ck_assert_uint_eq(f.used, want[_i].used);
	ck_assert_uint_eq(f.free, want[_i].free);
	ck_assert_uint_eq(f.shared, want[_i].shared);
	ck_assert_uint_eq(f.buff_cache, want[_i].buff_cache);
	ck_assert_uint_eq(f.available, want[_i].available);
	ck_assert(!f.available_estimated);
	ck_assert_uint_eq(f.swap_total, 0);
	ck_assert(f.swap_used_pct == 0);
	g_hash_table_unref(mi);
	g_free(text);
}
END_TEST

START_TEST(swap_commit_huge)
{
	const char *text =
		"MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 10 kB\n"
		"Cached: 200 kB\nSReclaimable: 30 kB\nSwapCached: 25 kB\n"
		"SwapTotal: 1000 kB\nSwapFree: 750 kB\n"
		"Committed_AS: 1500 kB\nHugePages_Total: 4\n"
		"HugePages_Free: 1\nHugepagesize: 2048 kB\n";
	GHashTable *mi = sa_meminfo_parse(text, NULL);
	struct sa_memfree f;

	ck_assert_int_eq(sa_memfree_compute(mi, &f, NULL), 0);
	/* no MemAvailable: free(1) falls back to MemFree */
	ck_assert(f.available_estimated);
	ck_assert_uint_eq(f.available, 100);
	ck_assert_uint_eq(f.used, 900);
	ck_assert_uint_eq(f.buff_cache, 240);
	ck_assert_uint_eq(f.swap_used, 250);
	ck_assert_double_eq_tol(f.swap_used_pct, 25.0, 1e-9);
	ck_assert_double_eq_tol(f.swap_cached_pct, 10.0, 1e-9);
	ck_assert_double_eq_tol(f.commit_pct, 75.0, 1e-9);	/* 1500/2000 */
	ck_assert_uint_eq(f.huge_total_kb, 8192);
	ck_assert_double_eq_tol(f.huge_used_pct, 75.0, 1e-9);
	g_hash_table_unref(mi);
}
END_TEST

START_TEST(malformed)
{
	GError *e = NULL;
	GHashTable *mi = sa_meminfo_parse("garbage\n", &e);
	struct sa_memfree f;

	ck_assert_ptr_null(mi);
	g_clear_error(&e);
	mi = sa_meminfo_parse("MemTotal: 10 kB\n", &e);
	ck_assert_ptr_nonnull(mi);
	ck_assert_int_eq(sa_memfree_compute(mi, &f, &e), -1);
	ck_assert_str_eq(e->message, "meminfo has no MemTotal or MemFree");
	g_clear_error(&e);
	g_hash_table_unref(mi);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("meminfo");
	TCase *tc = tcase_create("meminfo");

	tcase_add_loop_test(tc, free_figures, 0, G_N_ELEMENTS(want));
	tcase_add_test(tc, swap_commit_huge);
	tcase_add_test(tc, malformed);
	suite_add_tcase(s, tc);
	return s;
}
