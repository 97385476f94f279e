// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct top's model: rates from two samples of a scripted source,
 * the four sort orders, the layout (width, row limit, plain), the events
 * lost in each interval next to the rates, the JSON line read back, and
 * the /proc/slab_account source on the 6.1 capture.
 */
#include <string.h>

#include <check.h>
#include <json-glib/json-glib.h>

#include "procfs/account.h"
#include "util/json.h"
#include "top/top.h"

Suite *suite(void);

#define ACCOUNT_61 "tests/data/slab_account/6.1.txt"

struct fake_row {
	const char *site, *kind;
	guint64 allocs, bytes, slack;
	gint64 live_bytes;
};

/* sample 0 and sample 1; C is new in sample 1 */
static const struct fake_row script[2][3] = {
	{
		{ "a+0x10", "kmalloc", 100, 1000, 10, 500 },
		{ "b+0x20", "cache", 10, 5000, 300, 100 },
	},
	{
		{ "a+0x10", "kmalloc", 300, 3000, 30, 200 },
		{ "b+0x20", "cache", 20, 25000, 600, 900 },
		{ "c+0x30 [mod]", "kmalloc", 50, 500, 0, 50 },
	},
};

static int fake_sample(struct sa_top_source *s, GPtrArray *rows,
		       guint64 *lost, GError **err)
{
	int *n = s->priv;
	int i;

	for (i = 0; i < 3; i++) {
		const struct fake_row *f = &script[*n][i];

		if (f->site)
			sa_top_row_add(rows, &(struct sa_top_row){
				.site = (char *)f->site, .kind = f->kind,
				.allocs = f->allocs, .bytes_alloc = f->bytes,
				.slack = f->slack, .live_bytes = f->live_bytes });
	}
	*lost = 7 * (*n);
	if (*n < 1)
		(*n)++;
	return 0;
}

static void fake_close(struct sa_top_source *s)
{
	g_free(s->priv);
	g_free(s);
}

static struct sa_top *fake_top(void)
{
	struct sa_top_source *s = g_new0(struct sa_top_source, 1);
	struct sa_top *t;

	s->desc = "fake";
	s->priv = g_new0(int, 1);
	s->sample = fake_sample;
	s->close = fake_close;
	t = sa_top_new(s, SA_TOP_RATE);
	ck_assert_int_eq(sa_top_refresh(t, 1000000, NULL), 0);
	ck_assert_int_eq(sa_top_refresh(t, 3000000, NULL), 0);
	return t;
}

static const struct sa_top_row *row(const struct sa_top *t, guint i)
{
	ck_assert_uint_lt(i, t->rows->len);
	return t->rows->pdata[i];
}

static void order_is(const struct sa_top *t, const char *a, const char *b,
		     const char *c)
{
	ck_assert_str_eq(row(t, 0)->site, a);
	ck_assert_str_eq(row(t, 1)->site, b);
	ck_assert_str_eq(row(t, 2)->site, c);
}

START_TEST(rates_over_the_interval)
{
	struct sa_top *t = fake_top();

	ck_assert_int_eq(t->rows->len, 3);
	ck_assert(t->interval_s == 2.0);
	order_is(t, "a+0x10", "c+0x30 [mod]", "b+0x20");
	ck_assert(row(t, 0)->alloc_rate == 100.0);
	ck_assert(row(t, 0)->byte_rate == 1000.0);
	/* a new site counts from 0 */
	ck_assert(row(t, 1)->alloc_rate == 25.0);
	ck_assert(row(t, 2)->alloc_rate == 5.0);
	ck_assert(row(t, 2)->byte_rate == 10000.0);
	ck_assert(t->alloc_rate == 130.0);
	ck_assert(t->byte_rate == 11250.0);
	ck_assert_int_eq(t->live_bytes, 1150);
	ck_assert_uint_eq(t->slack, 630);
	ck_assert_uint_eq(t->lost, 7);
	sa_top_free(t);
}
END_TEST

START_TEST(sort_orders)
{
	struct sa_top *t = fake_top();
	enum sa_top_sort k;

	sa_top_set_sort(t, SA_TOP_BYTES);
	order_is(t, "b+0x20", "a+0x10", "c+0x30 [mod]");
	sa_top_set_sort(t, SA_TOP_SLACK);
	order_is(t, "b+0x20", "a+0x10", "c+0x30 [mod]");
	sa_top_set_sort(t, SA_TOP_LIVE);
	order_is(t, "b+0x20", "a+0x10", "c+0x30 [mod]");
	sa_top_set_sort(t, SA_TOP_RATE);
	order_is(t, "a+0x10", "c+0x30 [mod]", "b+0x20");
	for (k = 0; k < SA_TOP_NR_SORTS; k++) {
		enum sa_top_sort back;

		ck_assert_int_eq(sa_top_sort_parse(sa_top_sort_name(k), &back),
				 0);
		ck_assert_int_eq(back, k);
	}
	ck_assert_int_eq(sa_top_sort_parse("frag", &k), -1);
	ck_assert_int_eq(sa_top_sort_key(SA_TOP_SLACK), 's');
	sa_top_free(t);
}
END_TEST

