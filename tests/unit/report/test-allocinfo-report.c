// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: a /proc/allocinfo snapshot as the report's call-site rows
 * (one per site, repeated tags summed, nothing-live sites left out, live
 * figures only) and as diff sides (matched by site or by function, sorted
 * by live bytes, never compared with a trace or /proc/slab_account).
 */
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "procfs/allocinfo.h"
#include "report/agg/callsite.h"
#include "report/diff.h"
#include "report/sort.h"

Suite *suite(void);

#define HEAD	"allocinfo - version: 1.0\n#     <size>  <calls> <tag info>\n"

static const char before[] = HEAD
	"           0        0 mm/a.c:1 func:idle\n"
	"        2048        8 include/linux/foo.h:10 func:foo_alloc\n"
	"        1024        4 include/linux/foo.h:10 func:foo_alloc\n"
	"         512        4 mm/gone.c:3 func:gone_alloc\n"
	"        4096        1 fs/d.c:5 func:d_alloc\n";

static const char after[] = HEAD
	"           0        0 mm/a.c:1 func:idle\n"
	"       89600      700 /b/sa_test.c:62 [sa_test] func:sa_test_kmalloc_loop\n"
	"         128        1 /b/sa_test.c:70 [sa_test] func:sa_test_kmalloc_loop\n"
	"        3072       12 include/linux/foo.h:10 func:foo_alloc\n"
	"        4096        1 fs/d.c:5 func:d_alloc\n"
	"        -128 18446744073709551615 mm/race.c:9 func:racing\n";

static char *temp_file(const char *text)
{
	char *path = NULL;
	GError *err = NULL;
	int fd = g_file_open_tmp("test-allocinfo-XXXXXX", &path, &err);

	ck_assert_msg(fd >= 0, "%s", err ? err->message : "?");
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static const struct sa_site *site(const struct sa_callsite_result *r,
				  const char *func, int line)
{
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (!strcmp(s->func, func) && s->line == line)
			return s;
	}
	return NULL;
}

START_TEST(report_rows)
{
	char *path = temp_file(after);
	GError *err = NULL;
	struct sa_report *rep = sa_report_from_allocinfo(path, NULL, &err);
	const struct sa_callsite_result *r;
	const struct sa_site *s;

	ck_assert_msg(rep, "%s", err ? err->message : "?");
	ck_assert_uint_eq(rep->sections, 1u << SA_SEC_CALLSITE);
	ck_assert_ptr_nonnull(rep->allocinfo_head);
	ck_assert_uint_eq(rep->allocinfo_head->tags, 6);
	ck_assert_ptr_null(rep->account);
	r = rep->result[SA_SEC_CALLSITE];
	ck_assert(r->allocinfo);
	/* idle has nothing live: no row; racing is one, shown as 0 */
	ck_assert_uint_eq(r->sites->len, 5);
	ck_assert_ptr_null(site(r, "idle", 1));
	s = site(r, "sa_test_kmalloc_loop", 62);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->sym, "sa_test_kmalloc_loop [sa_test]");
	ck_assert_str_eq(s->module, "sa_test");
	ck_assert_str_eq(s->file, "/b/sa_test.c");
	ck_assert_uint_eq(s->live, 700);
	ck_assert_uint_eq(s->live_alloc, 89600);
	ck_assert_uint_eq(s->allocs, 0);
	ck_assert_uint_eq(s->bytes_alloc, 0);
	/* another line of the same function is another site */
	ck_assert_uint_eq(site(r, "sa_test_kmalloc_loop", 70)->live, 1);
	s = site(r, "racing", 9);
	ck_assert_uint_eq(s->live, 0);
	ck_assert_uint_eq(s->live_alloc, 0);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].live, 714);
	ck_assert_uint_eq(r->total[SA_KIND_KMALLOC].live_alloc,
			  89600 + 128 + 3072 + 4096);
	/* the default order is by live bytes; --min-bytes on live bytes */
	sa_callsite_view(rep->result[SA_SEC_CALLSITE], NULL, 2, 0);
	ck_assert_uint_eq(r->shown->len, 2);
	ck_assert_str_eq(((struct sa_site *)r->shown->pdata[0])->func,
			 "sa_test_kmalloc_loop");
	ck_assert_str_eq(((struct sa_site *)r->shown->pdata[1])->func,
			 "d_alloc");
	ck_assert_uint_eq(r->hidden, 3);
	sa_callsite_view(rep->result[SA_SEC_CALLSITE], NULL, 0, 4000);
	ck_assert_uint_eq(r->shown->len, 2);
	sa_report_free(rep);
	unlink(path);
	g_free(path);

	/* repeated tags of one site are one row, their counts summed */
	path = temp_file(before);
	rep = sa_report_from_allocinfo(path, NULL, &err);
	ck_assert_msg(rep, "%s", err ? err->message : "?");
	r = rep->result[SA_SEC_CALLSITE];
	ck_assert_uint_eq(r->sites->len, 3);
	s = site(r, "foo_alloc", 10);
	ck_assert_uint_eq(s->live, 12);
	ck_assert_uint_eq(s->live_alloc, 3072);
	sa_report_free(rep);
	unlink(path);
	g_free(path);
}
END_TEST

