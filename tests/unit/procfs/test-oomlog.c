// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: OOM kills in the kernel logs of the two guests (an awk that
 * doubled a string until the OOM killer ended it), in /dev/kmsg and dmesg
 * form.
 */
#include <check.h>

#include "procfs/oomlog.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static const struct {
	const char *tree, *file;
	double time;
	int pid;
	guint64 anon, shmem, pgtables;
} want[] = {
	{ "6.1", "dev/kmsg", 38.249284, 1575, 421336, 1148, 868 },
	{ "6.1", "dmesg.txt", 38.249284, 1575, 421336, 1148, 868 },
	{ "6.12-cloud", "dev/kmsg", 45.988073, 2026, 431168, 1084, 888 },
	{ "6.12-cloud", "dmesg.txt", 45.988073, 2026, 431168, 1084, 888 },
};

START_TEST(guest_kill)
{
	char *text = tree_read(want[_i].tree, want[_i].file);
	GArray *kills = sa_oomlog_parse(text);
	const struct sa_oom_kill *k;

	ck_assert_uint_eq(kills->len, 1);
	k = &g_array_index(kills, struct sa_oom_kill, 0);
	ck_assert_double_eq_tol(k->time, want[_i].time, 1e-6);
	ck_assert_int_eq(k->pid, want[_i].pid);
	ck_assert_str_eq(k->comm, "awk");
	ck_assert(!k->memcg);
	ck_assert_uint_eq(k->total_vm_kb, 747736);
	ck_assert_uint_eq(k->anon_rss_kb, want[_i].anon);
	ck_assert_uint_eq(k->file_rss_kb, 0);
	ck_assert_uint_eq(k->shmem_rss_kb, want[_i].shmem);
	ck_assert_uint_eq(k->pgtables_kb, want[_i].pgtables);
	ck_assert_int_eq(k->uid, 0);
	ck_assert_int_eq(k->oom_score_adj, 0);
	ck_assert_str_eq(k->invoker, "awk");
	ck_assert_int_eq(k->order, 0);
	ck_assert_str_eq(k->gfp_mask,
		"0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_ZERO)");
	ck_assert_str_eq(k->constraint, "CONSTRAINT_NONE");
	g_array_unref(kills);
	g_free(text);
}
END_TEST

START_TEST(capture_filters)
{
	char *root = tree_path("6.1");
	GError *e = NULL;
	char *text = sa_oomlog_capture(root, &e);
	char **lines;

	ck_assert_msg(text != NULL, "%s", e ? e->message : "");
	lines = g_strsplit(text, "\n", -1);
	/* invoked oom-killer, oom-kill:, Killed process (and the empty
	 * string after the last newline) */
	ck_assert_uint_eq(g_strv_length(lines), 4);
	ck_assert(sa_oomlog_line_wanted(lines[2]));
	g_strfreev(lines);
	g_free(text);
	g_free(root);
	root = tree_path("host");	/* no dev/kmsg there */
	ck_assert_ptr_null(sa_oomlog_capture(root, &e));
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	g_free(root);
}
END_TEST

START_TEST(memcg_and_reaper)
{
	GArray *kills = sa_oomlog_parse(
		"[ 5.000000] Memory cgroup out of memory: Killed process 77 "
		"(my prog) total-vm:100kB, anon-rss:50kB, file-rss:4kB, "
		"shmem-rss:0kB, UID:1000 pgtables:40kB oom_score_adj:-500\n"
		"[ 5.100000] oom_reaper: reaped process 77 (my prog), now "
		"anon-rss:0kB, file-rss:0kB, shmem-rss:0kB\n"
		"no time here: Killed process 78 (x) total-vm:1kB\n");
	const struct sa_oom_kill *k;

	ck_assert_uint_eq(kills->len, 2);
	k = &g_array_index(kills, struct sa_oom_kill, 0);
	ck_assert(k->memcg);
	ck_assert(k->reaped);
	ck_assert_str_eq(k->comm, "my prog");
	ck_assert_int_eq(k->uid, 1000);
	ck_assert_int_eq(k->oom_score_adj, -500);
	ck_assert_ptr_null(k->invoker);
	k = &g_array_index(kills, struct sa_oom_kill, 1);
	ck_assert(k->time < 0);
	ck_assert(!k->reaped);
	g_array_unref(kills);
	kills = sa_oomlog_parse("");
	ck_assert_uint_eq(kills->len, 0);
	g_array_unref(kills);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("oomlog");
	TCase *tc = tcase_create("oomlog");

	tcase_add_loop_test(tc, guest_kill, 0, G_N_ELEMENTS(want));
	tcase_add_test(tc, capture_filters);
	tcase_add_test(tc, memcg_and_reaper);
	suite_add_tcase(s, tc);
	return s;
}
