// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the vmalloc and percpu aggregators, on hand-made records. */
#include <check.h>

#include "report/agg/areas.h"
#include "report-fixture.h"

Suite *suite(void);

#define MS	1000000ULL
#define SITE_A	0xffffffff81000100ULL
#define SITE_B	0xffffffff81000200ULL

static struct sa_rec vm_alloc(guint64 ts, guint64 addr, guint64 size,
			      bool failed)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.ev = SA_EV_VMAP_ALLOC;
	r.v[SA_VA_ADDR] = addr;
	r.v[SA_VA_SIZE] = size;
	r.v[SA_VA_FAILED] = failed;
	r.have = 1u << SA_VA_ADDR | 1u << SA_VA_SIZE | 1u << SA_VA_FAILED;
	return r;
}

static struct sa_rec vm_free(guint64 ts, guint64 addr)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.ev = SA_EV_VMAP_FREE;
	r.v[SA_VF_START] = addr;
	r.have = 1u << SA_VF_START;
	return r;
}

static struct sa_rec pc_alloc(guint64 ts, guint64 site, guint64 ptr,
			      guint64 size, guint64 bytes)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.ev = SA_EV_PCPU_ALLOC;
	r.v[SA_PA_CALL_SITE] = site;
	r.v[SA_PA_PTR] = ptr;
	r.v[SA_PA_SIZE] = size;
	r.v[SA_PA_BYTES] = bytes;
	r.have = 1u << SA_PA_CALL_SITE | 1u << SA_PA_PTR | 1u << SA_PA_SIZE;
	if (bytes)
		r.have |= 1u << SA_PA_BYTES;
	return r;
}

static struct sa_rec pc_free(guint64 ts, guint64 ptr)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.ev = SA_EV_PCPU_FREE;
	r.v[SA_PF_PTR] = ptr;
	r.have = 1u << SA_PF_PTR;
	return r;
}

static bool has_note(const struct sa_report *rep, const char *part)
{
	guint i;

	for (i = 0; i < rep->notes->len; i++)
		if (strstr(rep->notes->pdata[i], part))
			return true;
	return false;
}

/*
 * Two areas, a failed attempt, a free of the first, a free of an area
 * older than the trace, the second's address allocated again (its free
 * untraced), and an event without its address: no stacks, so one row.
 */
START_TEST(vmalloc_counts)
{
	struct sa_rec recs[] = {
		vm_alloc(1 * MS, 0x1000, 8192, false),
		vm_alloc(2 * MS, 0x3000, 4096, false),
		vm_alloc(3 * MS, 0xfffffffffffffff4ULL, 1 << 20, true),
		vm_free(4 * MS, 0x1000),
		vm_free(5 * MS, 0x9000),
		vm_alloc(6 * MS, 0x3000, 12288, false),
		vm_alloc(7 * MS, 0x5000, 4096, false),
	};
	struct sa_report *rep;
	struct sa_area_result *r;
	struct sa_area_row *x;

	recs[6].have &= ~(1u << SA_VA_ADDR);
	rep = fx_run(recs, G_N_ELEMENTS(recs), SECTION("vmalloc"), NULL,
		     10 * MS);
	r = RESULT(rep, "vmalloc");
	ck_assert_uint_eq(r->kind, SA_AREA_VMALLOC);
	ck_assert_uint_eq(r->rows->len, 1);
	x = r->rows->pdata[0];
	ck_assert_uint_eq(x->how, SA_AREA_NO_STACK);
	ck_assert_str_eq(x->sym, "(no kernel stack)");
	ck_assert_uint_eq(x->allocs, 3);
	ck_assert_uint_eq(x->bytes, 8192 + 4096 + 12288);
	ck_assert_uint_eq(x->frees, 1);
	ck_assert_uint_eq(x->freed_bytes, 8192);
	ck_assert_uint_eq(x->live, 1);
	ck_assert_uint_eq(x->live_bytes, 12288);
	ck_assert_uint_eq(x->failed, 1);
	ck_assert_uint_eq(x->freed_untraced, 1);
	ck_assert_uint_eq(r->allocs, 3);
	ck_assert_uint_eq(r->failed, 1);
	ck_assert_uint_eq(r->unmatched_frees, 1);
	ck_assert_uint_eq(r->no_stack, 3);
	ck_assert_uint_eq(r->freed_untraced, 1);
	ck_assert(has_note(rep, "Record with --stacks"));
	ck_assert(r->present);
	sa_report_free(rep);
}
END_TEST

