// SPDX-License-Identifier: GPL-2.0
/*
 * Boot capture on a board, computed by hand: the budget ((MB - 108) / 2
 * for all CPUs, at most 192 MB, each CPU a whole-MB share), the estimate
 * with stacks (296 bytes each: after every event, or on the wrappers'
 * allocations only), and what a kernel's symbol file says: boot triggers
 * (setup_trace_triggers) and the wrappers by the kernel's own names,
 * module symbols and data symbols left out, the trace_trigger= value
 * they make; a file that is not a symbol file is refused. Per
 * architecture: arm64's early cap (48 MB), ARM's typical boot (80,000
 * kmem events), and the architecture a symbol file tells.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace/boot-estimate.h"
#include "trace/boot-kernel.h"
#include "trace/events.h"

Suite *suite(void);

START_TEST(budget)
{
	struct sa_boot_budget b;

	sa_boot_budget(128, 2, 0, &b);
	ck_assert_uint_eq(b.total_kb, 10 * 1024);
	ck_assert_uint_eq(b.cpu_kb, 5 * 1024);
	ck_assert(!b.capped);
	sa_boot_budget(256, 2, 0, &b);
	ck_assert_uint_eq(b.total_kb, 74 * 1024);
	ck_assert_uint_eq(b.cpu_kb, 37 * 1024);
	/* 1 GB: (1024 - 108) / 2 = 458, capped */
	sa_boot_budget(1024, 2, 0, &b);
	ck_assert_uint_eq(b.total_kb, 192 * 1024);
	ck_assert_uint_eq(b.cpu_kb, 96 * 1024);
	ck_assert(b.capped);
	/* 5 CPUs: 38 MB each, whole MB */
	sa_boot_budget(1024, 5, 0, &b);
	ck_assert_uint_eq(b.cpu_kb, 38 * 1024);
	/* too small: nothing */
	sa_boot_budget(100, 1, 0, &b);
	ck_assert_uint_eq(b.cpu_kb, 0);
	/* given */
	sa_boot_budget(64, 4, 40, &b);
	ck_assert_uint_eq(b.cpu_kb, 10 * 1024);
}
END_TEST

START_TEST(estimate_stacks)
{
	struct sa_boot_estimate e;
	struct sa_boot_budget b;

	sa_boot_estimate_stacks(SA_GROUP_KMEM, SA_BOOT_STACKS_ALL, &e);
	ck_assert_uint_eq(e.shares[0].stacks, 350000);
	ck_assert_uint_eq(e.total_bytes, 350000ULL * (56 + 296));
	/* 117.5 MiB + 25% = 146.9: 147 MB */
	ck_assert_uint_eq(e.buffer_kb, 147 * 1024);
	sa_boot_estimate_stacks(SA_GROUP_KMEM, SA_BOOT_STACKS_WRAPPERS, &e);
	ck_assert_uint_eq(e.shares[0].stacks, 2000);
	ck_assert_uint_eq(e.total_bytes, 350000ULL * 56 + 2000 * 296);
	sa_boot_estimate_stacks(SA_GROUP_KMEM, SA_BOOT_STACKS_NONE, &e);
	ck_assert_uint_eq(e.buffer_kb, 24 * 1024);
	/* until /init: 72,000 x 56 = 3.85 MiB, + 25% = 4.8: 5 MB */
	sa_boot_estimate_until(SA_GROUP_KMEM | SA_GROUP_BOOT,
			       SA_BOOT_STACKS_NONE, SA_BOOT_UNTIL_INIT, &e);
	ck_assert_uint_eq(e.shares[0].events, 72000);
	ck_assert_uint_eq(e.total_bytes, 72000ULL * 56 + 1000 * 24);
	ck_assert_uint_eq(e.buffer_kb, 5 * 1024);
	/* the 128 MB, 2-CPU board's 5 MB per CPU holds it */
	sa_boot_budget(128, 2, 0, &b);
	ck_assert_uint_le(e.buffer_kb, b.cpu_kb);
}
END_TEST

