// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: slab caches from captured /proc/slabinfo and
 * /sys/kernel/slab of Debian's 6.1 and 6.12-cloud kernels and of the
 * host. The expected figures were computed by hand (awk over the same
 * files) with tools/mm/slabinfo's and slabtop's formulas.
 */
#include <check.h>
#include <stdlib.h>
#include <unistd.h>

#include "procfs/slabinfo.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static struct sa_slab_cache *find(struct sa_slab_table *t, const char *n)
{
	guint i;

	for (i = 0; i < t->caches->len; i++) {
		struct sa_slab_cache *c = t->caches->pdata[i];

		if (!g_strcmp0(c->name, n))
			return c;
	}
	ck_abort_msg("no cache %s", n);
	return NULL;
}

static struct sa_slab_table *proc_table(const char *tree)
{
	char *text = tree_read(tree, "proc/slabinfo");
	GError *e = NULL;
	struct sa_slab_table *t = sa_slab_parse_proc(text, 4096, &e);

	ck_assert_msg(t != NULL, "%s", e ? e->message : "");
	g_free(text);
	return t;
}

START_TEST(proc_caches_61)
{
	struct sa_slab_table *t = proc_table("6.1");
	struct sa_slab_cache *c;

	/* inode_cache 9936 9936 640 12 2 : ... : slabdata 828 828 0 */
	c = find(t, "inode_cache");
	ck_assert_uint_eq(c->active_objs, 9936);
	ck_assert_uint_eq(c->pages_per_slab, 2);
	ck_assert_uint_eq(c->size, 828ULL * 2 * 4096);		/* 6782976 */
	ck_assert_uint_eq(c->used, 9936ULL * 640);		/* 6359040 */
	ck_assert_uint_eq(c->loss, 6782976 - 6359040);
	ck_assert_uint_eq(c->eff, 93);				/* 93.75 */
	/* task_struct 66 66 8448 3 8 : ... : slabdata 22 22 0 */
	c = find(t, "task_struct");
	ck_assert_uint_eq(c->size, 22ULL * 8 * 4096);		/* 720896 */
	ck_assert_uint_eq(c->loss, 720896 - 66 * 8448);		/* 163328 */
	ck_assert_uint_eq(c->eff, 77);				/* 77.34 */
	/* kmalloc-64: every slot used, no loss */
	c = find(t, "kmalloc-64");
	ck_assert_uint_eq(c->loss, 0);
	ck_assert_uint_eq(c->eff, 100);
	sa_slab_table_free(t);
}
END_TEST

/* slabtop's header and tools/mm/slabinfo's totals, per tree */
static const struct {
	const char *tree;
	guint64 ao, no, as, ts, asl, nsl, space, used, loss, min, max, avg;
	unsigned int ac, nc;
} totals[] = {
	{ "6.1", 60563, 61236, 14302032, 14323568, 2187, 2187, 14979072,
	  14302032, 677040, 8, 8448, 233, 80, 145 },
	{ "6.12-cloud", 38454, 39130, 6842240, 6959760, 1008, 1008, 7213056,
	  6842240, 370816, 8, 8448, 177, 83, 187 },
	{ "host", 1535368, 1611648, 411214512, 420837888, 52568, 52568,
	  431087616, 411214512, 19873104, 8, 51472, 261, 125, 235 },
};

START_TEST(proc_totals)
{
	struct sa_slab_table *t = proc_table(totals[_i].tree);
	const struct sa_slab_totals *s = &t->tot;

	ck_assert_uint_eq(s->active_objs, totals[_i].ao);
	ck_assert_uint_eq(s->num_objs, totals[_i].no);
	ck_assert_uint_eq(s->active_size, totals[_i].as);
	ck_assert_uint_eq(s->total_size, totals[_i].ts);
	ck_assert_uint_eq(s->active_slabs, totals[_i].asl);
	ck_assert_uint_eq(s->num_slabs, totals[_i].nsl);
	ck_assert_uint_eq(s->active_caches, totals[_i].ac);
	ck_assert_uint_eq(s->nr_caches, totals[_i].nc);
	ck_assert_uint_eq(s->space, totals[_i].space);
	ck_assert_uint_eq(s->used, totals[_i].used);
	ck_assert_uint_eq(s->loss, totals[_i].loss);
	ck_assert_uint_eq(s->min_objsize, totals[_i].min);
	ck_assert_uint_eq(s->max_objsize, totals[_i].max);
	ck_assert_uint_eq(s->avg_objsize, totals[_i].avg);
	sa_slab_table_free(t);
}
END_TEST

