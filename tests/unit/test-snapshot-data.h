/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The captured /proc trees of tests/data/proc/<name>/ (6.1, 6.12-cloud,
 * host), for the snapshot unit tests. tests/run runs the tests from the
 * top of the tree; SLABACCT_TOP overrides that.
 */
#ifndef TEST_SNAPSHOT_DATA_H
#define TEST_SNAPSHOT_DATA_H

#include <stdlib.h>

#include <check.h>
#include <glib.h>

static inline char *tree_path(const char *tree)
{
	const char *top = getenv("SLABACCT_TOP");

	return g_build_filename(top ? top : ".", "tests/data/proc", tree,
				NULL);
}

/* The text of tests/data/proc/<tree>/<rel>; the test fails if missing. */
static inline char *tree_read(const char *tree, const char *rel)
{
	char *dir = tree_path(tree), *path = g_build_filename(dir, rel, NULL);
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL),
		      "cannot read %s (run from the top of the tree)", path);
	g_free(path);
	g_free(dir);
	return text;
}

#endif /* TEST_SNAPSHOT_DATA_H */
