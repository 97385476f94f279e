// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: report --by comm, pid and cgroup (report/tasks.h): tasks
 * followed through forks and execs from the recorder's task tables, and
 * the kernel's other contexts (irq, softirq, kernel threads) rows apart.
 */
#include <check.h>

#include "report-fixture.h"
#include "report/agg/callsite.h"
#include "trace/tracedat-format.h"

Suite *suite(void);

static struct sa_rec at(int pid, guint8 ctx, guint64 ts)
{
	struct sa_rec r = fx_alloc(SA_EV_KMALLOC, ts, 0, 0xa0,
				   0x1000 * ts, 40, 64);

	r.pid = pid;
	r.flags = ctx;
	return r;
}

static struct sa_rec fork_rec(int parent, int child, const char *comm,
			      guint64 ts)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.pid = parent;
	r.ev = SA_EV_FORK;
	r.v[SA_FK_PARENT] = parent;
	r.v[SA_FK_CHILD] = child;
	r.v[SA_FK_COMM] = (uintptr_t)g_intern_string(comm);
	r.have = 7;
	return r;
}

static struct sa_rec exec_rec(int pid, const char *file, guint64 ts)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.pid = pid;
	r.ev = SA_EV_EXEC;
	r.v[SA_EX_FILENAME] = (uintptr_t)g_intern_string(file);
	r.have = 1;
	return r;
}

/*
 * sh (100, in /a, in /b at the end) allocates, also in softirq and irq
 * context; forks 101, which allocates, execs touch and allocates; a
 * kworker (7) and a kthread kthreadd (2) forks (300) allocate; 999 is
 * in no table.
 */
static struct sa_report *run(enum sa_group_by by)
{
	struct sa_rec r[] = {
		at(100, 0, 1), at(100, SA_REC_SOFTIRQ, 2),
		at(100, SA_REC_HARDIRQ, 3), fork_rec(100, 101, "sh", 4),
		at(101, 0, 5), exec_rec(101, "/usr/bin/touch", 6),
		at(101, 0, 7), at(7, 0, 8), fork_rec(2, 300, "kthreadd", 9),
		at(300, 0, 10), at(999, 0, 11),
	};
	struct sa_report_opts o = { .by = by };
	struct sa_report *rep = sa_report_new("synthetic", 1, NULL);
	struct sa_pipeline p;
	guint i;

	rep->origin.extra = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, g_free);
	g_hash_table_insert(rep->origin.extra, g_strdup(SA_ORIGIN_TASKS_START),
			    g_strdup("100\t-\t/a\tsh\n2\tk\t\tkthreadd\n"
				     "7\tk\t\tkworker/0:1-events\n"));
	g_hash_table_insert(rep->origin.extra, g_strdup(SA_ORIGIN_TASKS_END),
			    g_strdup("100\t-\t/b\tsh\n"));
	/* the options live as long as the pipeline */
	rep->opts = g_memdup2(&o, sizeof(o));
	sa_pipeline_init(&p, rep);
	for (i = 0; i < G_N_ELEMENTS(r); i++)
		sa_pipeline_feed(&p, &r[i]);
	rep->last_ts = 20;
	sa_pipeline_finish(&p);
	return rep;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name allocs;" per row, sorted by name */
static char *rows(const struct sa_report *rep)
{
	const struct sa_callsite_result *res = rep->result[SA_SEC_CALLSITE];
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	char *s;
	guint i;

	for (i = 0; i < res->sites->len; i++) {
		const struct sa_site *x = res->sites->pdata[i];

		g_ptr_array_add(v, g_strdup_printf("%s %" G_GUINT64_FORMAT,
						   x->sym, x->allocs));
	}
	g_ptr_array_sort(v, by_name);
	g_ptr_array_add(v, NULL);
	s = g_strjoinv(";", (char **)v->pdata);
	g_ptr_array_unref(v);
	return s;
}

static bool has_note(const struct sa_report *rep, const char *part)
{
	guint i;

	for (i = 0; i < rep->notes->len; i++)
		if (strstr(rep->notes->pdata[i], part))
			return true;
	return false;
}

static void check(enum sa_group_by by, const char *want)
{
	struct sa_report *rep = run(by);
	char *got = rows(rep);

	ck_assert_str_eq(got, want);
	ck_assert(has_note(rep, "[softirq]"));
	if (by == SA_BY_CGROUP)
		ck_assert(has_note(rep, "1 tasks changed cgroup"));
	ck_assert(has_note(rep, "1 tasks were in neither task table"));
	g_free(got);
	g_free((void *)rep->opts);
	sa_report_free(rep);
}

START_TEST(by_comm)
{
	check(SA_BY_COMM, "[irq] 1;[kthread] kthreadd 1;[kthread] kworker 1;"
	      "[softirq] 1;pid-999 1;sh 2;touch 1");
}
END_TEST

START_TEST(by_pid)
{
	check(SA_BY_PID, "100 sh 1;101 sh 1;101 touch 1;999 pid-999 1;"
	      "[irq] 1;[kthread] 300 kthreadd 1;[kthread] 7 "
	      "kworker/0:1-events 1;[softirq] 1");
}
END_TEST

START_TEST(by_cgroup)
{
	check(SA_BY_CGROUP, "/a 3;[cgroup unknown] 1;[irq] 1;[kthreads] 2;"
	      "[softirq] 1");
}
END_TEST

START_TEST(by_table)
{
	enum sa_group_by by;

	ck_assert_int_eq(sa_group_by_parse("comm", &by), 0);
	ck_assert_int_eq(by, SA_BY_COMM);
	ck_assert_int_eq(sa_group_by_parse("caller", &by), 0);
	ck_assert_int_eq(by, SA_BY_CALLSITE);
	ck_assert_int_eq(sa_group_by_parse("task", &by), -1);
	ck_assert(sa_group_by_task(SA_BY_CGROUP));
	ck_assert(!sa_group_by_task(SA_BY_CACHE));
	ck_assert_str_eq(sa_group_by_name(SA_BY_PID), "pid");
	ck_assert_str_eq(sa_group_by_name(SA_BY_CALLSITE), "callsite");
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("tasks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, by_comm);
	tcase_add_test(tc, by_pid);
	tcase_add_test(tc, by_cgroup);
	tcase_add_test(tc, by_table);
	suite_add_tcase(s, tc);
	return s;
}
