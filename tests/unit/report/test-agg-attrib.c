// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: allocations attributed through wrappers by their stacks in
 * the call-site aggregator (--by caller, the default; --by wrapper;
 * --by stack and --stack-depth; --wrapper), their frees following them.
 */
#include <string.h>

#include <check.h>
#include <event-parse.h>

#include "report-fixture.h"
#include "report/agg/callsite.h"
#include "symbols/symbols.h"
#include "symbols/wrappers.h"
#include "trace/stack.h"

Suite *suite(void);

static const char ksyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T __kmalloc_node_noprof\n"
	"ffffffff81100400 T __kvmalloc_node_noprof\n"
	"ffffffff81100a00 T seq_buf_alloc\n"
	"ffffffff81100b00 T seq_read_iter\n"
	"ffffffff81100c00 T vfs_read\n"
	"ffffffff81100d00 T other\n";

#define KM	0xffffffff81100010ULL
#define KV	0xffffffff81100420ULL
#define KV2	0xffffffff81100480ULL	/* another call site in it */
#define SBA	0xffffffff81100a30ULL
#define SRI	0xffffffff81100b40ULL
#define VR	0xffffffff81100c50ULL

static const struct sa_stack *stk(guint64 a, guint64 b, guint64 c,
				  guint64 d)
{
	const guint64 ip[] = { KM, a, b, c, d };

	return sa_stack_intern(ip, 5);
}

static struct sa_report *run(struct sa_rec *recs, int n,
			     const struct sa_report_opts *opts)
{
	struct sa_report *rep = sa_report_new("synthetic", 1, opts);

	rep->stacks = 1;
	fx_run_symbols(rep, ksyms, recs, n, 1000);
	return rep;
}

static const struct sa_site *row(const struct sa_report *rep,
				 const char *sym)
{
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (!strcmp(s->sym, sym))
			return s;
	}
	ck_abort_msg("no row %s", sym);
	return NULL;
}

static guint rows(const struct sa_report *rep)
{
	return ((struct sa_callsite_result *)
		rep->result[SA_SEC_CALLSITE])->sites->len;
}

/* Six allocations and three frees; n of them in *n. */
static struct sa_rec *workload(int *n)
{
	static struct sa_rec r[10];
	int i = 0;

	r[i] = fx_alloc(SA_EV_KMALLOC, 1, 0, KV, 0x1000, 40, 64);
	r[i++].stack = stk(KV, SBA, SRI, VR);
	r[i] = fx_alloc(SA_EV_KMALLOC, 2, 0, KV, 0x2000, 40, 64);
	r[i++].stack = stk(KV, SBA, SRI, VR);
	/* another call site of the same wrapper, from the same caller */
	r[i] = fx_alloc(SA_EV_KMALLOC, 3, 1, KV2, 0x3000, 100, 128);
	r[i++].stack = stk(KV2, SBA, SRI, VR);
	/* the same wrapper from another caller */
	r[i] = fx_alloc(SA_EV_KMALLOC, 4, 0, KV, 0x4000, 8, 8);
	r[i++].stack = stk(KV, SRI, VR, VR);
	/* no stack: stays at the wrapper */
	r[i++] = fx_alloc(SA_EV_KMALLOC, 5, 0, KV, 0x5000, 8, 8);
	/* not a wrapper's call site, with a stack */
	r[i] = fx_alloc(SA_EV_KMALLOC, 6, 0, SBA, 0x6000, 16, 16);
	r[i++].stack = stk(SBA, SRI, VR, VR);
	/* the frees follow their allocations, on another CPU */
	r[i++] = fx_free(SA_EV_KFREE, 7, 1, 0x1000);
	r[i++] = fx_free(SA_EV_KFREE, 8, 1, 0x3000);
	r[i++] = fx_free(SA_EV_KFREE, 9, 0, 0x4000);
	*n = i;
	return r;
}