START_TEST(layout)
{
	struct sa_top *t = fake_top();
	GString *s = g_string_new(NULL);
	char **lines;
	int i;

	sa_top_format(t, s, 40, 2, 0);
	lines = g_strsplit(s->str, "\n", -1);
	/*
	 * header, rates, totals, keys, column heads, 2 rows, "" after the
	 * last \n
	 */
	ck_assert_int_eq(g_strv_length(lines), SA_TOP_HEAD_LINES + 3);
	for (i = 0; lines[i]; i++)
		ck_assert_int_le(strlen(lines[i]), 40);
	ck_assert(g_str_has_prefix(lines[0], "slabacct top: fake, sort: r"));
	ck_assert(g_str_has_prefix(lines[3], "keys:"));
	ck_assert(g_str_has_prefix(lines[SA_TOP_HEAD_LINES - 1],
				   " ALLOCS/s"));
	g_strfreev(lines);

	g_string_truncate(s, 0);
	sa_top_format(t, s, 0, 0, SA_TOP_PLAIN);
	ck_assert_str_eq(s->str,
		"slabacct top: fake, sort: rate (allocations/s)\n"
		"allocs/s 130  bytes/s 11250  LOST 7 (total 7)  every 2.0s\n"
		"sites 3  slack 630  live 1150\n"
		" ALLOCS/s  BYTES/s    SLACK   LIVE_B KIND    SITE\n"
		"      100     1000       30      200 kmalloc a+0x10\n"
		"       25      250        0       50 kmalloc c+0x30 [mod]\n"
		"        5    10000      600      900 cache   b+0x20\n");
	g_string_free(s, TRUE);
	sa_top_free(t);
}
END_TEST

/* A source of one row whose counts, and lost total, the test sets. */
struct counts {
	guint64 allocs, bytes, lost;
};

static int counts_sample(struct sa_top_source *s, GPtrArray *rows,
			 guint64 *lost, GError **err)
{
	const struct counts *c = s->priv;

	sa_top_row_add(rows, &(struct sa_top_row){
		.site = "f+0x10", .kind = "kmalloc", .allocs = c->allocs,
		.bytes_alloc = c->bytes, .bytes_req = c->bytes / 2,
		.slack = c->bytes / 2, .live = 1, .live_bytes = 64 });
	*lost = c->lost;
	return 0;
}

static void counts_close(struct sa_top_source *s)
{
	g_free(s);
}

static struct sa_top *counts_top(struct counts *c)
{
	struct sa_top_source *s = g_new0(struct sa_top_source, 1);

	s->desc = "fake";
	s->priv = c;
	s->sample = counts_sample;
	s->close = counts_close;
	return sa_top_new(s, SA_TOP_RATE);
}

START_TEST(lost_per_interval)
{
	struct counts c = { 100, 6400, 5 };
	struct sa_top *t = counts_top(&c);
	GString *s = g_string_new(NULL);

	/* lost before the first sample: the first interval's */
	ck_assert_int_eq(sa_top_refresh(t, 1000000, NULL), 0);
	ck_assert_uint_eq(t->lost, 5);
	ck_assert_uint_eq(t->lost_interval, 5);
	c = (struct counts){ 300, 19200, 5 };
	ck_assert_int_eq(sa_top_refresh(t, 3000000, NULL), 0);
	ck_assert_uint_eq(t->lost_interval, 0);
	sa_top_format(t, s, 0, 0, SA_TOP_PLAIN);
	ck_assert(strstr(s->str, "\nallocs/s 100  bytes/s 6400  lost 0 "
			 "(total 5)  every 2.0s\n"));
	c = (struct counts){ 400, 25600, 12 };
	ck_assert_int_eq(sa_top_refresh(t, 4000000, NULL), 0);
	ck_assert_uint_eq(t->lost_interval, 7);
	ck_assert_uint_eq(t->lost, 12);
	g_string_truncate(s, 0);
	sa_top_format(t, s, 0, 0, SA_TOP_PLAIN);
	ck_assert(strstr(s->str, "\nallocs/s 100  bytes/s 6400  LOST 7 "
			 "(total 12)  every 1.0s\n"));
	/* a total that went down was reset: all of it is new */
	c = (struct counts){ 500, 32000, 3 };
	ck_assert_int_eq(sa_top_refresh(t, 5000000, NULL), 0);
	ck_assert_uint_eq(t->lost_interval, 3);
	g_string_free(s, TRUE);
	sa_top_free(t);
}
END_TEST

/* A site name the source hands over is the input's: no raw control byte
 * reaches the terminal, as in every other text output (util/escape.h). */
static int hostile_sample(struct sa_top_source *s, GPtrArray *rows,
			  guint64 *lost, GError **err)
{
	sa_top_row_add(rows, &(struct sa_top_row){
		.site = "evil\x1b]0;pwned\x07+0x10 [m\x1b[31m]",
		.kind = "kma\x1b" "c", .allocs = 1, .bytes_alloc = 8 });
	*lost = 0;
	return 0;
}

