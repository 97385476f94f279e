// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: /proc/buddyinfo and the unusable free space index. The
 * guest trees hold the kernel's own /sys/kernel/debug/extfrag/
 * unusable_index, read right after buddyinfo: our index must equal it for
 * every zone and order.
 */
#include <check.h>

#include "procfs/buddyinfo.h"
#include "procfs/parse.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static GArray *zones_of(const char *tree)
{
	char *text = tree_read(tree, "proc/buddyinfo");
	GError *e = NULL;
	GArray *z = sa_buddyinfo_parse(text, &e);

	ck_assert_msg(z != NULL, "%s", e ? e->message : "");
	g_free(text);
	return z;
}

START_TEST(hand_61_dma)
{
	GArray *zones = zones_of("6.1");
	const struct sa_buddy_zone *z = &g_array_index(zones,
			struct sa_buddy_zone, 0);

	/* Node 0, zone DMA  0 0 0 0 0 1 1 1 0 1 3 */
	ck_assert_str_eq(z->zone, "DMA");
	ck_assert_int_eq(z->nr_orders, 11);
	/* free = 32 + 64 + 128 + 512 + 3 * 1024 = 3808 pages */
	ck_assert_uint_eq(sa_buddy_free_pages(z), 3808);
	ck_assert(sa_buddy_unusable(z, 0) == 0);
	ck_assert(sa_buddy_unusable(z, 5) == 0);
	/* order 6: only the order-5 block (32 pages) is too small */
	ck_assert_double_eq_tol(sa_buddy_unusable(z, 6), 32.0 / 3808, 1e-12);
	/* order 10: all but the 3 order-10 blocks */
	ck_assert_double_eq_tol(sa_buddy_unusable(z, 10), 736.0 / 3808,
				1e-12);
	ck_assert_uint_eq(sa_buddy_unusable_milli(z, 10), 193);
	/* beyond the last order nothing is usable */
	ck_assert(sa_buddy_unusable(z, 11) == 1);
	g_array_unref(zones);
}
END_TEST

static const char *const guests[] = { "6.1", "6.12-cloud" };

START_TEST(equals_kernel_debugfs)
{
	GArray *zones = zones_of(guests[_i]);
	char *k = tree_read(guests[_i],
			    "sys/kernel/debug/extfrag/unusable_index");
	char **lines = g_strsplit(k, "\n", -1);
	guint zi = 0, checked = 0;
	char **l;

	for (l = lines; *l; l++) {
		const struct sa_buddy_zone *z;
		char **f;
		int n, o;

		if (!**l)
			continue;
		f = sa_line_fields(&(struct sa_line){ *l, strlen(*l), 0 },
				   &n);
		ck_assert_uint_lt(zi, zones->len);
		z = &g_array_index(zones, struct sa_buddy_zone, zi++);
		ck_assert_str_eq(f[3], z->zone);
		ck_assert_int_eq(n - 4, z->nr_orders);
		for (o = 0; o < z->nr_orders; o++) {
			char *mine = g_strdup_printf("%u.%03u",
					sa_buddy_unusable_milli(z, o) / 1000,
					sa_buddy_unusable_milli(z, o) % 1000);

			ck_assert_msg(!g_strcmp0(mine, f[4 + o]),
				      "%s order %d: ours %s, kernel %s",
				      z->zone, o, mine, f[4 + o]);
			g_free(mine);
			checked++;
		}
		g_strfreev(f);
	}
	ck_assert_uint_eq(zi, zones->len);
	ck_assert_uint_eq(checked, 22);		/* DMA and DMA32, 11 orders */
	g_strfreev(lines);
	g_free(k);
	g_array_unref(zones);
}
END_TEST

START_TEST(host_three_zones)
{
	GArray *zones = zones_of("host");

	ck_assert_uint_eq(zones->len, 3);
	ck_assert_str_eq(g_array_index(zones, struct sa_buddy_zone, 2).zone,
			 "Normal");
	g_array_unref(zones);
}
END_TEST

START_TEST(empty_zone_and_malformed)
{
	GError *e = NULL;
	GArray *z = sa_buddyinfo_parse("Node 0, zone Movable 0 0 0\n", &e);

	ck_assert_ptr_nonnull(z);
	/* no free memory is all unusable, as the kernel has it */
	ck_assert(sa_buddy_unusable(&g_array_index(z, struct sa_buddy_zone,
						   0), 2) == 1);
	ck_assert_uint_eq(sa_buddy_unusable_milli(&g_array_index(z,
				struct sa_buddy_zone, 0), 2), 1000);
	g_array_unref(z);
	ck_assert_ptr_null(sa_buddyinfo_parse("Node 0, zone DMA 1 x 3\n", &e));
	ck_assert_str_eq(e->message, "buddyinfo: line 1 is malformed");
	g_clear_error(&e);
	ck_assert_ptr_null(sa_buddyinfo_parse("", &e));
	g_clear_error(&e);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("buddyinfo");
	TCase *tc = tcase_create("buddyinfo");

	tcase_add_test(tc, hand_61_dma);
	tcase_add_loop_test(tc, equals_kernel_debugfs, 0, G_N_ELEMENTS(guests));
	tcase_add_test(tc, host_three_zones);
	tcase_add_test(tc, empty_zone_and_malformed);
	suite_add_tcase(s, tc);
	return s;
}
