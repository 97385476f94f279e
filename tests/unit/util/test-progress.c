// SPDX-License-Identifier: GPL-2.0
/*
 * The progress bar, on a fake clock: nothing before the delay, nothing
 * when the stream is not a terminal, a bar with the right percentage
 * after it, redraws spaced out, and the line erased at the end.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "util/progress.h"

Suite *suite(void);

static gint64 fake_now;

static gint64 fake_clock(void)
{
	return fake_now;
}

struct out {
	FILE *f;
	char *buf;
	size_t len;
};

static void out_open(struct out *o)
{
	memset(o, 0, sizeof(*o));
	o->f = open_memstream(&o->buf, &o->len);
}

static const char *out_text(struct out *o)
{
	fflush(o->f);
	return o->buf ? o->buf : "";
}

START_TEST(nothing_before_the_delay)
{
	struct out o;
	struct sa_progress *p;

	out_open(&o);
	fake_now = 1000;
	p = sa_progress_new_full(o.f, "reading", true, SA_PROGRESS_DELAY_US,
				 fake_clock);
	fake_now += SA_PROGRESS_DELAY_US - 1;
	sa_progress_update(p, 10, 100);
	ck_assert_str_eq(out_text(&o), "");
	ck_assert(!sa_progress_shown(p));
	sa_progress_done(p);
	ck_assert_str_eq(out_text(&o), "");
	fclose(o.f);
	free(o.buf);
}
END_TEST

START_TEST(a_bar_after_the_delay)
{
	struct out o;
	struct sa_progress *p;

	out_open(&o);
	fake_now = 0;
	p = sa_progress_new_full(o.f, "reading x.dat", true,
				 SA_PROGRESS_DELAY_US, fake_clock);
	fake_now = SA_PROGRESS_DELAY_US;
	sa_progress_update(p, 50, 100);
	ck_assert_str_eq(out_text(&o), "\rreading x.dat "
			 "[###############...............]  50% ");
	ck_assert(sa_progress_shown(p));
	/* too soon to redraw */
	fake_now += SA_PROGRESS_EVERY_US - 1;
	sa_progress_update(p, 60, 100);
	ck_assert_int_eq(strlen(out_text(&o)), 53);
	/* later: redrawn; done beyond total counts as 100% */
	fake_now += 1;
	sa_progress_update(p, 200, 100);
	ck_assert_ptr_nonnull(strstr(out_text(&o), "] 100% "));
	sa_progress_done(p);
	ck_assert(g_str_has_suffix(out_text(&o), "\r\033[K"));
	fclose(o.f);
	free(o.buf);
}
END_TEST

START_TEST(not_a_terminal)
{
	struct out o;
	struct sa_progress *p;

	out_open(&o);
	/* a memory stream is no terminal: sa_progress_new draws nothing */
	p = sa_progress_new(o.f, "reading");
	sa_progress_cb(p, 1, 2);
	ck_assert(!sa_progress_shown(p));
	sa_progress_done(p);
	p = sa_progress_new_full(o.f, "reading", false, 0, fake_clock);
	fake_now += 10 * SA_PROGRESS_DELAY_US;
	sa_progress_cb(p, 1, 2);
	sa_progress_done(p);
	ck_assert_str_eq(out_text(&o), "");
	/* NULL is a no-op, and a zero total is 0% */
	sa_progress_update(NULL, 1, 2);
	sa_progress_done(NULL);
	p = sa_progress_new_full(o.f, "r", true, 0, fake_clock);
	sa_progress_update(p, 0, 0);
	ck_assert_ptr_nonnull(strstr(out_text(&o), "   0% "));
	sa_progress_done(p);
	fclose(o.f);
	free(o.buf);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("bar");

	tcase_add_test(tc, nothing_before_the_delay);
	tcase_add_test(tc, a_bar_after_the_delay);
	tcase_add_test(tc, not_a_terminal);
	suite_add_tcase(s, tc);
	return s;
}