START_TEST(escaped_names)
{
	struct sa_top_source *src = g_new0(struct sa_top_source, 1);
	struct sa_top *t;
	GString *s = g_string_new(NULL);

	src->desc = "/tmp/x\x1b[2J";
	src->sample = hostile_sample;
	src->close = counts_close;
	t = sa_top_new(src, SA_TOP_RATE);
	ck_assert_int_eq(sa_top_refresh(t, 1.0, NULL), 0);
	sa_top_format(t, s, 0, 0, SA_TOP_PLAIN);
	ck_assert_ptr_null(strchr(s->str, '\x1b'));
	ck_assert_ptr_null(strchr(s->str, '\x07'));
	ck_assert_ptr_nonnull(strstr(s->str,
		"evil\\x1b]0;pwned\\x07+0x10 [m\\x1b[31m]"));
	ck_assert_ptr_nonnull(strstr(s->str, "kma\\x1bc"));
	ck_assert_ptr_nonnull(strstr(s->str, "/tmp/x\\x1b[2J"));
	g_string_free(s, TRUE);
	sa_top_free(t);
}
END_TEST

START_TEST(json_line)
{
	struct counts c = { 100, 6400, 2 };
	struct sa_top *t = counts_top(&c);
	JsonParser *p = json_parser_new();
	JsonObject *o, *lost, *site;
	char *s;

	sa_top_refresh(t, 1000000, NULL);
	c = (struct counts){ 350, 22400, 9 };
	sa_top_refresh(t, 1500000, NULL);
	s = sa_top_json(t, 0);
	ck_assert(!strchr(s, '\n'));
	ck_assert(json_parser_load_from_data(p, s, -1, NULL));
	o = json_node_get_object(json_parser_get_root(p));
	ck_assert_int_eq(json_object_get_int_member(o, "schema_version"),
			 SA_JSON_SCHEMA_VERSION);
	ck_assert_int_eq(json_object_get_int_member(o, "interval_ms"), 500);
	lost = json_object_get_object_member(o, "lost");
	ck_assert_int_eq(json_object_get_int_member(lost, "interval"), 7);
	ck_assert_int_eq(json_object_get_int_member(lost, "total"), 9);
	site = json_array_get_object_element(
		json_object_get_array_member(o, "sites"), 0);
	ck_assert_str_eq(json_object_get_string_member(site, "site"),
			 "f+0x10");
	ck_assert_int_eq(json_object_get_int_member(site, "allocs"), 350);
	ck_assert_int_eq(json_object_get_int_member(site, "bytes_alloc"),
			 22400);
	ck_assert_int_eq(json_object_get_int_member(site, "bytes_req"),
			 11200);
	ck_assert_int_eq(json_object_get_int_member(site, "allocs_per_s"),
			 500);
	g_free(s);
	g_object_unref(p);
	sa_top_free(t);
}
END_TEST

START_TEST(account_source)
{
	GError *err = NULL;
	struct sa_top_source *src = sa_top_source_account(ACCOUNT_61, &err);
	struct sa_account *a = sa_account_load(ACCOUNT_61, &err);
	struct sa_top *t;
	gint64 live = 0;
	size_t i;

	ck_assert_msg(src && a, "%s", err ? err->message : "?");
	t = sa_top_new(src, SA_TOP_LIVE);
	ck_assert_int_eq(sa_top_refresh(t, 1, &err), 0);
	ck_assert_int_eq(sa_top_refresh(t, 2, &err), 0);
	ck_assert_uint_eq(t->rows->len, a->n_rows);
	for (i = 0; i < a->n_rows; i++)
		live += a->rows[i].live;
	ck_assert_int_eq(t->live_bytes, live);
	/* the same file twice: nothing allocated in between */
	ck_assert(t->alloc_rate == 0.0);
	ck_assert_uint_eq(t->lost, a->dropped + a->map_full);
	for (i = 1; i < t->rows->len; i++)
		ck_assert_int_ge(row(t, i - 1)->live_bytes,
				 row(t, i)->live_bytes);
	sa_top_free(t);
	sa_account_free(a);

	ck_assert_ptr_null(sa_top_source_account("tests/data/nonexistent",
						 &err));
	ck_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	g_clear_error(&err);
	/* not a slab_account file */
	ck_assert_ptr_null(sa_top_source_account("tests/unit/test-top.c",
						 &err));
	ck_assert(err);
	g_clear_error(&err);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("top");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, rates_over_the_interval);
	tcase_add_test(tc, sort_orders);
	tcase_add_test(tc, layout);
	tcase_add_test(tc, lost_per_interval);
	tcase_add_test(tc, json_line);
	tcase_add_test(tc, escaped_names);
	tcase_add_test(tc, account_source);
	suite_add_tcase(s, tc);
	return s;
}