START_TEST(sysfs_capture_61)
{
	char *root = tree_path("6.1");
	GError *e = NULL;
	char *text = sa_slab_sysfs_capture(root, &e);
	struct sa_slab_table *t;
	struct sa_slab_cache *c;

	ck_assert_msg(text != NULL, "%s", e ? e->message : "");
	t = sa_slab_parse_sysfs(text, 4096, &e);
	ck_assert_msg(t != NULL, "%s", e ? e->message : "");
	ck_assert_uint_eq(t->caches->len, 145);
	/* inode_cache: object_size 632, slab_size 640, order 1,
	 * objects 10740, slabs 895 */
	c = find(t, "inode_cache");
	ck_assert_uint_eq(c->object_size, 632);
	ck_assert_uint_eq(c->slot_size, 640);
	ck_assert_uint_eq(c->size, 895ULL * (4096 << 1));	/* 7331840 */
	ck_assert_uint_eq(c->used, 10740ULL * 632);		/* 6787680 */
	ck_assert_uint_eq(c->loss, 544160);
	ck_assert_uint_eq(c->eff, 92);				/* 92.58 */
	/* sums of every cache, by awk over the same attribute files */
	ck_assert_uint_eq(t->tot.space, 16896000);
	ck_assert_uint_eq(t->tot.used, 15995240);
	ck_assert_uint_eq(t->tot.loss, 900760);
	sa_slab_table_free(t);
	g_free(text);
	g_free(root);
}
END_TEST

/* A tree: /proc/slabinfo and sysfs with a merged cache behind a symlink */
static char *fake_tree(bool with_merged_link)
{
	char *root = g_dir_make_tmp("sa-slab-XXXXXX", NULL);
	char *p;
	static const char *const files[][2] = {
		{ "proc/slabinfo", "slabinfo - version: 2.1\n"
		  "# name <active_objs> ...\n"
		  "inode_cache  10740  10740  640  51  2 : tunables 0 0 0 "
		  ": slabdata  895  895  0\n"
		  "kmalloc-192  2000  2016  192  21  1 : tunables 0 0 0 "
		  ": slabdata  96  96  0\n" },
		{ "sys/kernel/slab/inode_cache/object_size", "632\n" },
		{ "sys/kernel/slab/inode_cache/objects", "10740 N0=10740\n" },
		{ "sys/kernel/slab/:0000192/object_size", "192\n" },
		{ "sys/kernel/slab/:0000192/slab_size", "192\n" },
		{ "sys/kernel/slab/:0000192/order", "0\n" },
		{ "sys/kernel/slab/:0000192/objects", "1999 N0=1999\n" },
		{ "sys/kernel/slab/:0000192/total_objects", "2016\n" },
		{ "sys/kernel/slab/:0000192/slabs", "96\n" },
		{ "sys/kernel/slab/:0000192/objs_per_slab", "21\n" },
		{ "sys/kernel/slab/inode_cache/slab_size", "640\n" },
		{ "sys/kernel/slab/inode_cache/order", "1\n" },
		{ "sys/kernel/slab/inode_cache/total_objects", "10740\n" },
		{ "sys/kernel/slab/inode_cache/slabs", "895\n" },
		{ "sys/kernel/slab/inode_cache/objs_per_slab", "51\n" },
	};
	guint i;

	ck_assert_ptr_nonnull(root);
	for (i = 0; i < G_N_ELEMENTS(files); i++) {
		char *dir;

		p = g_build_filename(root, files[i][0], NULL);
		dir = g_path_get_dirname(p);
		ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
		ck_assert(g_file_set_contents(p, files[i][1], -1, NULL));
		g_free(dir);
		g_free(p);
	}
	if (with_merged_link) {
		p = g_build_filename(root, "sys/kernel/slab/kmalloc-192", NULL);
		ck_assert_int_eq(symlink(":0000192", p), 0);
		g_free(p);
	}
	return root;
}

static void rm_tree(const char *root)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", root);

	ck_assert_int_eq(system(cmd), 0);
	g_free(cmd);
}

