// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the file:line kept per address of the call-site rows'
 * stacks (report/agg/frame-src.c), for pprof's locations.
 */
#include <check.h>

#include "report/agg/callsite.h"
#include "symbols/symbols.h"

Suite *suite(void);

START_TEST(kept_once_per_address)
{
	struct sa_callsite_result r = { 0 };
	struct sa_sym a = { .func = "f", .file = "mm/a.c", .line = 10 };
	struct sa_sym b = { .func = "g", .file = "mm/b.c", .line = 20 };
	struct sa_sym later = { .func = "f", .file = "mm/x.c", .line = 99 };
	struct sa_sym none = { .func = "h" };
	struct sa_frame_src src;
	guint64 i;

	/* nothing kept: nothing found, and no array */
	ck_assert(!sa_callsite_frame_src(&r, 0x1000, &src));
	sa_callsite_frame_src_put(&r, 0x1000, &none);
	ck_assert(!sa_callsite_frame_src(&r, 0x1000, &src));
	ck_assert_ptr_null(r.frame_src);

	sa_callsite_frame_src_put(&r, 0x1000, &a);
	sa_callsite_frame_src_put(&r, 0x2000, &b);
	/* the first position of an address stays, and is one entry */
	sa_callsite_frame_src_put(&r, 0x1000, &later);
	ck_assert_uint_eq(r.frame_src->len, 2);
	ck_assert(sa_callsite_frame_src(&r, 0x1000, &src));
	ck_assert_str_eq(src.file, "mm/a.c");
	ck_assert_int_eq(src.line, 10);
	ck_assert(sa_callsite_frame_src(&r, 0x2000, &src));
	ck_assert_str_eq(src.file, "mm/b.c");
	ck_assert_int_eq(src.line, 20);
	ck_assert(!sa_callsite_frame_src(&r, 0x3000, &src));

	/* many addresses, each found again after the table grew */
	for (i = 0; i < 5000; i++) {
		struct sa_sym s = { .func = "k", .file = "k.c",
				    .line = (int)i + 1 };

		sa_callsite_frame_src_put(&r, 0xffffffff81000000ULL + i, &s);
	}
	ck_assert_uint_eq(r.frame_src->len, 5002);
	for (i = 0; i < 5000; i++) {
		ck_assert(sa_callsite_frame_src(&r, 0xffffffff81000000ULL + i,
						&src));
		ck_assert_int_eq(src.line, (int)i + 1);
	}
	sa_inttable_clear(&r.frame_idx);
	g_array_free(r.frame_src, TRUE);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-frame-src");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, kept_once_per_address);
	suite_add_tcase(s, tc);
	return s;
}
