// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: a ring-buffer page checked with kbuffer's rules
 * (trace/ringbuf-page.h), and kbuffer itself reading the pages that pass.
 */
#include <string.h>

#include <check.h>
#include <kbuffer.h>

#include "trace/ringbuf-page.h"

Suite *suite(void);

#define PS	256
#define HDR	16

static guint8 page[PS];
static const struct sa_page_fmt le8 = { 8, false };

static void put4(size_t off, guint32 v)
{
	v = GUINT32_TO_LE(v);
	memcpy(page + off, &v, 4);
}

static void put_commit(guint64 v)
{
	v = GUINT64_TO_LE(v);
	memcpy(page + 8, &v, 8);
}

/* Three events: data of 8 bytes (type 2), a time extend, 12 (type 0). */
static size_t three_events(void)
{
	size_t p = HDR;

	memset(page, 0, sizeof(page));
	put4(p, 2 | (5 << 5));		/* type_len 2, delta 5 */
	p += 4 + 8;
	put4(p, 30);			/* time extend */
	put4(p + 4, 1);
	p += 8;
	put4(p, 0);			/* type 0: a length word */
	put4(p + 4, 12 + 4);
	p += 8 + 12;
	put_commit(p - HDR);
	return p - HDR;
}

static int check(size_t avail, const struct sa_page_fmt *f, size_t *bad)
{
	const char *why = NULL;
	int r = sa_ringbuf_page_check(page, avail, f, bad, &why);

	ck_assert(r == 0 || why != NULL);
	return r;
}

START_TEST(good_page)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8,
					   KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	size_t bad;
	int n = 0;
	void *ev;

	three_events();
	ck_assert_int_eq(check(PS, &le8, &bad), 0);
	/* what kbuffer finds in it: the two data events */
	ck_assert_int_eq(kbuffer_load_subbuffer(kb, page), 0);
	for (ev = kbuffer_read_event(kb, &ts); ev;
	     ev = kbuffer_next_event(kb, &ts))
		n++;
	ck_assert_int_eq(n, 2);
	kbuffer_free(kb);
	/* an empty page, and one cut to its data */
	put_commit(0);
	ck_assert_int_eq(check(HDR, &le8, &bad), 0);
	ck_assert_int_eq(check(HDR - 1, &le8, &bad), -1);
}
END_TEST

START_TEST(commit_past_the_page)
{
	size_t bad, used = three_events();

	put_commit(PS - HDR + 1);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	ck_assert_uint_eq(bad, 8);
	/* the page is whole, but the file has fewer bytes of it */
	put_commit(used);
	ck_assert_int_eq(check(HDR + used, &le8, &bad), 0);
	ck_assert_int_eq(check(HDR + used - 1, &le8, &bad), -1);
	/* the lost-events count stored after the data must fit too */
	put_commit((PS - HDR) | (3u << 30));
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	put_commit((PS - HDR - 8) | (3u << 30));
	ck_assert_int_eq(check(PS, &le8, &bad), -1);	/* the events */
	put_commit(used | (3u << 30));
	ck_assert_int_eq(check(PS, &le8, &bad), 0);
}
END_TEST

START_TEST(events_past_the_data)
{
	size_t bad, used = three_events();

	/* the commit cuts the last event's data, then its length word */
	put_commit(used - 4);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	ck_assert_uint_eq(bad, HDR + 20);
	put_commit(20 + 6);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	/* a type-0 length past the data, and one below its own word */
	three_events();
	put4(HDR + 24, 0x7ffffff0);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	put4(HDR + 24, 2);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	/* a data event of type 28 (112 bytes) in a 100-byte commit */
	memset(page, 0, sizeof(page));
	put4(HDR, 28);
	put_commit(100);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	/* a time extend cut by the commit */
	put4(HDR, 30);
	put_commit(6);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
}
END_TEST

START_TEST(padding)
{
	size_t bad;

	memset(page, 0, sizeof(page));
	/* a padding that ends the page: its length runs to the end */
	put4(HDR, 29 | (1 << 5));
	put4(HDR + 4, 1000);
	put_commit(40);
	ck_assert_int_eq(check(PS, &le8, &bad), 0);
	/* a negative one would send kbuffer backwards, for ever */
	put4(HDR + 4, (guint32)-8);
	ck_assert_int_eq(check(PS, &le8, &bad), -1);
	ck_assert_uint_eq(bad, HDR + 4);
}
END_TEST

START_TEST(big_endian_long4)
{
	const struct sa_page_fmt be4 = { 4, true };
	guint32 v;
	size_t bad;

	memset(page, 0, sizeof(page));
	v = GUINT32_TO_BE(8);		/* commit, 4 bytes, big endian */
	memcpy(page + 8, &v, 4);
	v = GUINT32_TO_BE(1u << 27);	/* type_len 1 in the top bits */
	memcpy(page + 12, &v, 4);
	ck_assert_int_eq(check(PS, &be4, &bad), 0);
	v = GUINT32_TO_BE(2u << 27);	/* 8 bytes of data: past 8 */
	memcpy(page + 12, &v, 4);
	ck_assert_int_eq(check(PS, &be4, &bad), -1);
	ck_assert_uint_eq(bad, 12);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("ringbuf-page");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, good_page);
	tcase_add_test(tc, commit_past_the_page);
	tcase_add_test(tc, events_past_the_data);
	tcase_add_test(tc, padding);
	tcase_add_test(tc, big_endian_long4);
	suite_add_tcase(s, tc);
	return s;
}
