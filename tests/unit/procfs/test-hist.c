// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the parser of the kernel's hist files (procfs/hist.c), on
 * the text 6.12 prints (two triggers on one event, .sym and .sym-offset
 * keys, a module symbol, a plain key), on malformed, cut and oversized
 * input, and the content sniffing.
 */
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "procfs/hist.h"

Suite *suite(void);

#define TOTALS(h, e, d) "\nTotals:\n    Hits: " #h "\n    Entries: " #e \
	"\n    Dropped: " #d "\n"

/* as events/kmem/kmalloc/hist prints two triggers (6.12) */
static const char two[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=call_site.sym-offset:vals=hitcount,bytes_alloc:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ call_site: [ffffffffa75a28fc] addrconf_init_net+0x1c/0x50                   } hitcount:          1  bytes_alloc:        264\n"
	"{ call_site: [ffffffffc0a01234] sa_test_kmalloc+0x2f/0x90 [sa_test]             } hitcount:         42  bytes_alloc:       5376\n"
	TOTALS(43, 2, 7)
	"\n"
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=call_site.sym:vals=hitcount,bytes_req:sort=hitcount:size=8192 [active]\n"
	"#\n"
	"\n"
	"{ call_site: [ffffffffa75a28fc] addrconf_init_net                             } hitcount:          1  bytes_req:        250\n"
	TOTALS(1, 1, 0);

static struct sa_hist *parse(const char *text, GError **err)
{
	return sa_hist_parse(text, strlen(text), err);
}

static const struct sa_hist_row *row(const struct sa_hist *h, guint i)
{
	return &g_array_index(h->rows, struct sa_hist_row, i);
}

static const struct sa_hist_section *sec(const struct sa_hist *h, guint i)
{
	return &g_array_index(h->sections, struct sa_hist_section, i);
}

START_TEST(two_triggers)
{
	GError *err = NULL;
	struct sa_hist *h = parse(two, &err);

	ck_assert_msg(h, "%s", err ? err->message : "?");
	ck_assert_uint_eq(h->sections->len, 2);
	ck_assert_uint_eq(h->rows->len, 3);
	ck_assert_str_eq(sec(h, 0)->key, "call_site");
	ck_assert(sec(h, 0)->has_alloc && !sec(h, 0)->has_req);
	ck_assert(!sec(h, 1)->has_alloc && sec(h, 1)->has_req);
	ck_assert_uint_eq(sec(h, 0)->hits, 43);
	ck_assert_uint_eq(sec(h, 0)->entries, 2);
	ck_assert_uint_eq(sec(h, 0)->dropped, 7);
	ck_assert_uint_eq(sec(h, 1)->dropped, 0);
	ck_assert_uint_eq(row(h, 0)->key, 0xffffffffa75a28fcULL);
	ck_assert_str_eq(row(h, 0)->sym, "addrconf_init_net+0x1c");
	ck_assert_uint_eq(row(h, 0)->hitcount, 1);
	ck_assert_uint_eq(row(h, 0)->bytes_alloc, 264);
	ck_assert_str_eq(row(h, 1)->sym, "sa_test_kmalloc+0x2f [sa_test]");
	ck_assert_uint_eq(row(h, 1)->hitcount, 42);
	ck_assert_uint_eq(row(h, 1)->section, 0);
	ck_assert_str_eq(row(h, 2)->sym, "addrconf_init_net");
	ck_assert_uint_eq(row(h, 2)->bytes_req, 250);
	ck_assert_uint_eq(row(h, 2)->section, 1);
	sa_hist_free(h);
}
END_TEST

/* a key with no modifier prints as a decimal number */
START_TEST(plain_key)
{
	static const char text[] =
		"# event histogram\n# trigger info: hist:keys=call_site:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		"{ call_site: 18446744072100000000 } hitcount:          5\n"
		TOTALS(5, 1, 0);
	GError *err = NULL;
	struct sa_hist *h = parse(text, &err);

	ck_assert_msg(h, "%s", err ? err->message : "?");
	ck_assert_uint_eq(row(h, 0)->key, 18446744072100000000ULL);
	ck_assert_ptr_null(row(h, 0)->sym);
	ck_assert_uint_eq(row(h, 0)->hitcount, 5);
	sa_hist_free(h);
}
END_TEST

