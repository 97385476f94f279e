// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the /proc/slab_account parser, on files captured from the
 * 6.1 and 6.12-cloud guests (tests/data/slab_account/) and on malformed
 * variants of them.
 */
#include <string.h>

#include <check.h>

#include "procfs/account.h"

Suite *suite(void);

#define DATA	"tests/data/slab_account/"

static char *slurp(const char *name)
{
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(name, &text, NULL, NULL),
		      "cannot read %s", name);
	return text;
}

static const struct sa_account_row *find_row(const struct sa_account *a,
					     const char *prefix)
{
	size_t i;

	for (i = 0; i < a->n_rows; i++)
		if (g_str_has_prefix(a->rows[i].caller, prefix))
			return &a->rows[i];
	return NULL;
}

/* The sa_test load: 1000 kmalloc(100), 300 freed; 500 from a cache of
 * 100-byte objects, 200 freed. */
static void check_capture(const char *file, guint64 cache_slot)
{
	GError *err = NULL;
	struct sa_account *a = sa_account_load(file, &err);
	const struct sa_account_row *r;
	int k;

	ck_assert_msg(a, "%s: %s", file, err ? err->message : "?");
	ck_assert_int_eq(a->version, 2);
	ck_assert_str_eq(a->sort, "total");
	ck_assert_uint_eq(a->top, 12);
	ck_assert_uint_eq(a->n_rows, 12);
	ck_assert(a->callers >= 12);
	ck_assert(a->cache_slot_exact);
	ck_assert_uint_eq(a->n_orders, 11);
	ck_assert_uint_eq(a->bytes_alloc - a->bytes_req, a->slack);
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++)
		ck_assert_uint_eq(a->kind[k].bytes_alloc - a->kind[k].bytes_req,
				  a->kind[k].slack);
	ck_assert_uint_eq(a->kind[0].allocs + a->kind[1].allocs, a->allocs);
	/* captured before the module had the key */
	ck_assert(!a->kmalloc_repeats_known);
	ck_assert(!a->slow_known);
	ck_assert_uint_eq(a->slow_sites + a->slow_objects + a->slow_frees, 0);

	r = find_row(a, "sa_test_kmalloc_loop+");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, SA_ACCOUNT_KMALLOC);
	ck_assert_uint_eq(r->allocs, 1000);
	ck_assert_uint_eq(r->frees, 300);
	ck_assert_uint_eq(r->req, 100000);
	ck_assert_uint_eq(r->total, 128000);
	ck_assert_uint_eq(r->slack, 28000);
	ck_assert_int_eq(r->live, 700 * 128);
	ck_assert_int_eq(r->objs, 700);
	ck_assert(g_str_has_suffix(r->caller, " [sa_test]"));

	r = find_row(a, "sa_test_cache_loop+");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, SA_ACCOUNT_CACHE);
	ck_assert_uint_eq(r->allocs, 500);
	ck_assert_uint_eq(r->frees, 200);
	ck_assert_uint_eq(r->total, 500 * cache_slot);
	ck_assert_int_eq(r->live, 300 * (gint64)cache_slot);
	sa_account_free(a);
}

START_TEST(capture_6_1)
{
	check_capture(DATA "6.1.txt", 112);
}
END_TEST

START_TEST(capture_6_12)
{
	check_capture(DATA "6.12-cloud.txt", 112);
}
END_TEST

/*
 * Format 3: a wrapper's call site and its caller, "SITE <- CALLER", in
 * the caller column (the 6.1 capture, one of its rows made such a row).
 */
START_TEST(wrapper_row)
{
	static const char via[] = "kvmalloc_node+0x3f/0xd0";
	char *text = slurp(DATA "6.1.txt"), *at;
	struct sa_account *a;
	const struct sa_account_row *r;
	GError *err = NULL;
	GString *s;

	ck_assert(g_str_has_prefix(text, "# slab_account 2\n"));
	s = g_string_new("# slab_account 3\n");
	at = strstr(text, "sa_test_kmalloc_loop+");
	ck_assert_ptr_nonnull(at);
	g_string_append_len(s, text + 17, at - text - 17);
	g_string_append(s, via);
	g_string_append(s, SLAB_ACCOUNT_VIA_SEP);
	g_string_append(s, at);
	a = sa_account_parse(s->str, s->len, &err);
	ck_assert_msg(a, "%s", err ? err->message : "?");
	ck_assert_int_eq(a->version, 3);
	r = find_row(a, "kvmalloc_node+");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->allocs, 1000);
	ck_assert_str_eq(r->via, via);
	ck_assert(strstr(r->caller, " <- sa_test_kmalloc_loop+"));
	/* the other rows have none */
	r = find_row(a, "sa_test_cache_loop+");
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_null(r->via);
	sa_account_free(a);
	g_string_free(s, TRUE);
	g_free(text);
}
END_TEST