START_TEST(by_caller)
{
	struct sa_report_opts o = { .by = SA_BY_CALLSITE };
	int n;
	struct sa_rec *r = workload(&n);
	struct sa_report *rep = run(r, n, &o);
	const struct sa_callsite_result *res = rep->result[SA_SEC_CALLSITE];
	const struct sa_site *s;

	ck_assert_uint_eq(rows(rep), 4);
	s = row(rep, "kvmalloc_node <- seq_buf_alloc+0x30");
	ck_assert_uint_eq(s->allocs, 3);
	ck_assert_uint_eq(s->bytes_alloc, 256);
	ck_assert_uint_eq(s->frees, 2);
	ck_assert_uint_eq(s->live, 1);
	ck_assert_uint_eq(s->pingpong, 1);
	ck_assert_str_eq(s->wrapper, "kvmalloc_node");
	ck_assert_str_eq(s->caller_sym, "seq_buf_alloc+0x30");
	ck_assert_str_eq(s->func, "seq_buf_alloc");	/* for subsystems */
	ck_assert_ptr_null(s->wrapper_hint);
	s = row(rep, "kvmalloc_node <- seq_read_iter+0x40");
	ck_assert_uint_eq(s->allocs, 1);
	ck_assert_uint_eq(s->frees, 1);
	s = row(rep, "__kvmalloc_node_noprof+0x20");
	ck_assert_uint_eq(s->allocs, 1);
	ck_assert_ptr_nonnull(s->wrapper_hint);
	ck_assert_ptr_null(s->wrapper);
	s = row(rep, "seq_buf_alloc+0x30");
	ck_assert_uint_eq(s->allocs, 1);
	ck_assert_uint_eq(res->attributed, 4);
	ck_assert_uint_eq(res->wrapper_no_stack, 1);
	ck_assert_uint_eq(res->attrib_not_in_stack, 0);
	sa_report_free(rep);
}
END_TEST

START_TEST(by_wrapper)
{
	struct sa_report_opts o = { .by = SA_BY_WRAPPER };
	int n;
	struct sa_rec *r = workload(&n);
	struct sa_report *rep = run(r, n, &o);

	ck_assert_uint_eq(rows(rep), 3);
	ck_assert_uint_eq(row(rep, "__kvmalloc_node_noprof+0x20")->allocs, 4);
	ck_assert_uint_eq(row(rep, "__kvmalloc_node_noprof+0x20")->frees, 2);
	ck_assert_uint_eq(row(rep, "__kvmalloc_node_noprof+0x80")->allocs, 1);
	ck_assert_uint_eq(((struct sa_callsite_result *)
			   rep->result[SA_SEC_CALLSITE])->attributed, 0);
	sa_report_free(rep);
}
END_TEST

START_TEST(by_stack)
{
	struct sa_report_opts o = { .by = SA_BY_STACK, .stack_depth = 2 };
	int n;
	struct sa_rec *r = workload(&n);
	struct sa_report *rep = run(r, n, &o);
	const struct sa_site *s;

	ck_assert_uint_eq(rows(rep), 4);
	s = row(rep, "kvmalloc_node <- seq_buf_alloc+0x30 <- "
		"seq_read_iter+0x40");
	ck_assert_uint_eq(s->allocs, 3);
	ck_assert_uint_eq(s->frames->n, 2);
	row(rep, "kvmalloc_node <- seq_read_iter+0x40 <- vfs_read+0x50");
	/* any call site with a stack gets its frames */
	s = row(rep, "seq_buf_alloc+0x30 <- seq_read_iter+0x40 <- "
		"vfs_read+0x50");
	ck_assert_ptr_null(s->wrapper);
	ck_assert_str_eq(s->func, "seq_read_iter");
	sa_report_free(rep);
}
END_TEST

START_TEST(extended_set)
{
	struct sa_wrappers *w = sa_wrappers_new();
	struct sa_report_opts o = { .by = SA_BY_CALLSITE, .wrappers = w };
	int n;
	struct sa_rec *r;
	struct sa_report *rep;

	sa_wrappers_add(w, "seq_buf_alloc");
	r = workload(&n);
	rep = run(r, n, &o);
	ck_assert_uint_eq(row(rep, "kvmalloc_node <- seq_read_iter+0x40")
			  ->allocs, 4);
	ck_assert_uint_eq(row(rep, "seq_buf_alloc <- seq_read_iter+0x40")
			  ->allocs, 1);
	sa_report_free(rep);
	sa_wrappers_free(w);
}
END_TEST

START_TEST(no_symbols_no_attribution)
{
	struct sa_report_opts o = { .by = SA_BY_CALLSITE };
	int n;
	struct sa_rec *r = workload(&n);
	struct sa_report *rep = fx_run(r, n, 1, &o, 1000);

	ck_assert_uint_eq(rows(rep), 3);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-attrib");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, by_caller);
	tcase_add_test(tc, by_wrapper);
	tcase_add_test(tc, by_stack);
	tcase_add_test(tc, extended_set);
	tcase_add_test(tc, no_symbols_no_attribution);
	suite_add_tcase(s, tc);
	return s;
}