#define T0 "# event histogram\n# trigger info: hist:keys=call_site.sym:vals=hitcount:size=2048 [active]\n"
#define R0 "{ call_site: [ffffffff81000000] f } hitcount: 1\n"

static const struct {
	const char *text;
	int code;
	const char *msg;
} bad[] = {
	{ "", SA_HIST_ERROR_FORMAT, "line 0, column 1: empty input" },
	{ "# slab_account 2\n", SA_HIST_ERROR_FORMAT,
	  "line 1, column 1: not a histogram" },
	{ T0 R0, SA_HIST_ERROR_CUT, "line 3, column 1: histogram 1 of 1 is "
	  "cut short: it ends before its Totals" },
	{ T0 R0 TOTALS(2, 2, 0), SA_HIST_ERROR_CUT,
	  "line 8, column 1: histogram 1 of 1 is cut short: its rows are "
	  "not its Entries" },
	{ T0 R0 "\nTotals:\n    Hits: 1\n    Dropped: 0\n", SA_HIST_ERROR_SYNTAX,
	  "line 7, column 1: not 'Entries: N'" },
	{ T0 R0 "\nTotals:\n    Hits: 18446744073709551616\n", SA_HIST_ERROR_SYNTAX,
	  "line 6, column 1: not 'Hits: N'" },
	{ T0 R0 "\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n" R0,
	  SA_HIST_ERROR_SYNTAX, "line 9, column 1: a line after the Totals" },
	{ T0 R0 "# event histogram\n", SA_HIST_ERROR_CUT,
	  "line 4, column 1: a histogram that ends before its Totals" },
	{ "# event histogram\n" R0, SA_HIST_ERROR_SYNTAX,
	  "line 2, column 1: a line before the histogram's" },
	{ "# event histogram\n# trigger info: traceon\n", SA_HIST_ERROR_SYNTAX,
	  "line 2, column 17: a trigger that is not a histogram's" },
	{ "# event histogram\n# trigger info: hist:keys=call_site,ptr:vals=hitcount\n",
	  SA_HIST_ERROR_SYNTAX, "line 2, column 17: a histogram of more than one key" },
	{ "# event histogram\n# trigger info: hist:vals=hitcount\n",
	  SA_HIST_ERROR_SYNTAX, "line 2, column 17: a trigger with no keys=" },
	{ T0 "# trigger info: hist:keys=ptr\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 1: a second trigger" },
	{ T0 "{ ptr: 5 } hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 3: a row without the key of its trigger (call_site)" },
	{ T0 "{ call_site: [ffffffff81000000] f hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 14: a row without its closing '}'" },
	{ T0 "{ call_site: [fffffffff81000000] f } hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 14: a key that is not [HEX ADDRESS] NAME" },
	{ T0 "{ call_site: [ffffffffg1000000] f } hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 14: a key that is not [HEX ADDRESS] NAME" },
	{ T0 "{ call_site: 12x } hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 14: a key that is not a number" },
	{ T0 "{ call_site: [ffffffff81000000] f\x01 } hitcount: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 33: a symbol name longer than 1024 bytes or not printable" },
	{ T0 "{ call_site: [ffffffff81000000] f } bytes_req: 1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 35: a row without its hitcount" },
	{ T0 "{ call_site: [ffffffff81000000] f } hitcount: -1\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 37: a value that is not 'NAME: NUMBER'" },
	{ T0 "{ call_site: [ffffffff81000000] f } hitcount:\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 37: a value that is not 'NAME: NUMBER'" },
	{ T0 "garbage\n", SA_HIST_ERROR_SYNTAX,
	  "line 3, column 1: neither a row, a comment nor the Totals" },
};