/* Replace the first occurrence of from by to in a capture, then parse. */
static struct sa_account *parse_edited(const char *from, const char *to,
				       GError **err)
{
	char *text = slurp(DATA "6.1.txt");
	char *at = strstr(text, from);
	GString *s;
	struct sa_account *a;

	ck_assert_msg(at, "'%s' not in the capture", from);
	s = g_string_new_len(text, at - text);
	g_string_append(s, to);
	g_string_append(s, at + strlen(from));
	a = sa_account_parse(s->str, s->len, err);
	g_string_free(s, TRUE);
	g_free(text);
	return a;
}

static const struct {
	const char *from, *to;
	int code;
	const char *msg;	/* the start of the message */
} bad[] = {
	{ "# slab_account 2", "# slab_account 4", SA_ACCOUNT_ERROR_VERSION,
	  "line 1, column 16: format version 4, this slabacct reads "
	  "versions 2 to 3" },
	{ "# slab_account 2", "# slab_account 1", SA_ACCOUNT_ERROR_VERSION,
	  "line 1, column 16: format version 1" },
	{ "# slab_account 2", "slab_account 2", SA_ACCOUNT_ERROR_VERSION,
	  "line 1, column 1: not a /proc/slab_account file" },
	{ "sort: total", "sort:", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 2, column 6: sort: missing value" },
	{ "bytes_alloc: ", "bytes_alloc: x", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 7, column 14: bytes_alloc: 'x" },
	{ "live_bytes: ", "live_bytes: 1 2 ", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 10, column 15: live_bytes: unexpected '2" },
	{ "dropped: 0\n", "", SA_ACCOUNT_ERROR_MISSING,
	  "line 29, column 1: header key 'dropped' is missing" },
	{ "callers: ", "frees: 1\ncallers: ", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 15, column 1: duplicate key 'frees'" },
	{ "cache_slot_size: exact", "cache_slot_size: maybe",
	  SA_ACCOUNT_ERROR_SYNTAX, "line 6, column 18: cache_slot_size" },
	{ "allocs/frees kind", "allocs frees kind", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 30, column" },
	{ "1000/300 ", "1000:300 ", SA_ACCOUNT_ERROR_SYNTAX,
	  "line " },
	{ " kmalloc sa_test_kmalloc", " kmallok sa_test_kmalloc",
	  SA_ACCOUNT_ERROR_SYNTAX, "line " },
	{ "pages_free: ", "pages_free: 1 ", SA_ACCOUNT_ERROR_SYNTAX,
	  "line 29, column" },
};

START_TEST(malformed)
{
	GError *err = NULL;
	struct sa_account *a = parse_edited(bad[_i].from, bad[_i].to, &err);

	ck_assert_msg(!a, "case %d parsed", _i);
	ck_assert_ptr_nonnull(err);
	ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR, bad[_i].code));
	ck_assert_msg(g_str_has_prefix(err->message, bad[_i].msg),
		      "case %d: '%s'", _i, err->message);
	g_error_free(err);
}
END_TEST

START_TEST(malformed_rows)
{
	static const char *const rows[] = {
		"  100 10 80 0 0 1/0 kmalloc f+0x1/0x2",	/* slack */
		"  100 0 100 0 0 1/0 kmalloc",			/* caller */
		"  100 0 100 0 0 1/0",				/* kind */
		"  100 0 100 -x 0 1/0 cache f+0x1/0x2",	/* live */
		"  -100 0 100 0 0 1/0 cache f+0x1/0x2",	/* total */
	};
	char *text = slurp(DATA "6.1.txt");
	GError *err = NULL;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(rows); i++) {
		char *s = g_strconcat(text, rows[i], "\n", NULL);
		struct sa_account *a = sa_account_parse(s, strlen(s), &err);

		ck_assert_msg(!a, "row %zu parsed", i);
		ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR,
					  SA_ACCOUNT_ERROR_SYNTAX));
		ck_assert(g_str_has_prefix(err->message, "line 43, column"));
		g_clear_error(&err);
		g_free(s);
	}
	g_free(text);
}
END_TEST

