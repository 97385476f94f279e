// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: PSI, swaps, zoneinfo and pagetypeinfo parsers.
 */
#include <check.h>

#include "procfs/pagetypeinfo.h"
#include "procfs/psi.h"
#include "procfs/swaps.h"
#include "test-snapshot-data.h"
#include "procfs/zoneinfo.h"

Suite *suite(void);

START_TEST(psi_after_oom)
{
	char *text = tree_read("6.12-cloud", "pressure-after-oom");
	struct sa_psi p;

	ck_assert_int_eq(sa_psi_parse(text, &p, NULL), 0);
	ck_assert(p.some.present && p.full.present);
	ck_assert_double_eq_tol(p.some.avg10, 0.44, 1e-9);
	ck_assert_double_eq_tol(p.some.avg60, 0.09, 1e-9);
	ck_assert_double_eq_tol(p.some.avg300, 0.02, 1e-9);
	ck_assert_uint_eq(p.some.total_us, 75363);
	ck_assert_uint_eq(p.full.total_us, 73509);
	g_free(text);
}
END_TEST

START_TEST(psi_some_only_and_bad)
{
	struct sa_psi p;
	GError *e = NULL;

	/* the CPU file of old kernels has "some" only */
	ck_assert_int_eq(sa_psi_parse("some avg10=1.50 avg60=0.00 avg300=0.00 "
				      "total=12\n", &p, NULL), 0);
	ck_assert(!p.full.present);
	ck_assert_int_eq(sa_psi_parse("some avg10=x\n", &p, &e), -1);
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	ck_assert_int_eq(sa_psi_parse("", &p, &e), -1);
	g_clear_error(&e);
}
END_TEST

START_TEST(swaps)
{
	char *none = tree_read("6.1", "proc/swaps");
	GArray *a = sa_swaps_parse(none, NULL);
	GError *e = NULL;

	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->len, 0);
	g_array_unref(a);
	g_free(none);
	a = sa_swaps_parse("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			   "/dev/vda2                               partition\t"
			   "1048572\t\t2048\t\t-2\n"
			   "/swap\\040file                           file\t\t"
			   "524284\t\t0\t\t10\n", NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->len, 2);
	ck_assert_str_eq(g_array_index(a, struct sa_swap_area, 0).name,
			 "/dev/vda2");
	ck_assert_uint_eq(g_array_index(a, struct sa_swap_area, 0).used_kb,
			  2048);
	ck_assert_int_eq(g_array_index(a, struct sa_swap_area, 0).prio, -2);
	ck_assert_str_eq(g_array_index(a, struct sa_swap_area, 1).name,
			 "/swap file");
	ck_assert_int_eq(g_array_index(a, struct sa_swap_area, 1).prio, 10);
	g_array_unref(a);
	ck_assert_ptr_null(sa_swaps_parse("nonsense\n", &e));
	g_clear_error(&e);
	ck_assert_ptr_null(sa_swaps_parse("Filename Type\n/x file 1\n", &e));
	g_clear_error(&e);
}
END_TEST

START_TEST(zoneinfo_61)
{
	char *text = tree_read("6.1", "proc/zoneinfo");
	GArray *z = sa_zoneinfo_parse(text, NULL);
	const struct sa_zone_info *dma32;

	ck_assert_ptr_nonnull(z);
	ck_assert_uint_ge(z->len, 3);
	dma32 = &g_array_index(z, struct sa_zone_info, 1);
	ck_assert_str_eq(dma32->zone, "DMA32");
	ck_assert_uint_eq(dma32->free, 104575);
	ck_assert_uint_eq(dma32->min, 648);
	ck_assert_uint_eq(dma32->low, 810);
	ck_assert_uint_eq(dma32->high, 972);	/* not a pageset's "high:" */
	ck_assert_uint_eq(dma32->managed, 112697);
	g_array_unref(z);
	g_free(text);
}
END_TEST

START_TEST(pagetypeinfo_61)
{
	char *text = tree_read("6.1", "proc/pagetypeinfo");
	struct sa_pagetypeinfo *p = sa_pagetypeinfo_parse(text, NULL);
	const struct sa_pagetype_zone *dma, *dma32;
	GError *e = NULL;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->pageblock_order, 9);
	ck_assert_str_eq(p->types[1], "Movable");
	dma = &g_array_index(p->zones, struct sa_pagetype_zone, 0);
	dma32 = &g_array_index(p->zones, struct sa_pagetype_zone, 1);
	/* Movable, DMA: 1 block of order 9, 3 of order 10 */
	ck_assert_uint_eq(dma->free_pages[1], 512 + 3 * 1024);
	/* DMA32: 0 1 1 0 1 1 1 0 0 1 97 */
	ck_assert_uint_eq(dma32->free_pages[1],
			  2 + 4 + 16 + 32 + 64 + 512 + 97 * 1024);
	/* Number of blocks: DMA32  42 200 6 0 0 */
	ck_assert_uint_eq(dma32->blocks[0], 42);
	ck_assert_uint_eq(dma32->blocks[1], 200);
	ck_assert_uint_eq(dma32->blocks[2], 6);
	sa_pagetypeinfo_free(p);
	g_free(text);
	ck_assert_ptr_null(sa_pagetypeinfo_parse("junk\n", &e));
	g_clear_error(&e);
}
END_TEST

/* 16 orders are read; 17 refused (a shift past 63 was undefined) */
START_TEST(pagetypeinfo_orders)
{
	GString *t = g_string_new("Page block order: 9\n"
				  "Node    0, zone   Normal, type  Movable");
	struct sa_pagetypeinfo *p;
	const struct sa_pagetype_zone *z;
	GError *e = NULL;
	int i;

	for (i = 0; i < 16; i++)
		g_string_append(t, " 1");
	p = sa_pagetypeinfo_parse(t->str, NULL);
	ck_assert_ptr_nonnull(p);
	z = &g_array_index(p->zones, struct sa_pagetype_zone, 0);
	ck_assert_uint_eq(z->free_pages[0], 0xffff);
	sa_pagetypeinfo_free(p);
	g_string_append(t, " 1");
	ck_assert_ptr_null(sa_pagetypeinfo_parse(t->str, &e));
	ck_assert_str_eq(e->message,
			 "pagetypeinfo: line 2 has more than 16 orders");
	g_clear_error(&e);
	g_string_free(t, TRUE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("snapshot-sources");
	TCase *tc = tcase_create("sources");

	tcase_add_test(tc, psi_after_oom);
	tcase_add_test(tc, psi_some_only_and_bad);
	tcase_add_test(tc, swaps);
	tcase_add_test(tc, zoneinfo_61);
	tcase_add_test(tc, pagetypeinfo_61);
	tcase_add_test(tc, pagetypeinfo_orders);
	suite_add_tcase(s, tc);
	return s;
}