static const struct sa_diff_row *row(const struct sa_diff *d,
				     const char *name)
{
	guint i;

	for (i = 0; i < d->rows->len; i++) {
		const struct sa_diff_row *r =
			&g_array_index(d->rows, struct sa_diff_row, i);

		if (!strcmp(r->site, name))
			return r;
	}
	return NULL;
}

START_TEST(diff_sides)
{
	char *a = temp_file(before), *b = temp_file(after);
	struct sa_diff_opts o = { 0 };
	struct sa_diff d = { 0 };
	const struct sa_diff_row *r;
	GError *err = NULL;

	ck_assert_int_eq(sa_diff_side_load(&d.side[0], a, &o, &err), 0);
	ck_assert_int_eq(sa_diff_side_load(&d.side[1], b, &o, &err), 0);
	ck_assert_str_eq(d.side[0].source, "allocinfo");
	ck_assert_ptr_nonnull(d.side[0].allocinfo);
	ck_assert_int_eq(sa_diff_check_sides(&d, &err), 0);
	sa_diff_compute(&d, &o);
	ck_assert(d.allocinfo);
	/* by live bytes, whatever the bytes order says */
	r = &g_array_index(d.rows, struct sa_diff_row, 0);
	ck_assert_str_eq(r->site,
			 "sa_test_kmalloc_loop /b/sa_test.c:62 [sa_test]");
	ck_assert_int_eq(r->status, SA_DIFF_NEW);
	ck_assert_int_eq(r->kind, SA_DIFF_KIND_ANY);
	ck_assert_str_eq(sa_diff_kind_name(r->kind), "any");
	ck_assert_uint_eq(r->d_live_bytes.mag, 89600);
	ck_assert_uint_eq(r->d_live.mag, 700);
	ck_assert_uint_eq(r->d_bytes.mag, 0);
	/* unchanged, left out: foo_alloc's two tags summed on both sides */
	ck_assert_ptr_null(row(&d, "foo_alloc include/linux/foo.h:10"));
	ck_assert_ptr_null(row(&d, "d_alloc fs/d.c:5"));
	r = row(&d, "gone_alloc mm/gone.c:3");
	ck_assert_int_eq(r->status, SA_DIFF_GONE);
	ck_assert(r->d_live_bytes.neg);
	ck_assert_uint_eq(r->d_live.mag, 4);
	r = row(&d, "racing mm/race.c:9");
	ck_assert_int_eq(r->status, SA_DIFF_NEW);
	ck_assert_int_eq(r->b.live, -1);
	ck_assert_uint_eq(d.n_new, 3);
	ck_assert_uint_eq(d.n_gone, 1);
	ck_assert_uint_eq(d.n_same, 2);
	sa_diff_clear(&d);

	/* by function: the lines of a function are one row */
	o.by = SA_DIFF_BY_FUNCTION;
	ck_assert_int_eq(sa_diff_side_load(&d.side[0], a, &o, &err), 0);
	ck_assert_int_eq(sa_diff_side_load(&d.side[1], b, &o, &err), 0);
	sa_diff_compute(&d, &o);
	r = row(&d, "sa_test_kmalloc_loop [sa_test]");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->b.live, 701);
	ck_assert_int_eq(r->b.live_bytes, 89728);
	sa_diff_clear(&d);
	unlink(a);
	unlink(b);
	g_free(a);
	g_free(b);
}
END_TEST

/* allocinfo counts live bytes per source line of every allocator: it is
 * not compared with a trace's or the module's call addresses */
START_TEST(diff_mixed_refused)
{
	static const char account[] =
		"# slab_account 2\nsort: total\ntop: 0\nsites: 16\n"
		"objects: 64\ncache_slot_size: exact\nbytes_alloc: 0\n"
		"bytes_req: 0\nslack: 0\nlive_bytes: 0\nlive_req: 0\n"
		"live_objects: 0\nallocs: 0\nfrees: 0\ncallers: 0\n"
		"dropped: 0\nuntracked_frees: 0\nmap_full: 0\n"
		"lost_frees: 0\nkmalloc_allocs: 0\nkmalloc_bytes_alloc: 0\n"
		"kmalloc_bytes_req: 0\nkmalloc_slack: 0\ncache_allocs: 0\n"
		"cache_bytes_alloc: 0\ncache_bytes_req: 0\ncache_slack: 0\n"
		"pages_alloc: 0\npages_free: 0\n"
		"# total slack req live objs allocs/frees kind caller\n";
	char *a = temp_file(account), *b = temp_file(after);
	struct sa_diff_opts o = { 0 };
	struct sa_diff d = { 0 };
	GError *err = NULL;

	ck_assert_int_eq(sa_diff_side_load(&d.side[0], a, &o, &err), 0);
	ck_assert_int_eq(sa_diff_side_load(&d.side[1], b, &o, &err), 0);
	ck_assert_int_eq(sa_diff_check_sides(&d, &err), -1);
	ck_assert_msg(strstr(err->message, "is a /proc/allocinfo snapshot "
			     "and") && strstr(err->message, "/proc/slab_account"),
		      "%s", err->message);
	g_clear_error(&err);
	sa_diff_clear(&d);
	unlink(a);
	unlink(b);
	g_free(a);
	g_free(b);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("allocinfo-report");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, report_rows);
	tcase_add_test(tc, diff_sides);
	tcase_add_test(tc, diff_mixed_refused);
	suite_add_tcase(s, tc);
	return s;
}
