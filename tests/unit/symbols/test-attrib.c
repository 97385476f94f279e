// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the wrapper set, its address ranges in /proc/kallsyms, and
 * attribution through a kernel stack (symbols/wrappers.h,
 * symbols/attrib.h).
 */
#include <string.h>

#include <check.h>
#include <event-parse.h>

#include "symbols/attrib.h"
#include "symbols/wrappers.h"

Suite *suite(void);

static const char ksyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T __kmalloc_node_noprof\n"
	"ffffffff81100400 T __kvmalloc_node_noprof\n"
	"ffffffff81100800 t kstrdup_const\n"
	"ffffffff81100900 T kstrdup\n"
	"ffffffff81100a00 T seq_buf_alloc\n"
	"ffffffff81100b00 T seq_read_iter\n"
	"ffffffff81100c00 D some_data\n"
	"ffffffff81200000 t mempool_alloc_noprof\t[mod]\n"
	"ffffffff81200100 t mod_fn\t[mod]\n";

START_TEST(set_by_alloc_name)
{
	struct sa_wrappers *w = sa_wrappers_new();

	ck_assert(sa_wrappers_has(NULL, "__kvmalloc_node_noprof"));
	ck_assert(sa_wrappers_has(NULL, "kvmalloc_node"));
	ck_assert(sa_wrappers_has(NULL, "mempool_alloc_noprof"));
	ck_assert(sa_wrappers_has(NULL, "kobject_set_name_vargs"));
	ck_assert(sa_wrappers_has(NULL, "devm_kmalloc"));
	ck_assert(!sa_wrappers_has(NULL, "seq_buf_alloc"));
	ck_assert(!sa_wrappers_has(NULL, "__kmalloc_node_track_caller_noprof"));
	ck_assert(!sa_wrappers_has(NULL, NULL));
	ck_assert(!sa_wrappers_has(w, "seq_buf_alloc"));
	sa_wrappers_add(w, "seq_buf_alloc_noprof");
	ck_assert(sa_wrappers_has(w, "seq_buf_alloc"));
	ck_assert(sa_wrappers_has(w, "kstrdup"));
	ck_assert(!sa_wrappers_has(NULL, "seq_buf_alloc"));
	sa_wrappers_free(w);
}
END_TEST

START_TEST(ranges_from_kallsyms)
{
	GArray *r = sa_wrappers_ranges(NULL, ksyms);
	struct sa_addr_range *a = (struct sa_addr_range *)(void *)r->data;

	/*
	 * kvmalloc_node, kstrdup_const and kstrdup, next to each other, in
	 * one range; mempool_alloc (a module's) up to the next symbol
	 */
	ck_assert_uint_eq(r->len, 2);
	ck_assert_uint_eq(a[0].lo, 0xffffffff81100400ULL);
	ck_assert_uint_eq(a[0].hi, 0xffffffff81100a00ULL);
	ck_assert_uint_eq(a[1].lo, 0xffffffff81200000ULL);
	ck_assert_uint_eq(a[1].hi, 0xffffffff81200100ULL);
	g_array_unref(r);
	/* no root: every address 0, no range */
	r = sa_wrappers_ranges(NULL, "0000000000000000 T kstrdup\n");
	ck_assert_uint_eq(r->len, 0);
	g_array_unref(r);
	ck_assert(sa_kallsyms_has_func(ksyms, "seq_read_iter"));
	ck_assert(sa_kallsyms_has_func(ksyms, "mod_fn"));
	ck_assert(!sa_kallsyms_has_func(ksyms, "some_data"));
	ck_assert(!sa_kallsyms_has_func(ksyms, "seq_read"));
	ck_assert(!sa_kallsyms_has_func(ksyms, ""));
}
END_TEST

static struct sa_symbols *syms_new(struct tep_handle **tep)
{
	GError *err = NULL;
	struct sa_symbols *s;