/* A trace without the events: the sections say so, with no rows. */
START_TEST(absent_events)
{
	struct sa_rec rec = vm_free(1 * MS, 0x1000);
	struct sa_report *rep;
	struct sa_area_result *v, *p;

	rec.ev = SA_EV_KFREE;
	rep = fx_run(&rec, 1, SECTION("vmalloc") | SECTION("percpu"), NULL,
		     10 * MS);
	v = RESULT(rep, "vmalloc");
	p = RESULT(rep, "percpu");
	ck_assert(!v->present);
	ck_assert(!p->present);
	ck_assert_uint_eq(v->rows->len + p->rows->len, 0);
	ck_assert(has_note(rep, "vmalloc: the trace has no "
			   "vmalloc:alloc_vmap_area event"));
	ck_assert(has_note(rep, "percpu: the trace has no "
			   "percpu:percpu_alloc_percpu event"));
	sa_report_free(rep);
}
END_TEST

/*
 * Two call sites; one event without bytes_alloc (its size per CPU is
 * counted, and noted); a free; a failure (no call site: a total).
 */
START_TEST(percpu_counts)
{
	struct sa_rec recs[] = {
		pc_alloc(1 * MS, SITE_A, 0x100, 24, 96),
		pc_alloc(2 * MS, SITE_A, 0x200, 24, 96),
		pc_alloc(3 * MS, SITE_B, 0x300, 40, 0),
		pc_free(4 * MS, 0x100),
		pc_free(5 * MS, 0x777),
	};
	struct sa_rec fail;
	struct sa_report *rep;
	struct sa_area_result *r;
	struct sa_area_row *a, *b;
	struct sa_rec all[G_N_ELEMENTS(recs) + 1];

	memset(&fail, 0, sizeof(fail));
	fail.ts = 6 * MS;
	fail.ev = SA_EV_PCPU_FAIL;
	fail.v[SA_PX_SIZE] = 100;
	fail.have = 1u << SA_PX_SIZE;
	memcpy(all, recs, sizeof(recs));
	all[G_N_ELEMENTS(recs)] = fail;
	rep = fx_run(all, G_N_ELEMENTS(all), SECTION("percpu"), NULL,
		     10 * MS);
	r = RESULT(rep, "percpu");
	ck_assert_uint_eq(r->rows->len, 2);
	a = r->rows->pdata[0];
	b = r->rows->pdata[1];
	ck_assert_uint_eq(a->how, SA_AREA_SITE);
	ck_assert_uint_eq(a->addr, SITE_A);
	ck_assert_uint_eq(a->allocs, 2);
	ck_assert_uint_eq(a->bytes, 192);
	ck_assert_uint_eq(a->frees, 1);
	ck_assert_uint_eq(a->live, 1);
	ck_assert_uint_eq(a->live_bytes, 96);
	ck_assert_uint_eq(b->addr, SITE_B);
	ck_assert_uint_eq(b->bytes, 40);
	ck_assert(r->per_cpu_bytes);
	ck_assert(has_note(rep, "bytes are the size per CPU"));
	ck_assert_uint_eq(r->failed, 1);
	ck_assert_uint_eq(r->failed_bytes, 100);
	ck_assert_uint_eq(r->unmatched_frees, 1);
	ck_assert_uint_eq(r->live, 2);
	ck_assert_uint_eq(r->live_bytes, 136);
	sa_report_free(rep);
}
END_TEST

/* Sizes from a hostile file saturate, never wrap. */
START_TEST(hostile_sizes_saturate)
{
	struct sa_rec recs[] = {
		vm_alloc(1 * MS, 0x1000, G_MAXUINT64, false),
		vm_alloc(2 * MS, 0x2000, G_MAXUINT64, false),
		vm_free(3 * MS, 0x1000),
		vm_free(4 * MS, 0x2000),
	};
	struct sa_report *rep = fx_run(recs, G_N_ELEMENTS(recs),
				       SECTION("vmalloc"), NULL, 10 * MS);
	struct sa_area_result *r = RESULT(rep, "vmalloc");
	struct sa_area_row *x = r->rows->pdata[0];

	ck_assert_uint_eq(x->bytes, G_MAXUINT64);
	ck_assert_uint_eq(x->freed_bytes, G_MAXUINT64);
	ck_assert_uint_eq(x->live, 0);
	ck_assert_uint_eq(x->live_bytes, 0);
	ck_assert_uint_eq(r->bytes, G_MAXUINT64);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-areas");
	TCase *tc = tcase_create("areas");

	tcase_add_test(tc, vmalloc_counts);
	tcase_add_test(tc, percpu_counts);
	tcase_add_test(tc, absent_events);
	tcase_add_test(tc, hostile_sizes_saturate);
	suite_add_tcase(s, tc);
	return s;
}