/*
 * With slabinfo readable, the counters are slabinfo's and only
 * object_size is read per cache, by the slabinfo name (through the
 * merged cache's symlink); a slabinfo name without a sysfs entry makes
 * it scan every attribute of the directories instead.
 */
START_TEST(sysfs_capture_paths)
{
	char *root = fake_tree(true);
	char *text = sa_slab_sysfs_capture(root, NULL);

	ck_assert_str_eq(text,
		"# name object_size slab_size order objects total_objects "
		"slabs objs_per_slab\n"
		"inode_cache 632 640 1 10740 10740 895 51\n"
		"kmalloc-192 192 192 0 2000 2016 96 21\n");
	g_free(text);
	rm_tree(root);
	g_free(root);

	root = fake_tree(false);
	text = sa_slab_sysfs_capture(root, NULL);
	ck_assert_str_eq(text,
		"# name object_size slab_size order objects total_objects "
		"slabs objs_per_slab\n"
		":0000192 192 192 0 1999 2016 96 21\n"
		"inode_cache 632 640 1 10740 10740 895 51\n");
	g_free(text);
	rm_tree(root);
	g_free(root);
}
END_TEST

/* tables recorded before the aliases column was dropped still parse */
START_TEST(sysfs_parse_nine_columns)
{
	struct sa_slab_table *t = sa_slab_parse_sysfs(
		"# name object_size slab_size order objects total_objects "
		"slabs objs_per_slab aliases\n"
		"inode_cache 632 640 1 10740 10740 895 51 0\n", 4096, NULL);

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(find(t, "inode_cache")->loss, 544160);
	sa_slab_table_free(t);
}
END_TEST

START_TEST(sorted_by_loss)
{
	struct sa_slab_table *t = proc_table("6.1");
	GPtrArray *a = sa_slab_sorted(t, SA_SLAB_BY_LOSS);
	guint i;

	ck_assert_uint_eq(a->len, t->caches->len);
	for (i = 1; i < a->len; i++)
		ck_assert_uint_ge(((struct sa_slab_cache *)a->pdata[i - 1])->loss,
				  ((struct sa_slab_cache *)a->pdata[i])->loss);
	g_ptr_array_unref(a);
	sa_slab_table_free(t);
}
END_TEST

START_TEST(malformed)
{
	GError *e = NULL;

	ck_assert_ptr_null(sa_slab_parse_proc("garbage\n", 4096, &e));
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	ck_assert_ptr_null(sa_slab_parse_proc("slabinfo - version: 2.1\n"
		"kmalloc-8 1 2 8 512 1 : tunables 0 0 0 : slabdata x 1 0\n",
		4096, &e));
	ck_assert_str_eq(e->message, "slabinfo: line 2 is malformed");
	g_clear_error(&e);
	ck_assert_ptr_null(sa_slab_parse_sysfs("a 1 2\n", 4096, &e));
	g_clear_error(&e);
	ck_assert_ptr_null(sa_slab_parse_sysfs("", 4096, &e));
	g_clear_error(&e);
	/* no /sys/kernel/slab under the host tree */
	{
		char *root = tree_path("host");

		ck_assert_ptr_null(sa_slab_sysfs_capture(root, &e));
		ck_assert_ptr_nonnull(e);
		g_clear_error(&e);
		g_free(root);
	}
}
END_TEST

START_TEST(empty_cache_is_100)
{
	struct sa_slab_table *t = sa_slab_parse_proc(
		"slabinfo - version: 2.1\n# name ...\n"
		"empty 0 0 96 42 1 : tunables 0 0 0 : slabdata 0 0 0\n",
		4096, NULL);

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(((struct sa_slab_cache *)t->caches->pdata[0])->eff,
			  100);
	ck_assert_uint_eq(t->tot.active_caches, 0);
	sa_slab_table_free(t);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("slabinfo");
	TCase *tc = tcase_create("slabinfo");

	tcase_add_test(tc, proc_caches_61);
	tcase_add_loop_test(tc, proc_totals, 0, G_N_ELEMENTS(totals));
	tcase_add_test(tc, sysfs_capture_61);
	tcase_add_test(tc, sysfs_capture_paths);
	tcase_add_test(tc, sysfs_parse_nine_columns);
	tcase_add_test(tc, sorted_by_loss);
	tcase_add_test(tc, malformed);
	tcase_add_test(tc, empty_cache_is_100);
	suite_add_tcase(s, tc);
	return s;
}
