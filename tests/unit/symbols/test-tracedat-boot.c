// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: boot buffer sizing and the kernel parameters of
 * `slabacct boot cmdline`, the lost-event count of a per-CPU stats file,
 * and symbol ranges for --call-site.
 */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "trace/boot-estimate.h"
#include "trace/events.h"
#include "symbols/kallsyms-range.h"
#include "trace/meta.h"

Suite *suite(void);

START_TEST(estimate_kmem)
{
	struct sa_boot_estimate est;

	sa_boot_estimate(SA_GROUP_KMEM, &est);
	ck_assert_int_eq(est.nr_shares, 1);
	ck_assert_str_eq(est.shares[0].group, "kmem");
	ck_assert_uint_eq(est.total_bytes, 350000 * 56);
	/* 18.7 MiB + 25% = 23.4 MiB, rounded up to whole MiB */
	ck_assert_uint_eq(est.buffer_kb, 24 * 1024);
	/* what boot cmdline asks by default: the boot group costs no MB */
	sa_boot_estimate(SA_GROUP_KMEM | SA_GROUP_BOOT, &est);
	ck_assert_int_eq(est.nr_shares, 2);
	ck_assert_str_eq(est.shares[1].group, "boot");
	ck_assert_uint_eq(est.buffer_kb, 24 * 1024);
	sa_boot_estimate(SA_GROUP_ALL, &est);
	ck_assert_int_eq(est.nr_shares, 8);
	ck_assert_uint_eq(est.buffer_kb % 1024, 0);
	ck_assert_uint_gt(est.buffer_kb, 24 * 1024);
}
END_TEST

START_TEST(cmdline_params)
{
	char *s = sa_boot_cmdline(SA_GROUP_KMEM, 14 * 1024);

	ck_assert_str_eq(s, "trace_event=kmem:kmalloc,kmem:kmalloc_node,"
			 "kmem:kfree,kmem:kmem_cache_alloc,"
			 "kmem:kmem_cache_alloc_node,kmem:kmem_cache_free "
			 "trace_buf_size=14M trace_clock=global");
	g_free(s);
	s = sa_boot_cmdline(SA_GROUP_OOM, 1500);
	ck_assert(g_str_has_prefix(s, "trace_event=oom:mark_victim,"));
	ck_assert(g_str_has_suffix(s, " trace_buf_size=1500K "
				   "trace_clock=global"));
	ck_assert_ptr_null(strstr(s, "kmem:"));
	g_free(s);
	s = sa_boot_cmdline(SA_GROUP_VMALLOC | SA_GROUP_PERCPU, 1024);
	ck_assert_str_eq(s, "trace_event=vmalloc:alloc_vmap_area,"
			 "vmalloc:free_vmap_area_noflush,"
			 "vmalloc:purge_vmap_area_lazy,"
			 "percpu:percpu_alloc_percpu,percpu:percpu_free_percpu,"
			 "percpu:percpu_alloc_percpu_fail "
			 "trace_buf_size=1M trace_clock=global");
	g_free(s);
	s = sa_boot_cmdline(SA_GROUP_BOOT, 1024);
	ck_assert_str_eq(s, "trace_event=initcall:initcall_level,"
			 "initcall:initcall_finish,sched:sched_process_exec "
			 "trace_buf_size=1M trace_clock=global");
	g_free(s);
}
END_TEST

START_TEST(needed_size)
{
	guint64 bytes[2] = { 1 << 20, 4096 };
	guint64 events[2] = { 1000, 10 };
	guint64 lost[2] = { 1000, 0 };
	guint64 none[2] = { 0, 0 };

	/* CPU 0 kept half of what it was sent: 2 MB, + 20%, whole MB */
	ck_assert_uint_eq(sa_boot_needed_kb(2, bytes, events, lost), 3 * 1024);
	/* nothing lost: what was used, + 20% */
	ck_assert_uint_eq(sa_boot_needed_kb(2, bytes, events, none), 2 * 1024);
	ck_assert_uint_eq(sa_boot_needed_kb(2, bytes, none, none), 0);
}
END_TEST

START_TEST(stats_lost)
{
	const char *stats = "entries: 12\noverrun: 100\ncommit overrun: 2\n"
			    "bytes: 4096\noldest event ts: 1.0\n"
			    "dropped events: 30\nread events: 7\n";

	ck_assert_uint_eq(sa_cpu_stats_lost(stats), 132);
	ck_assert_uint_eq(sa_cpu_stats_lost("entries: 0\n"), 0);
}
END_TEST

START_TEST(symbol_range)
{
	const char *ks = "ffffffff81000000 T _text\n"
			 "ffffffff81200000 T kstrdup\n"
			 "ffffffff81200100 t kstrdup_const\n"
			 "ffffffff81100000 T early\n"
			 "ffffffffc0001000 t mod_fn\t[mod]\n";
	guint64 lo, hi;

	ck_assert_int_eq(sa_kallsyms_range(ks, "kstrdup", &lo, &hi), 0);
	ck_assert_uint_eq(lo, 0xffffffff81200000ULL);
	ck_assert_uint_eq(hi, 0xffffffff81200100ULL);
	ck_assert_int_eq(sa_kallsyms_range(ks, "early", &lo, &hi), 0);
	ck_assert_uint_eq(hi, 0xffffffff81200000ULL);
	ck_assert_int_eq(sa_kallsyms_range(ks, "mod_fn", &lo, &hi), 0);
	ck_assert_uint_eq(lo, 0xffffffffc0001000ULL);
	ck_assert_uint_eq(hi, lo + 1);
	ck_assert_int_eq(sa_kallsyms_range(ks, "kstrdu", &lo, &hi), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("tracedat-boot");
	TCase *tc = tcase_create("boot");

	tcase_add_test(tc, estimate_kmem);
	tcase_add_test(tc, cmdline_params);
	tcase_add_test(tc, needed_size);
	tcase_add_test(tc, stats_lost);
	tcase_add_test(tc, symbol_range);
	suite_add_tcase(s, tc);
	return s;
}