/*
 * A row read while its counters move (or while a reset clears them) can
 * show req > total: the module prints its slack as 0, an older one as
 * total - req wrapped around 2^64. Either is accepted, slack 0; the
 * header's slack likewise. Any other slack is still wrong.
 */
START_TEST(racing_row_clamped)
{
	static const char *const rows[] = {
		"  100 0 120 20 1 1/0 kmalloc racing_new+0x1/0x2\n",
		"  100 18446744073709551596 120 20 1 1/0 kmalloc racing_old+0x1/0x2\n",
	};
	char *text = slurp(DATA "6.1.txt");
	GString *s = g_string_new(text);
	GError *err = NULL;
	struct sa_account *a;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(rows); i++)
		g_string_append(s, rows[i]);
	a = sa_account_parse(s->str, s->len, &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	for (i = 0; i < G_N_ELEMENTS(rows); i++) {
		const struct sa_account_row *r =
			&a->rows[a->n_rows - G_N_ELEMENTS(rows) + i];

		ck_assert_uint_eq(r->total, 100);
		ck_assert_uint_eq(r->req, 120);
		ck_assert_uint_eq(r->slack, 0);
		ck_assert_uint_eq(r->allocs, 1);
	}
	sa_account_free(a);
	g_string_free(s, TRUE);

	/* req above total with a slack that is neither 0 nor wrapped */
	s = g_string_new(text);
	g_string_append(s, "  100 5 120 20 1 1/0 kmalloc f+0x1/0x2\n");
	ck_assert_ptr_null(sa_account_parse(s->str, s->len, &err));
	ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR,
				  SA_ACCOUNT_ERROR_SYNTAX));
	g_clear_error(&err);
	g_string_free(s, TRUE);
	g_free(text);
}
END_TEST

START_TEST(racing_header_clamped)
{
	struct sa_account *a;
	GError *err = NULL;
	char *text = slurp(DATA "6.1.txt");
	char *p = strstr(text, "\nbytes_req: ");
	GString *s;

	/* bytes_req above bytes_alloc, slack wrapped (an older module) */
	ck_assert_ptr_nonnull(p);
	s = g_string_new_len(text, p - text);
	g_string_append(s, "\nbytes_req: 99999999999\nslack: "
			"18446744073709551615");
	p = strchr(strstr(p, "\nslack: ") + 1, '\n');
	g_string_append(s, p);
	a = sa_account_parse(s->str, s->len, &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert_uint_eq(a->bytes_req, 99999999999ULL);
	ck_assert_uint_eq(a->slack, 0);
	sa_account_free(a);
	g_string_free(s, TRUE);
	g_free(text);
}
END_TEST

/* kmalloc_repeats came later: optional, and checked when present */
START_TEST(kmalloc_repeats_key)
{
	GError *err = NULL;
	struct sa_account *a;

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n"
			 "kmalloc_repeats: 7\n", &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert(a->kmalloc_repeats_known);
	ck_assert_uint_eq(a->kmalloc_repeats, 7);
	sa_account_free(a);

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n"
			 "kmalloc_repeats: -1\n", &err);
	ck_assert_ptr_null(a);
	ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR,
				  SA_ACCOUNT_ERROR_SYNTAX));
	ck_assert_msg(strstr(err->message, "kmalloc_repeats"), "%s",
		      err->message);
	g_clear_error(&err);

	a = parse_edited("lost_frees: 0\n", "kmalloc_repeats: 1\n"
			 "lost_frees: 0\nkmalloc_repeats: 2\n", &err);
	ck_assert_ptr_null(a);
	ck_assert_msg(strstr(err->message, "duplicate key 'kmalloc_repeats'"),
		      "%s", err->message);
	g_clear_error(&err);
}
END_TEST

/*
 * The layout of a truncated trace's report: why (the rest of the line)
 * and when; an empty why is refused, never read as complete.
 */
START_TEST(trace_truncated_keys)
{
	GError *err = NULL;
	struct sa_account *a;

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n"
			 "trace_truncated:  SIGTERM before the workload ended \n"
			 "trace_truncated_at_ns: 2011284000\n", &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert_str_eq(a->trace_truncated,
			 "SIGTERM before the workload ended");
	ck_assert(a->trace_truncated_at_known);
	ck_assert_uint_eq(a->trace_truncated_ns, 2011284000);
	sa_account_free(a);

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n", &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert_ptr_null(a->trace_truncated);
	ck_assert(!a->trace_truncated_at_known);
	sa_account_free(a);

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n"
			 "trace_truncated: \t\n", &err);
	ck_assert_ptr_null(a);
	ck_assert_msg(strstr(err->message, "trace_truncated: missing value"),
		      "%s", err->message);
	g_clear_error(&err);
}
END_TEST

