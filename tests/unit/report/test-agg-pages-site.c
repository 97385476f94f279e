// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: pages by call site in the pages aggregator, from the
 * kernel stacks of mm_page_alloc (the first frame past the page
 * allocator, the large kmalloc and the wrappers), their live blocks
 * following the frees, and no rows without stacks.
 */
#include <string.h>

#include <check.h>
#include <event-parse.h>

#include "report-fixture.h"
#include "report/agg/pages.h"
#include "symbols/symbols.h"
#include "trace/stack.h"

Suite *suite(void);

static const char ksyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T trace_event_raw_event_mm_page_alloc\n"
	"ffffffff81100400 T __alloc_pages_noprof\n"
	"ffffffff81100800 T alloc_pages_mpol_noprof\n"
	"ffffffff81100a00 T pte_alloc_one\n"
	"ffffffff81100b00 T __kmalloc_large_node_noprof\n"
	"ffffffff81100c00 T __kmalloc_noprof\n"
	"ffffffff81100d00 T __kvmalloc_node_noprof\n"
	"ffffffff81100e00 T seq_buf_alloc\n"
	"ffffffff81100f00 T alloc_slab_page\n"
	"ffffffff81101000 T do_syscall_64\n"
	"ffffffff81101100 t alloc_pages_mpol_noprof.constprop.0\n"
	"ffffffff81101200 t do_anonymous_page\n"
	"ffffffff81101300 T _etext\n";

#define TP	0xffffffff81100010ULL
#define AP	0xffffffff81100420ULL
#define MP	0xffffffff81100830ULL
#define PTE	0xffffffff81100a19ULL
#define KL	0xffffffff81100b40ULL
#define KM	0xffffffff81100c28ULL
#define KV	0xffffffff81100d50ULL
#define SBA	0xffffffff81100e30ULL
#define SLAB	0xffffffff81100f10ULL
#define SYS	0xffffffff81101040ULL
#define MPC	0xffffffff81101120ULL
#define ANON	0xffffffff81101230ULL

static struct sa_rec palloc(guint64 ts, guint64 pfn, guint64 order,
			    const struct sa_stack *stack)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.pid = 100;
	r.ev = SA_EV_PAGE_ALLOC;
	r.v[SA_PG_PFN] = pfn;
	r.v[SA_PG_ORDER] = order;
	r.v[SA_PG_MT] = 0;
	r.v[SA_PG_GFP] = 0xcc0;
	r.have = 1u << SA_PG_PFN | 1u << SA_PG_ORDER | 1u << SA_PG_MT |
		 1u << SA_PG_GFP;
	r.stack = stack;
	return r;
}

static struct sa_rec pfree(guint64 ts, guint64 pfn, guint64 order)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.ev = SA_EV_PAGE_FREE;
	r.v[SA_PG_PFN] = pfn;
	r.v[SA_PG_ORDER] = order;
	r.have = 1u << SA_PG_PFN | 1u << SA_PG_ORDER;
	return r;
}

static const struct sa_stack *stk(const guint64 *ip, guint n)
{
	return sa_stack_intern(ip, n);
}

static struct sa_report *run(struct sa_rec *recs, int n, bool stacks)
{
	struct sa_report_opts o = { .by = SA_BY_CALLSITE };
	struct sa_report *rep = sa_report_new("synthetic", SECTION("pages"),
					      &o);

	rep->stacks = stacks;
	rep->ev_present[SA_EV_PAGE_ALLOC] = true;
	rep->ev_present[SA_EV_PAGE_FREE] = true;
	fx_run_symbols(rep, ksyms, recs, n, 1000);
	return rep;
}

static const struct sa_pg_site *row(const struct sa_pages_result *r,
				    const char *sym)
{
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		const struct sa_pg_site *s = r->sites->pdata[i];

		if (!strcmp(s->sym, sym))
			return s;
	}
	{
		GString *all = g_string_new(NULL);

		for (i = 0; i < r->sites->len; i++)
			g_string_append_printf(all, " [%s]",
				((const struct sa_pg_site *)r->sites->pdata[i])->sym);
		ck_abort_msg("no row %s among%s", sym, all->str);
	}
	return NULL;
}

