/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress bar for long jobs (reading a big trace): drawn on one line
 * of a terminal, only once the job has run for SA_PROGRESS_DELAY_US, so
 * short jobs show nothing; never drawn when the stream is not a terminal.
 *
 *	struct sa_progress *p = sa_progress_new(stderr, "reading boot.dat");
 *	opts.progress = sa_progress_cb;		(the report pipeline calls it)
 *	opts.progress_data = p;
 *	...
 *	sa_progress_done(p);			(erases the line, frees p)
 */
#ifndef SLABACCT_PROGRESS_H
#define SLABACCT_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#define SA_PROGRESS_DELAY_US	(2 * G_USEC_PER_SEC)
#define SA_PROGRESS_EVERY_US	(G_USEC_PER_SEC / 10)	/* redraws */

struct sa_progress;

/* A bar on f if f is a terminal (isatty), else one that draws nothing. */
struct sa_progress *sa_progress_new(FILE *f, const char *label);

/*
 * The same with everything chosen: draw even if f is not a terminal,
 * after delay_us, reading the time from clock (g_get_monotonic_time when
 * NULL). For tests.
 */
struct sa_progress *sa_progress_new_full(FILE *f, const char *label,
					 bool tty, gint64 delay_us,
					 gint64 (*clock)(void));

/* done of total units (bytes) are finished. */
void sa_progress_update(struct sa_progress *p, guint64 done, guint64 total);

/* The same as a callback: data is the struct sa_progress. */
void sa_progress_cb(void *data, guint64 done, guint64 total);

/* Whether the bar has been drawn. */
bool sa_progress_shown(const struct sa_progress *p);

/* Erase the bar if it was drawn; free p (NULL is fine). */
void sa_progress_done(struct sa_progress *p);

#endif /* SLABACCT_PROGRESS_H */