START_TEST(malformed)
{
	GError *err = NULL;
	struct sa_hist *h = parse(bad[_i].text, &err);

	ck_assert_msg(!h, "case %d parsed", _i);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(g_error_matches(err, SA_HIST_ERROR, bad[_i].code),
		      "case %d: code %d: %s", _i, err->code, err->message);
	ck_assert_msg(g_str_has_prefix(err->message, bad[_i].msg),
		      "case %d: '%s'", _i, err->message);
	g_error_free(err);
}
END_TEST

static char *temp_file(const char *text, size_t len)
{
	char *path = NULL;
	GError *err = NULL;
	int fd = g_file_open_tmp("test-hist-XXXXXX", &path, &err);

	ck_assert_msg(fd >= 0, "%s", err ? err->message : "?");
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* bounds: a long line (string and file), too many histograms */
START_TEST(bounds)
{
	GString *s = g_string_new(T0 "{ call_site: [ffffffff81000000] ");
	GError *err = NULL;
	char *path;
	int i;

	while (s->len < 4 * SA_HIST_MAX_LINE)
		g_string_append_c(s, 'f');
	g_string_append(s, " } hitcount: 1\n");
	ck_assert_ptr_null(sa_hist_parse(s->str, s->len, &err));
	ck_assert(g_error_matches(err, SA_HIST_ERROR, SA_HIST_ERROR_BOUND));
	ck_assert_msg(g_str_has_prefix(err->message, "line 3, column 1: a "
				       "line longer than 4096 bytes"), "%s",
		      err->message);
	g_clear_error(&err);
	path = temp_file(s->str, s->len);
	ck_assert_ptr_null(sa_hist_load(path, &err));
	ck_assert(g_error_matches(err, SA_HIST_ERROR, SA_HIST_ERROR_BOUND));
	ck_assert_msg(g_str_has_prefix(err->message, path), "%s",
		      err->message);
	g_clear_error(&err);
	unlink(path);
	g_free(path);
	/* a name over the bound, within a line */
	g_string_assign(s, T0 "{ call_site: [ffffffff81000000] ");
	while (s->len < 100 + SA_HIST_MAX_NAME + 2 * 100)
		g_string_append_c(s, 'f');
	g_string_append(s, " } hitcount: 1\n");
	ck_assert_ptr_null(sa_hist_parse(s->str, s->len, &err));
	ck_assert_msg(strstr(err->message, "a symbol name longer"), "%s",
		      err->message);
	g_clear_error(&err);
	g_string_truncate(s, 0);
	for (i = 0; i <= SA_HIST_MAX_SECTIONS; i++)
		g_string_append(s, T0 TOTALS(0, 0, 0));
	ck_assert_ptr_null(sa_hist_parse(s->str, s->len, &err));
	ck_assert(g_error_matches(err, SA_HIST_ERROR, SA_HIST_ERROR_BOUND));
	ck_assert_msg(strstr(err->message, "more than 64 histograms"), "%s",
		      err->message);
	g_clear_error(&err);
	g_string_free(s, TRUE);
}
END_TEST

START_TEST(load_and_sniff)
{
	GError *err = NULL;
	char *path = temp_file(two, strlen(two));
	struct sa_hist *h = sa_hist_load(path, &err);

	ck_assert_msg(h, "%s", err ? err->message : "?");
	ck_assert_uint_eq(h->rows->len, 3);
	sa_hist_free(h);
	/* the content tells (report/input-kind.c asks) */
	ck_assert(sa_hist_sniff(two, strlen(two)));
	ck_assert(!sa_hist_sniff("# slab_account 3\n", 17));
	ck_assert_ptr_null(sa_hist_load("/nonexistent/hist", &err));
	ck_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	g_clear_error(&err);
	unlink(path);
	g_free(path);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, two_triggers);
	tcase_add_test(tc, plain_key);
	tcase_add_loop_test(tc, malformed, 0, G_N_ELEMENTS(bad));
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, load_and_sniff);
	suite_add_tcase(s, tc);
	return s;
}