START_TEST(sites)
{
	const guint64 pte[] = { TP, AP, MP, PTE, SYS };
	const guint64 large[] = { TP, AP, KL, KM, SBA, SYS };
	const guint64 wrap[] = { TP, AP, KL, KM, KV, SBA, SYS };
	const guint64 slab[] = { TP, AP, MP, SLAB, KM, SBA, SYS };
	const guint64 none[] = { TP, AP, MP };
	struct sa_rec r[] = {
		palloc(1, 0x100, 0, stk(pte, 5)),
		palloc(2, 0x101, 0, stk(pte, 5)),
		palloc(3, 0x200, 2, stk(large, 6)),
		palloc(4, 0x204, 2, stk(large, 6)),
		palloc(5, 0x300, 1, stk(wrap, 7)),
		palloc(6, 0x400, 3, stk(slab, 7)),
		palloc(7, 0x500, 0, stk(none, 3)),
		palloc(8, 0x600, 0, NULL),
		pfree(9, 0x100, 0),
		pfree(10, 0x204, 2),
		/* allocated again without a free: the newer site keeps it */
		palloc(11, 0x300, 0, stk(pte, 5)),
	};
	struct sa_report *rep = run(r, G_N_ELEMENTS(r), true);
	const struct sa_pages_result *res = RESULT(rep, "pages");
	const struct sa_pg_site *s;

	ck_assert_ptr_nonnull(res->sites);
	ck_assert_uint_eq(res->sites->len, 6);
	ck_assert_uint_eq(res->with_stack, 8);
	s = row(res, "alloc_pages_mpol <- pte_alloc_one+0x19");
	ck_assert_uint_eq(s->blocks, 3);
	ck_assert_uint_eq(s->pages, 3);
	ck_assert_uint_eq(s->live_blocks, 2);
	ck_assert_uint_eq(s->live_pages, 2);
	ck_assert_str_eq(s->func, "pte_alloc_one");
	/* the large kmalloc is passed over, to its caller */
	s = row(res, "kmalloc <- seq_buf_alloc+0x30");
	ck_assert_uint_eq(s->blocks, 2);
	ck_assert_uint_eq(s->pages, 8);
	ck_assert_uint_eq(s->live_blocks, 1);
	ck_assert_uint_eq(s->live_pages, 4);
	/* so is a wrapper */
	s = row(res, "kvmalloc_node <- seq_buf_alloc+0x30");
	ck_assert_uint_eq(s->pages, 2);
	ck_assert_uint_eq(s->live_blocks, 0);
	ck_assert_uint_eq(s->live_pages, 0);
	/* a slab's page stays at the slab allocator */
	s = row(res, "alloc_pages_mpol <- alloc_slab_page+0x10");
	ck_assert_uint_eq(s->pages, 8);
	s = row(res, "(no caller in the stack)");
	ck_assert_uint_eq(s->blocks, 1);
	s = row(res, "(no kernel stack)");
	ck_assert_uint_eq(s->blocks, 1);
	/* most pages first */
	ck_assert_uint_ge(((struct sa_pg_site *)res->sites->pdata[0])->pages,
			  8);
	sa_report_free(rep);
}
END_TEST

/*
 * A compiler's copy of a page allocator function (.constprop.0) is
 * passed over as the function is, and named after it.
 */
START_TEST(compiler_copy)
{
	const guint64 anon[] = { TP, AP, MPC, ANON, SYS };
	struct sa_rec r[] = {
		palloc(1, 0x100, 0, stk(anon, 5)),
		palloc(2, 0x101, 1, stk(anon, 5)),
	};
	struct sa_report *rep = run(r, G_N_ELEMENTS(r), true);
	const struct sa_pages_result *res = RESULT(rep, "pages");
	const struct sa_pg_site *s;

	ck_assert_uint_eq(res->sites->len, 1);
	s = row(res, "alloc_pages_mpol <- do_anonymous_page+0x30");
	ck_assert_uint_eq(s->blocks, 2);
	ck_assert_uint_eq(s->pages, 3);
	ck_assert_str_eq(s->func, "do_anonymous_page");
	sa_report_free(rep);
}
END_TEST

START_TEST(no_stacks_no_sites)
{
	struct sa_rec r[] = { palloc(1, 0x100, 0, NULL) };
	struct sa_report *rep = run(r, 1, false);
	const struct sa_pages_result *res = RESULT(rep, "pages");

	ck_assert_ptr_null(res->sites);
	ck_assert_ptr_nonnull(res->by_site_why);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-pages-site");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sites);
	tcase_add_test(tc, compiler_copy);
	tcase_add_test(tc, no_stacks_no_sites);
	suite_add_tcase(s, tc);
	return s;
}