START_TEST(arch)
{
	struct sa_boot_estimate e;
	struct sa_boot_budget b;
	enum sa_boot_arch a;

	/* arm64: 96 MB free when the buffer is allocated, 48 of it */
	sa_boot_budget_arch(1024, 1, 0, SA_BOOT_ARCH_ARM64, &b);
	ck_assert_uint_eq(b.total_kb, 48 * 1024);
	ck_assert_uint_eq(b.cpu_kb, 48 * 1024);
	ck_assert_uint_eq(b.early_mb, 48);
	ck_assert(b.capped);
	/* (256 - 108) / 2 = 74, over it */
	sa_boot_budget_arch(256, 2, 0, SA_BOOT_ARCH_ARM64, &b);
	ck_assert_uint_eq(b.cpu_kb, 24 * 1024);
	/* 128 MB: 10, under it: the same as x86-64's */
	sa_boot_budget_arch(128, 2, 0, SA_BOOT_ARCH_ARM64, &b);
	ck_assert_uint_eq(b.cpu_kb, 5 * 1024);
	ck_assert(!b.capped);
	/* given: not capped */
	sa_boot_budget_arch(1024, 1, 90, SA_BOOT_ARCH_ARM64, &b);
	ck_assert_uint_eq(b.cpu_kb, 90 * 1024);
	/* armhf and x86-64: 192 */
	sa_boot_budget_arch(1024, 2, 0, SA_BOOT_ARCH_ARM, &b);
	ck_assert_uint_eq(b.total_kb, 192 * 1024);
	sa_boot_budget_arch(1024, 2, 0, SA_BOOT_ARCH_X86_64, &b);
	ck_assert_uint_eq(b.total_kb, 192 * 1024);

	/* ARM: 80,000 x (56 + 296) = 26.9 MiB, + 25% = 33.6: 34 MB */
	sa_boot_estimate_arch(SA_GROUP_KMEM, SA_BOOT_STACKS_ALL,
			      SA_BOOT_UNTIL_COLLECT, SA_BOOT_ARCH_ARM64, &e);
	ck_assert_uint_eq(e.shares[0].events, 80000);
	ck_assert_uint_eq(e.total_bytes, 80000ULL * (56 + 296));
	ck_assert_uint_eq(e.buffer_kb, 34 * 1024);
	/* it fits arm64's one buffer of 48 MB; x86-64's 147 MB would not */
	sa_boot_budget_arch(1024, 1, 0, SA_BOOT_ARCH_ARM64, &b);
	ck_assert_uint_le(e.buffer_kb, b.cpu_kb);
	/* without stacks: 4.27 MiB + 25% = 5.3: 6 MB */
	sa_boot_estimate_arch(SA_GROUP_KMEM, SA_BOOT_STACKS_NONE,
			      SA_BOOT_UNTIL_COLLECT, SA_BOOT_ARCH_ARM, &e);
	ck_assert_uint_eq(e.buffer_kb, 6 * 1024);
	/* until /init: the same 72,000 as x86-64 */
	sa_boot_estimate_arch(SA_GROUP_KMEM, SA_BOOT_STACKS_NONE,
			      SA_BOOT_UNTIL_INIT, SA_BOOT_ARCH_ARM, &e);
	ck_assert_uint_eq(e.shares[0].events, 72000);
	/* x86-64 unchanged */
	sa_boot_estimate_arch(SA_GROUP_KMEM, SA_BOOT_STACKS_NONE,
			      SA_BOOT_UNTIL_COLLECT, SA_BOOT_ARCH_X86_64, &e);
	ck_assert_uint_eq(e.shares[0].events, 350000);

	ck_assert_int_eq(sa_boot_arch_parse("aarch64", &a), 0);
	ck_assert_int_eq(a, SA_BOOT_ARCH_ARM64);
	ck_assert_int_eq(sa_boot_arch_parse("armv7l", &a), 0);
	ck_assert_int_eq(a, SA_BOOT_ARCH_ARM);
	ck_assert_int_eq(sa_boot_arch_parse("armhf", &a), 0);
	ck_assert_int_eq(a, SA_BOOT_ARCH_ARM);
	ck_assert_int_eq(sa_boot_arch_parse("x86_64", &a), 0);
	ck_assert_int_eq(a, SA_BOOT_ARCH_X86_64);
	ck_assert_int_eq(sa_boot_arch_parse("riscv64", &a), -1);
	ck_assert_str_eq(sa_boot_arch_name(SA_BOOT_ARCH_ARM64), "arm64");
}
END_TEST

