// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: per-process RSS, PSS and swap from smaps_rollup, and from
 * status where smaps_rollup is missing.
 */
#include <check.h>

#include "procfs/procs.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static struct sa_proc_mem *by_pid(GArray *a, int pid)
{
	guint i;

	for (i = 0; i < a->len; i++)
		if (g_array_index(a, struct sa_proc_mem, i).pid == pid)
			return &g_array_index(a, struct sa_proc_mem, i);
	ck_abort_msg("no pid %d", pid);
	return NULL;
}

START_TEST(capture_61)
{
	char *root = tree_path("6.1");
	GError *e = NULL;
	char *text = sa_procs_capture(root, &e);
	GArray *procs;
	GPtrArray *sorted;
	struct sa_proc_mem *p;

	ck_assert_msg(text != NULL, "%s", e ? e->message : "");
	procs = sa_procs_parse(text, &e);
	ck_assert_ptr_nonnull(procs);
	/* init and the script's sh; kernel threads were left out */
	ck_assert_uint_eq(procs->len, 2);
	p = by_pid(procs, 1);
	ck_assert_str_eq(p->name, "init");
	ck_assert(p->from_smaps);
	ck_assert_uint_eq(p->rss_kb, 1792);	/* smaps_rollup, not status */
	ck_assert_uint_eq(p->pss_kb, 731);
	ck_assert_uint_eq(p->pss_anon_kb, 60);
	ck_assert_uint_eq(p->swap_kb, 0);
	p = by_pid(procs, 96);
	ck_assert_str_eq(p->name, "sh");
	ck_assert_uint_eq(p->pss_kb, 663);
	sorted = sa_procs_sorted(procs, SA_PROC_BY_RSS);
	ck_assert_int_eq(((struct sa_proc_mem *)sorted->pdata[0])->pid, 1);
	g_ptr_array_unref(sorted);
	sorted = sa_procs_sorted(procs, SA_PROC_BY_PSS);
	ck_assert_int_eq(((struct sa_proc_mem *)sorted->pdata[0])->pid, 1);
	g_ptr_array_unref(sorted);
	g_array_unref(procs);
	g_free(text);
	g_free(root);
}
END_TEST

START_TEST(status_fallback)
{
	struct sa_proc_mem p = { 0 };
	char *table;
	GArray *a;

	ck_assert(sa_proc_from_status("Name:\tmy daemon\nVmRSS:\t  1234 kB\n"
				      "VmSwap:\t 56 kB\n", &p));
	ck_assert_str_eq(p.name, "my daemon");
	ck_assert_uint_eq(p.rss_kb, 1234);
	ck_assert_uint_eq(p.swap_kb, 56);
	ck_assert_uint_eq(p.pss_kb, SA_PROC_UNKNOWN);
	ck_assert(!p.from_smaps);
	g_free(p.name);
	/* a kernel thread has no VmRSS */
	p.name = NULL;
	ck_assert(!sa_proc_from_status("Name:\tkthreadd\nPid:\t2\n", &p));
	g_free(p.name);
	/* the table keeps unknown as '-' and names with blanks */
	table = g_strdup("# pid rss_kb pss_kb pss_anon_kb swap_kb source name\n"
			 "7 1234 - - 56 status my daemon\n");
	a = sa_procs_parse(table, NULL);
	ck_assert_uint_eq(a->len, 1);
	ck_assert_str_eq(g_array_index(a, struct sa_proc_mem, 0).name,
			 "my daemon");
	ck_assert_uint_eq(g_array_index(a, struct sa_proc_mem, 0).pss_kb,
			  SA_PROC_UNKNOWN);
	g_array_unref(a);
	g_free(table);
	ck_assert_ptr_null(sa_procs_parse("7 x - - 1 status n\n", NULL));
}
END_TEST

START_TEST(no_processes)
{
	char *root = tree_path("host");	/* proc/ without PID directories */
	GError *e = NULL;

	ck_assert_ptr_null(sa_procs_capture(root, &e));
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	g_free(root);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("procs");
	TCase *tc = tcase_create("procs");

	tcase_add_test(tc, capture_61);
	tcase_add_test(tc, status_fallback);
	tcase_add_test(tc, no_processes);
	suite_add_tcase(s, tc);
	return s;
}