/*
 * slow_sites, slow_objects and slow_frees came later still, together
 * (after unattributed, as the module prints them): all three are read
 * exactly, a file with none is read as before, a file with some and not
 * the others is refused, and so is a malformed value.
 */
#define SLOW_KEYS "unattributed: 3\nslow_sites: 18446744073709551615\n" \
	"slow_objects: 0\nslow_frees: 4242\n"

START_TEST(slow_keys)
{
	static const struct {
		const char *to, *msg;
		int code;
	} refused[] = {
		{ "slow_sites: 1\nslow_objects: 2\n", "line 32, column 1: "
		  "header key 'slow_frees' is missing, though 'slow_sites' "
		  "is there (they come together)", SA_ACCOUNT_ERROR_MISSING },
		{ "slow_frees: 0\n", "line 31, column 1: header key "
		  "'slow_sites' is missing, though 'slow_frees' is there "
		  "(they come together)", SA_ACCOUNT_ERROR_MISSING },
		{ "slow_sites: 1\nslow_objects: 1e3\nslow_frees: 0\n",
		  "line 21, column 15: slow_objects: '1e3' is not a "
		  "non-negative number", SA_ACCOUNT_ERROR_SYNTAX },
		{ "slow_sites: -1\nslow_objects: 0\nslow_frees: 0\n",
		  "line 20, column 13: slow_sites: '-1' is not a "
		  "non-negative number", SA_ACCOUNT_ERROR_SYNTAX },
		{ "slow_sites: 1\nslow_objects: 0\nslow_frees:\n",
		  "line 22, column 12: missing slow_frees",
		  SA_ACCOUNT_ERROR_SYNTAX },
		{ "slow_sites: 1\nslow_objects: 0 0\nslow_frees: 0\n",
		  "line 21, column 17: slow_objects: unexpected '0' after "
		  "the value", SA_ACCOUNT_ERROR_SYNTAX },
		{ SLOW_KEYS "slow_sites: 1\n", "line 24, column 1: "
		  "duplicate key 'slow_sites'", SA_ACCOUNT_ERROR_SYNTAX },
	};
	GError *err = NULL;
	struct sa_account *a;
	size_t i;

	a = parse_edited("lost_frees: 0\n", "lost_frees: 0\n"
			 "kmalloc_repeats: 7\n" SLOW_KEYS, &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert(a->slow_known);
	ck_assert_uint_eq(a->slow_sites, G_MAXUINT64);
	ck_assert_uint_eq(a->slow_objects, 0);
	ck_assert_uint_eq(a->slow_frees, 4242);
	ck_assert(a->kmalloc_repeats_known);
	ck_assert_uint_eq(a->kmalloc_repeats, 7);
	ck_assert_uint_eq(a->lost_frees, 0);
	ck_assert_uint_eq(a->n_rows, 12);
	sa_account_free(a);

	/* in another order, among keys the parser does not know */
	a = parse_edited("dropped: 0\n", "slow_frees: 1\nx_new: 9\n"
			 "slow_objects: 2\ndropped: 0\nslow_sites: 3\n",
			 &err);
	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert(a->slow_known);
	ck_assert(!a->kmalloc_repeats_known);
	ck_assert_uint_eq(a->slow_sites, 3);
	ck_assert_uint_eq(a->slow_objects, 2);
	ck_assert_uint_eq(a->slow_frees, 1);
	sa_account_free(a);

	for (i = 0; i < G_N_ELEMENTS(refused); i++) {
		char *to = g_strconcat("lost_frees: 0\n", refused[i].to, NULL);

		a = parse_edited("lost_frees: 0\n", to, &err);
		g_free(to);
		ck_assert_msg(!a, "case %zu parsed", i);
		ck_assert_msg(g_error_matches(err, SA_ACCOUNT_ERROR,
					      refused[i].code),
			      "case %zu: %s", i, err ? err->message : "?");
		ck_assert_str_eq(err->message, refused[i].msg);
		g_clear_error(&err);
	}
}
END_TEST

START_TEST(empty_and_truncated)
{
	GError *err = NULL;
	char *text = slurp(DATA "6.1.txt");
	char *heading = strstr(text, "\n#");

	ck_assert_ptr_null(sa_account_parse("", 0, &err));
	ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR,
				  SA_ACCOUNT_ERROR_VERSION));
	g_clear_error(&err);
	ck_assert_ptr_null(sa_account_parse(text, heading - text, &err));
	ck_assert(g_error_matches(err, SA_ACCOUNT_ERROR,
				  SA_ACCOUNT_ERROR_MISSING));
	g_clear_error(&err);
	g_free(text);
}
END_TEST

