// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline aggregator. With --interval the bins have that width; the
 * automatic interval starts at 1 ms and doubles (merging pairs of bins)
 * whenever more than SA_TIMELINE_MAX_BINS would be needed, then is
 * coarsened to at most SA_TIMELINE_AUTO_BINS bins of a round width.
 */
#include <string.h>

#include "report/agg/timeline.h"
#include "report/pipeline.h"

struct tl_state {
	guint64 interval;
	gboolean fixed;
	guint64 t0;
	gboolean started;
	GArray *bins;			/* struct sa_bin */
	struct sa_phases_state ph;
	struct sa_pipeline *p;
};

static void *tl_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct tl_state *st = g_new0(struct tl_state, 1);

	st->fixed = opts && opts->interval_ns;
	st->interval = st->fixed ? opts->interval_ns : 1000000ULL;
	st->bins = g_array_new(FALSE, TRUE, sizeof(struct sa_bin));
	st->p = p;
	sa_phases_init(&st->ph);
	return st;
}

static void tl_destroy(void *state)
{
	struct tl_state *st = state;

	if (st->bins)
		g_array_free(st->bins, TRUE);
	sa_phases_clear(&st->ph.res);
	g_free(st);
}

/* Merge pairs of bins: the interval doubles. */
static void coarsen(GArray *bins, guint factor)
{
	guint i, n = (bins->len + factor - 1) / factor;

	for (i = 0; i < bins->len; i++) {
		struct sa_bin *src = &g_array_index(bins, struct sa_bin, i);
		struct sa_bin *dst = &g_array_index(bins, struct sa_bin,
						    i / factor);
		struct sa_bin b = *src;

		if (i % factor == 0) {
			memset(dst, 0, sizeof(*dst));
			dst->start_ns = b.start_ns;
		}
		dst->allocs += b.allocs;
		dst->frees += b.frees;
		dst->alloc_bytes += b.alloc_bytes;
		dst->freed_bytes += b.freed_bytes;
		dst->untraced += b.untraced;
		dst->untraced_bytes += b.untraced_bytes;
	}
	g_array_set_size(bins, n);
}

static void tl_event(void *state, struct sa_rec *r)
{
	struct tl_state *st = state;
	struct sa_bin *b;
	guint64 i;

	if (!st->started) {
		st->t0 = r->ts;
		st->started = TRUE;
	}
	sa_phases_event(&st->ph, r);
	if (r->ev == SA_EV_INITCALL_LEVEL || r->ev == SA_EV_INITCALL_FINISH ||
	    r->ev == SA_EV_EXEC)
		return;		/* boot phases only: no bin */
	i = r->ts > st->t0 ? (r->ts - st->t0) / st->interval : 0;
	if (st->fixed && i >= SA_TIMELINE_FIXED_BINS) {
		sa_report_fail(st->p->rep, "the timeline needs more than %u "
			       "bins of --interval %" G_GUINT64_FORMAT " ns "
			       "(an event %.3f s after the first): take a "
			       "wider interval, or leave it automatic",
			       SA_TIMELINE_FIXED_BINS, st->interval,
			       (r->ts - st->t0) / 1e9);
		return;
	}
	while (!st->fixed && i >= SA_TIMELINE_MAX_BINS) {
		coarsen(st->bins, 2);
		st->interval *= 2;
		i = (r->ts - st->t0) / st->interval;
	}
	if (i >= st->bins->len)
		g_array_set_size(st->bins, i + 1);
	b = &g_array_index(st->bins, struct sa_bin, i);
	switch (r->ev) {
	case SA_EV_KMALLOC:
	case SA_EV_CACHE_ALLOC:
		/* a failed allocation, or the second event of one */
		if (!r->v[SA_KM_PTR] || (r->flags & SA_REC_REPEAT))
			break;
		b->allocs++;
		b->alloc_bytes += r->v[SA_KM_ALLOC];
		if (r->freed_alloc) {
			/* the object there before was freed untraced */
			b->untraced++;
			b->untraced_bytes += r->freed_alloc;
		}
		break;
	case SA_EV_KFREE:
	case SA_EV_CACHE_FREE:
		if (!r->freed_alloc)
			break;
		b->frees++;
		b->freed_bytes += r->freed_alloc;
		break;
	default:
		break;
	}
}

/* A round interval (1, 2 or 5 × 10^k ns) giving at most max bins. */
static guint64 round_interval(guint64 span, guint64 min, guint max)
{
	static const guint64 steps[] = { 1, 2, 5 };
	guint64 p;
	int i;

	for (p = 1000000ULL; ; p *= 10)
		for (i = 0; i < 3; i++) {
			guint64 w = steps[i] * p;

			if (w >= min && w % min == 0 && span / w < max)
				return w;
			if (p > (G_MAXUINT64 / 100))
				return w;
		}
}

/*
 * A trace's sizes are its own: a hostile one can make bins whose bytes
 * no gint64 holds. The net and running figures saturate there rather
 * than wrap (found by fuzzing: a signed overflow).
 */
static gint64 sat_i64(guint64 v)
{
	return v > G_MAXINT64 ? G_MAXINT64 : (gint64)v;
}

static gint64 sat_add(gint64 a, gint64 b)
{
	gint64 r;

	if (__builtin_add_overflow(a, b, &r))
		return a > 0 ? G_MAXINT64 : G_MININT64;
	return r;
}

static gint64 sat_sub(gint64 a, gint64 b)
{
	gint64 r;

	if (__builtin_sub_overflow(a, b, &r))
		return a >= 0 ? G_MAXINT64 : G_MININT64;
	return r;
}

static void *tl_finish(void *state, struct sa_report *rep)
{
	struct tl_state *st = state;
	struct sa_timeline_result *res = g_new0(struct sa_timeline_result, 1);
	gint64 run = 0;
	guint i;

	if (!st->fixed && st->bins->len > SA_TIMELINE_AUTO_BINS) {
		guint64 span = st->bins->len * st->interval;
		guint64 w = round_interval(span, st->interval,
					   SA_TIMELINE_AUTO_BINS);

		coarsen(st->bins, w / st->interval);
		st->interval = w;
	}
	for (i = 0; i < st->bins->len; i++) {
		struct sa_bin *b = &g_array_index(st->bins, struct sa_bin, i);

		b->start_ns = (guint64)i * st->interval;
		b->net = sat_sub(sat_sub(sat_i64(b->alloc_bytes),
					 sat_i64(b->freed_bytes)),
				 sat_i64(b->untraced_bytes));
		run = sat_add(run, b->net);
		b->outstanding = run;
	}
	res->interval_ns = st->interval;
	res->t0_ns = st->t0;
	res->bins = st->bins;
	st->bins = NULL;
	sa_phases_finish(&st->ph, &res->phases);
	return res;
}

static void tl_free_result(void *result)
{
	struct sa_timeline_result *res = result;

	g_array_free(res->bins, TRUE);
	sa_phases_clear(&res->phases);
	g_free(res);
}

const struct sa_agg sa_agg_timeline = {
	.events = SA_EVBIT(SA_EV_KMALLOC) | SA_EVBIT(SA_EV_CACHE_ALLOC) |
		  SA_EVBIT(SA_EV_KFREE) | SA_EVBIT(SA_EV_CACHE_FREE) |
		  SA_EVBIT(SA_EV_INITCALL_LEVEL) |
		  SA_EVBIT(SA_EV_INITCALL_FINISH) | SA_EVBIT(SA_EV_EXEC),
	.create = tl_create,
	.event = tl_event,
	.finish = tl_finish,
	.destroy = tl_destroy,
	.free_result = tl_free_result,
};
