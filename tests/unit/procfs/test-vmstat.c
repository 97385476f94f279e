// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: /proc/vmstat counters and the rates of --interval (vmstat,
 * sar -B/-W), by hand.
 */
#include <check.h>

#include "procfs/rates.h"
#include "test-snapshot-data.h"
#include "procfs/vmstat.h"

Suite *suite(void);

static void counters(const char *text, struct sa_vm_counters *c)
{
	GError *e = NULL;
	GHashTable *vm = sa_vmstat_parse(text, &e);

	ck_assert_msg(vm != NULL, "%s", e ? e->message : "");
	sa_vm_counters_get(vm, c);
	g_hash_table_unref(vm);
}

/* 6.12-cloud before and after the OOM kill of the capture script */
START_TEST(oom_interval_612)
{
	char *a = tree_read("6.12-cloud", "proc/vmstat");
	char *b = tree_read("6.12-cloud", "vmstat-after-oom");
	struct sa_vm_counters ca, cb;
	struct sa_vm_rates r;

	counters(a, &ca);
	counters(b, &cb);
	ck_assert_uint_eq(ca.pgfault, 1060);
	ck_assert_uint_eq(cb.pgfault, 452868);
	ck_assert(cb.have_oom_kill);
	ck_assert_uint_eq(cb.oom_kill, 1);
	/* allocstall_dma, _dma32, _normal, _movable: 0 + 0 + 0 + 50 */
	ck_assert_uint_eq(cb.allocstall, 50);
	sa_vm_rates_compute(&ca, &cb, 8.0, 4096, &r);
	ck_assert_double_eq_tol(r.fault, (452868 - 1060) / 8.0, 1e-9);
	ck_assert_double_eq_tol(r.pgfree, (622162 - 121888) / 8.0, 1e-9);
	ck_assert_double_eq_tol(r.majflt, 0, 1e-12);
	ck_assert_double_eq_tol(r.oom_kill, 1 / 8.0, 1e-12);
	ck_assert_double_eq_tol(r.allocstall, 50 / 8.0, 1e-12);
	/* nothing scanned: no efficiency */
	ck_assert(r.vmeff < 0);
	g_free(a);
	g_free(b);
}
END_TEST

START_TEST(reclaim_sums)
{
	struct sa_vm_counters a, b;
	struct sa_vm_rates r;

	counters("pgscan_kswapd 100\npgscan_direct 50\n"
		 "pgscan_direct_throttle 7\npgscan_khugepaged 10\n"
		 "pgsteal_kswapd 80\npgsteal_direct 20\npgsteal_anon 60\n"
		 "pgsteal_file 40\npgscan_anon 90\npgscan_file 70\n"
		 "pswpin 0\npswpout 0\npgpgin 0\n", &a);
	ck_assert_uint_eq(a.pgscan_direct, 50);	/* not + throttle */
	ck_assert_uint_eq(a.pgsteal_kswapd + a.pgsteal_direct, 100);
	counters("pgscan_kswapd 300\npgscan_direct 150\n"
		 "pgscan_direct_throttle 9\npgscan_khugepaged 10\n"
		 "pgsteal_kswapd 230\npgsteal_direct 70\npgsteal_anon 200\n"
		 "pgsteal_file 200\npgscan_anon 300\npgscan_file 300\n"
		 "pswpin 40\npswpout 80\npgpgin 2000\n", &b);
	sa_vm_rates_compute(&a, &b, 2.0, 4096, &r);
	ck_assert_double_eq_tol(r.pgscank, 200 / 2.0, 1e-12);
	ck_assert_double_eq_tol(r.pgscand, 100 / 2.0, 1e-12);
	/* steal 150 + 50 = 200 over scans 200 + 100 = 300 */
	ck_assert_double_eq_tol(r.pgsteal, 200 / 2.0, 1e-12);
	ck_assert_double_eq_tol(r.vmeff, 100.0 * 200 / 300, 1e-9);
	ck_assert_double_eq_tol(r.pswpin, 20, 1e-12);
	ck_assert_double_eq_tol(r.pswpout, 40, 1e-12);
	/* vmstat si/so: pages * 4 kB */
	ck_assert_double_eq_tol(r.si_kb, 80, 1e-12);
	ck_assert_double_eq_tol(r.so_kb, 160, 1e-12);
	ck_assert_double_eq_tol(r.pgpgin, 1000, 1e-12);
	/* a counter that went backwards (reset) is 0, not huge */
	sa_vm_rates_compute(&b, &a, 1.0, 4096, &r);
	ck_assert_double_eq_tol(r.pgscank, 0, 1e-12);
}
END_TEST

START_TEST(malformed)
{
	GError *e = NULL;

	ck_assert_ptr_null(sa_vmstat_parse("no numbers here\n", &e));
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("vmstat");
	TCase *tc = tcase_create("vmstat");

	tcase_add_test(tc, oom_interval_612);
	tcase_add_test(tc, reclaim_sums);
	tcase_add_test(tc, malformed);
	suite_add_tcase(s, tc);
	return s;
}