START_TEST(unknown_keys_and_no_rows)
{
	static const char text[] =
		"# slab_account 2\nsort: live\ntop: 0\nsites: 16\n"
		"objects: 64\ncache_slot_size: object\nbytes_alloc: 10\n"
		"bytes_req: 8\nslack: 2\nlive_bytes: -1\nlive_req: 0\n"
		"live_objects: 0\nallocs: 1\nfrees: 0\ncallers: 0\n"
		"dropped: 1\nuntracked_frees: 0\nmap_full: 0\n"
		"lost_frees: 0\nkmalloc_allocs: 1\nkmalloc_bytes_alloc: 10\n"
		"kmalloc_bytes_req: 8\nkmalloc_slack: 2\ncache_allocs: 0\n"
		"cache_bytes_alloc: 0\ncache_bytes_req: 0\ncache_slack: 0\n"
		"pages_alloc: 1 2\npages_free: 3 4\nfuture_key: x y\n"
		"# total slack req live objs allocs/frees kind caller\n";
	GError *err = NULL;
	struct sa_account *a = sa_account_parse(text, strlen(text), &err);

	ck_assert_msg(a, "%s", err ? err->message : "");
	ck_assert_str_eq(a->sort, "live");
	ck_assert(!a->cache_slot_exact);
	ck_assert_int_eq(a->live_bytes, -1);
	ck_assert_uint_eq(a->n_orders, 2);
	ck_assert_uint_eq(a->pages_free[1], 4);
	ck_assert_uint_eq(a->n_rows, 0);
	ck_assert_str_eq(sa_account_kind_name(SA_ACCOUNT_CACHE), "cache");
	sa_account_free(a);
}
END_TEST

/* The format's bounds: a line, the rows by the sites, the sites. */
START_TEST(bounds)
{
	char *text = slurp(DATA "6.1.txt");
	GString *s = g_string_new(text);
	GError *err = NULL;
	char *p;

	/* a caller that makes the row longer than a line can be */
	g_string_append(s, "  100 0 100 0 0 1/0 kmalloc ");
	while (s->len < strlen(text) + SA_ACCOUNT_MAX_LINE + 1)
		g_string_append_c(s, 'f');
	ck_assert_ptr_null(sa_account_parse(s->str, s->len, &err));
	ck_assert(strstr(err->message, "longer than 1024 bytes"));
	g_clear_error(&err);
	/* sites: 2, and the file has 12 rows */
	g_string_assign(s, text);
	p = strstr(s->str, "\nsites: 8192\n");
	ck_assert_ptr_nonnull(p);
	g_string_erase(s, p - s->str + 8, 4);
	g_string_insert(s, p - s->str + 8, "2");
	ck_assert_ptr_null(sa_account_parse(s->str, s->len, &err));
	ck_assert(strstr(err->message, "more rows than the 2 sites"));
	g_clear_error(&err);
	g_string_assign(s, text);
	p = strstr(s->str, "\nsites: 8192\n");
	g_string_insert(s, p - s->str + 8, "99999");
	ck_assert_ptr_null(sa_account_parse(s->str, s->len, &err));
	ck_assert(strstr(err->message, "is more than a table can have"));
	g_clear_error(&err);
	g_string_free(s, TRUE);
	g_free(text);
}
END_TEST

START_TEST(load_missing_file)
{
	GError *err = NULL;

	ck_assert_ptr_null(sa_account_load(DATA "no-such-file", &err));
	ck_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	g_error_free(err);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("account");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, capture_6_1);
	tcase_add_test(tc, capture_6_12);
	tcase_add_test(tc, wrapper_row);
	tcase_add_loop_test(tc, malformed, 0, G_N_ELEMENTS(bad));
	tcase_add_test(tc, malformed_rows);
	tcase_add_test(tc, racing_row_clamped);
	tcase_add_test(tc, racing_header_clamped);
	tcase_add_test(tc, kmalloc_repeats_key);
	tcase_add_test(tc, trace_truncated_keys);
	tcase_add_test(tc, slow_keys);
	tcase_add_test(tc, empty_and_truncated);
	tcase_add_test(tc, unknown_keys_and_no_rows);
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, load_missing_file);
	suite_add_tcase(s, tc);
	return s;
}
