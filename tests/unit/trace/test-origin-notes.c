// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the notes a trace's origin implies (trace/origin.h). */
#include <check.h>
#include <string.h>

#include "trace/origin.h"
#include "trace/tracedat-format.h"

Suite *suite(void);

/* The notes of an origin whose section holds key = value pairs. */
static GPtrArray *notes_of(const char *const *kv)
{
	struct sa_trace_origin o = { 0 };
	GPtrArray *n;

	o.extra = g_hash_table_new(g_str_hash, g_str_equal);
	for (; kv && kv[0]; kv += 2)
		g_hash_table_insert(o.extra, (char *)kv[0], (char *)kv[1]);
	n = sa_trace_origin_notes(&o);
	g_hash_table_unref(o.extra);
	return n;
}

static gboolean has_prefix(GPtrArray *n, const char *p)
{
	guint i;

	for (i = 0; i < n->len; i++)
		if (g_str_has_prefix(n->pdata[i], p))
			return TRUE;
	return FALSE;
}

START_TEST(none)
{
	GPtrArray *n = notes_of(NULL);

	ck_assert_uint_eq(n->len, 0);
	g_ptr_array_unref(n);
}
END_TEST

START_TEST(cpus_without_buffer)
{
	static const char *const kv[] = {
		SA_ORIGIN_NO_BUFFER, "1 3", SA_ORIGIN_OFFLINE, "2", NULL
	};
	GPtrArray *n = notes_of(kv);

	ck_assert_uint_eq(n->len, 2);
	/* online without a buffer: a loss, said so */
	ck_assert(has_prefix(n, "CPU 1 3 had no ring buffer (the kernel "
			     "could not allocate it"));
	ck_assert(strstr(g_ptr_array_index(n, 0), "every figure misses") ||
		  strstr(g_ptr_array_index(n, 1), "every figure misses"));
	/* offline: nothing to record */
	ck_assert(has_prefix(n, "CPU 2 was offline: it had no ring buffer, "
			     "and no events to record"));
	g_ptr_array_unref(n);
}
END_TEST

START_TEST(cpu_kept_down_by_its_buffer)
{
	static const char *const kv[] = {
		SA_ORIGIN_BUFFER_FAILED, "1", NULL
	};
	GPtrArray *n = notes_of(kv);

	ck_assert_uint_eq(n->len, 1);
	/* linked to its cause, not merely offline */
	ck_assert(has_prefix(n, "CPU 1 did not come up: the kernel could not "
			     "allocate its ring buffer as it came up (dmesg: "
			     "\"failed to allocate ring buffer on CPU 1\""));
	g_ptr_array_unref(n);
}
END_TEST

START_TEST(filters)
{
	static const char *const kv[] = { SA_ORIGIN_FILTER_COMM, "sh", NULL };
	GPtrArray *n = notes_of(kv);

	ck_assert_uint_eq(n->len, 1);
	ck_assert(has_prefix(n, "recorded with --comm sh: only that task's"));
	g_ptr_array_unref(n);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("origin-notes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, none);
	tcase_add_test(tc, cpus_without_buffer);
	tcase_add_test(tc, cpu_kept_down_by_its_buffer);
	tcase_add_test(tc, filters);
	suite_add_tcase(s, tc);
	return s;
}