	*tep = tep_alloc();
	ck_assert_int_eq(tep_parse_kallsyms(*tep, ksyms), 0);
	s = sa_symbols_new(*tep, NULL, NULL, &err);
	ck_assert_ptr_nonnull(s);
	return s;
}

#define KM	0xffffffff81100010ULL	/* in __kmalloc_node_noprof */
#define KV	0xffffffff81100420ULL	/* in __kvmalloc_node_noprof */
#define KSC	0xffffffff81100810ULL	/* in kstrdup_const */
#define KS	0xffffffff81100910ULL	/* in kstrdup */
#define SBA	0xffffffff81100a30ULL	/* in seq_buf_alloc */
#define SRI	0xffffffff81100b40ULL	/* in seq_read_iter */

START_TEST(attrib_rule)
{
	struct tep_handle *tep;
	struct sa_symbols *s = syms_new(&tep);
	const guint64 f1[] = { 0xffffffff81000010ULL, KM, KV, SBA, SRI };
	const guint64 f2[] = { KM, KS, KSC, SBA, SRI };
	const guint64 f3[] = { KM, KS, KSC };
	const struct sa_stack *st;
	guint64 out[4];
	guint n;

	st = sa_stack_intern(f1, 5);
	/* the call site's own frame, then the first frame not a wrapper */
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KV, st, false, out, 4, &n),
			 SA_ATTRIB_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(out[0], SBA);
	ck_assert_uint_eq(out[1], SRI);
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KV, st, false, out, 1, &n),
			 SA_ATTRIB_OK);
	ck_assert_uint_eq(n, 1);
	/* another address of the call site's function */
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KV + 4, st, false, out, 1,
					  &n), SA_ATTRIB_OK);
	ck_assert_uint_eq(out[0], SBA);
	/* not a wrapper: nothing, unless asked (--by stack) */
	ck_assert_int_eq(sa_attrib_frames(s, NULL, SBA, st, false, out, 4, &n),
			 SA_ATTRIB_NONE);
	ck_assert_int_eq(sa_attrib_frames(s, NULL, SBA, st, true, out, 4, &n),
			 SA_ATTRIB_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], SRI);
	/* a wrapper seen through a wrapper */
	st = sa_stack_intern(f2, 5);
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KS, st, false, out, 4, &n),
			 SA_ATTRIB_OK);
	ck_assert_uint_eq(out[0], SBA);
	/* a stack without the call site; one of wrappers only */
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KV, st, false, out, 4, &n),
			 SA_ATTRIB_NOT_IN_STACK);
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KV, NULL, false, out, 4,
					  &n), SA_ATTRIB_NOT_IN_STACK);
	st = sa_stack_intern(f3, 3);
	ck_assert_int_eq(sa_attrib_frames(s, NULL, KS, st, false, out, 4, &n),
			 SA_ATTRIB_ALL_WRAPPERS);
	ck_assert_uint_eq(n, 0);
	sa_symbols_free(s);
	tep_free(tep);
}
END_TEST

START_TEST(attrib_extended_set)
{
	struct tep_handle *tep;
	struct sa_symbols *s = syms_new(&tep);
	struct sa_wrappers *w = sa_wrappers_new();
	const guint64 f1[] = { KM, KV, SBA, SRI };
	const struct sa_stack *st = sa_stack_intern(f1, 4);
	guint64 out[2];
	guint n;

	sa_wrappers_add(w, "seq_buf_alloc");
	ck_assert_int_eq(sa_attrib_frames(s, w, KV, st, false, out, 2, &n),
			 SA_ATTRIB_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], SRI);
	ck_assert(sa_attrib_is_wrapper(s, w, SBA));
	ck_assert(!sa_attrib_is_wrapper(s, NULL, SBA));
	sa_wrappers_free(w);
	sa_symbols_free(s);
	tep_free(tep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("attrib");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, set_by_alloc_name);
	tcase_add_test(tc, ranges_from_kallsyms);
	tcase_add_test(tc, attrib_rule);
	tcase_add_test(tc, attrib_extended_set);
	suite_add_tcase(s, tc);
	return s;
}
