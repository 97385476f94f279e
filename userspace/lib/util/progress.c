// SPDX-License-Identifier: GPL-2.0
/*
 * The progress bar: see util/progress.h. One line, redrawn in place with \r,
 * erased with ESC[K at the end; at most SA_PROGRESS_EVERY_US apart.
 */
#include <string.h>
#include <unistd.h>

#include "util/progress.h"

#define BAR_WIDTH	30

struct sa_progress {
	FILE *f;
	char *label;
	bool tty, shown;
	gint64 start, delay, last;
	gint64 (*clock)(void);
};

struct sa_progress *sa_progress_new_full(FILE *f, const char *label,
					 bool tty, gint64 delay_us,
					 gint64 (*clock)(void))
{
	struct sa_progress *p = g_new0(struct sa_progress, 1);

	p->f = f;
	p->label = g_strdup(label ? label : "");
	p->tty = tty;
	p->delay = delay_us;
	p->clock = clock ? clock : g_get_monotonic_time;
	p->start = p->clock();
	return p;
}

struct sa_progress *sa_progress_new(FILE *f, const char *label)
{
	return sa_progress_new_full(f, label, f && isatty(fileno(f)),
				    SA_PROGRESS_DELAY_US, NULL);
}

void sa_progress_update(struct sa_progress *p, guint64 done, guint64 total)
{
	char bar[BAR_WIDTH + 1];
	gint64 now;
	int pct, n;

	if (!p || !p->tty)
		return;
	now = p->clock();
	if (now - p->start < p->delay)
		return;
	if (p->shown && now - p->last < SA_PROGRESS_EVERY_US)
		return;
	p->last = now;
	if (done > total)
		done = total;
	pct = total ? (int)(done * 100 / total) : 0;
	n = pct * BAR_WIDTH / 100;
	memset(bar, '#', n);
	memset(bar + n, '.', BAR_WIDTH - n);
	bar[BAR_WIDTH] = 0;
	fprintf(p->f, "\r%s [%s] %3d%% ", p->label, bar, pct);
	fflush(p->f);
	p->shown = true;
}

void sa_progress_cb(void *data, guint64 done, guint64 total)
{
	sa_progress_update(data, done, total);
}

bool sa_progress_shown(const struct sa_progress *p)
{
	return p && p->shown;
}

void sa_progress_done(struct sa_progress *p)
{
	if (!p)
		return;
	if (p->shown) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
	}
	g_free(p->label);
	g_free(p);
}