static char *write_syms(const char *text)
{
	char *path = g_strdup("/tmp/test-boot-budget-XXXXXX");
	int fd = g_mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(kernel_symbols)
{
	char *path = write_syms(
		"ffffffff81000000 T _text\n"
		"ffffffff81001000 T kstrdup\n"
		"ffffffff81002000 T __kvmalloc_node_noprof\n"
		"ffffffff81003000 t mempool_alloc_slab\n"
		"ffffffff81004000 D kmemdup\n"
		"ffffffff81005000 T kstrdup_x\n"
		"ffffffffc0001000 t kasprintf\t[mod]\n"
		"ffffffff81006000 t setup_trace_triggers\n");
	struct sa_boot_kernel k;
	GError *err = NULL;
	char *t;

	ck_assert_int_eq(sa_boot_kernel_read(path, &k, &err), 0);
	ck_assert(k.triggers);
	ck_assert_int_eq(k.arch, -1);
	ck_assert_uint_eq(k.wrappers->len, 3);
	ck_assert_uint_eq(k.cache_wrappers->len, 1);
	t = sa_boot_kernel_triggers(&k, SA_GROUP_KMEM | SA_GROUP_PAGE);
	ck_assert_str_eq(t, "kmalloc.stacktrace if call_site.function == "
			 "kstrdup || call_site.function == "
			 "__kvmalloc_node_noprof || call_site.function == "
			 "mempool_alloc_slab,kmem_cache_alloc.stacktrace if "
			 "call_site.function == mempool_alloc_slab,"
			 "mm_page_alloc.stacktrace");
	g_free(t);
	sa_boot_kernel_clear(&k);
	unlink(path);
	g_free(path);

	/* the architecture, by its syscall entry */
	path = write_syms("ffff800008010000 T _text\n"
			  "ffff8000080a0000 T __arm64_sys_read\n");
	ck_assert_int_eq(sa_boot_kernel_read(path, &k, &err), 0);
	ck_assert_int_eq(k.arch, SA_BOOT_ARCH_ARM64);
	ck_assert(!k.triggers);
	sa_boot_kernel_clear(&k);
	unlink(path);
	g_free(path);
	path = write_syms("c0100000 T vector_swi\n");
	ck_assert_int_eq(sa_boot_kernel_read(path, &k, &err), 0);
	ck_assert_int_eq(k.arch, SA_BOOT_ARCH_ARM);
	sa_boot_kernel_clear(&k);
	unlink(path);
	g_free(path);
	path = write_syms("ffffffff81200000 T __x64_sys_read\n");
	ck_assert_int_eq(sa_boot_kernel_read(path, &k, &err), 0);
	ck_assert_int_eq(k.arch, SA_BOOT_ARCH_X86_64);
	sa_boot_kernel_clear(&k);
	unlink(path);
	g_free(path);

	path = write_syms("not a symbol file\n");
	ck_assert_int_eq(sa_boot_kernel_read(path, &k, &err), -1);
	ck_assert(err != NULL);
	g_clear_error(&err);
	unlink(path);
	g_free(path);
	ck_assert_int_eq(sa_boot_kernel_read("/nonexistent/kallsyms", &k,
					     &err), -1);
	g_clear_error(&err);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("boot-budget");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, budget);
	tcase_add_test(tc, estimate_stacks);
	tcase_add_test(tc, arch);
	tcase_add_test(tc, kernel_symbols);
	suite_add_tcase(s, tc);
	return s;
}
