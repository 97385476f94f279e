// SPDX-License-Identifier: GPL-2.0
/*
 * top's event stream (see top/stream.h): the readers' sink that copies
 * pages to memory, and the merger that decodes them (trace/raw.c's page
 * walker, the report's decoder) and feeds the records in time order.
 *
 * Each CPU has two page buffers, mapped once: the reader fills one under
 * its lock while the merger walks the other. A round swaps them under
 * the reader's lock, right after draining the CPU, so the merger sees
 * every page read up to then. Walked pages are given back to the system
 * as they are decoded (madvise), so the memory held is what one round
 * brings, at most cap bytes per CPU and buffer (mapped without a
 * reservation: untouched, it costs nothing).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <gio/gio.h>

#include "trace/cpu-readers.h"
#include "trace/raw.h"
#include "top/stream.h"
#include "util/sigstack.h"

/*
 * Pages waiting for the merger, per CPU and buffer: 16 times the ring
 * buffer within these bounds (less in a 32-bit address space), so that
 * a merger starved of CPU for seconds still loses nothing. Only what
 * waits takes memory.
 */
#define CAP_MIN		((size_t)32 << 20)
#define CAP_MAX		(sizeof(void *) > 4 ? (size_t)256 << 20 : CAP_MIN)

struct page_buf {
	guint8 *data;		/* cap bytes */
	size_t len;		/* whole pages */
};

struct cpu_stream {
	struct page_buf fill;	/* the reader's, under its lock */
	struct page_buf walk;	/* the merger's */
	bool was_full;		/* fill had no room when swapped */
};

struct sa_top_stream {
	struct sa_cpu_readers *readers;
	struct cpu_stream *cpus;
	/* per CPU: struct sa_rec, decoded, not fed yet */
	GArray **recs;
	int nr_cpus;
	size_t page_size, cap;
	struct sa_tracedat_layout lay;	/* the pages, for the walker */
	struct tep_handle *tep;
	struct sa_decode *dec;
	bool mono;
	sa_top_feed_fn fn;
	void *data;
	GMutex lock;			/* one round at a time */
	int err;			/* errno of a failed drain (lock) */
	guint64 bad_pages;		/* never: the kernel's own pages */
	GThread *merger;
	GMutex stop_lock;
	GCond stop_cond;
	bool stopping;			/* (stop_lock) */
};

/* The readers' sink: the CPU's next page, copied to its fill buffer. */
static int copy_page(struct tracefs_cpu *tcpu, int cpu, bool flush,
		     void *data)
{
	struct sa_top_stream *s = data;
	struct page_buf *b = &s->cpus[cpu].fill;
	int n;

	if (b->len + s->page_size > s->cap)
		return SA_CPU_SINK_FULL;
	/* read(), unlike splice, also takes a partly filled page */
	n = tracefs_cpu_read(tcpu, b->data + b->len, true);
	if (n <= 0)
		return n;
	if ((size_t)n < s->page_size)
		memset(b->data + b->len + n, 0, s->page_size - n);
	b->len += s->page_size;
	return n;
}

/* Under the reader's lock, just drained: hand its pages to the merger. */
static void swap_pages(int cpu, void *data)
{
	struct sa_top_stream *s = data;
	struct cpu_stream *c = &s->cpus[cpu];
	struct page_buf b = c->walk;

	c->was_full = c->fill.len + s->page_size > s->cap;
	c->walk = c->fill;
	c->fill = b;
	c->fill.len = 0;
}

struct decode_ctx {
	struct sa_top_stream *s;
	int cpu;
};

static int decode_one(struct tep_record *rec, void *data)
{
	struct decode_ctx *d = data;
	struct sa_rec r;

	/* a kernel stack: the live view has no use for it */
	if (sa_decode_record(d->s->dec, d->s->tep, rec, &r) ||
	    r.ev == SA_EV_STACK)
		return 0;
	r.cpu = d->cpu;
	g_array_append_val(d->s->recs[d->cpu], r);
	return 0;
}

static guint64 ts_at(GArray *a, guint i)
{
	return g_array_index(a, struct sa_rec, i).ts;
}

void sa_top_stream_merge(GArray **recs, int n, guint64 t0,
			 sa_top_feed_fn fn, void *data)
{
	guint *fed = g_new0(guint, n), *end = g_new0(guint, n);
	int i;

	for (i = 0; i < n; i++) {
		end[i] = recs[i]->len;
		while (end[i] && ts_at(recs[i], end[i] - 1) >= t0)
			end[i]--;
	}
	for (;;) {
		int best = -1, lim_i = n;
		guint64 lim = G_MAXUINT64;

		for (i = 0; i < n; i++)
			if (fed[i] < end[i] && (best < 0 ||
			    ts_at(recs[i], fed[i]) <
			    ts_at(recs[best], fed[best])))
				best = i;
		if (best < 0)
			break;
		for (i = 0; i < n; i++)
			if (i != best && fed[i] < end[i] &&
			    ts_at(recs[i], fed[i]) < lim) {
				lim = ts_at(recs[i], fed[i]);
				lim_i = i;
			}
		/* best's records while they come first */
		do {
			fn(&g_array_index(recs[best], struct sa_rec,
					  fed[best]++), data);
		} while (fed[best] < end[best] &&
			 (ts_at(recs[best], fed[best]) < lim ||
			  (ts_at(recs[best], fed[best]) == lim &&
			   best < lim_i)));
	}
	for (i = 0; i < n; i++)
		if (fed[i])
			g_array_remove_range(recs[i], 0, fed[i]);
	g_free(fed);
	g_free(end);
}

static guint64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (guint64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Drain every CPU, decode what came and feed it (s->lock held). */
static void one_round(struct sa_top_stream *s)
{
	/* taken before any drain: all that is stamped before is drained */
	guint64 t0 = s->mono ? now_ns() : G_MAXUINT64;
	int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (sa_cpu_readers_drain(s->readers, cpu, swap_pages, s) &&
		    !s->err)
			s->err = errno;
		if (s->cpus[cpu].was_full)
			sa_cpu_readers_kick(s->readers, cpu);
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cpu_stream *c = &s->cpus[cpu];
		struct decode_ctx d = { s, cpu };
		struct sa_page_damage dmg;

		if (!c->walk.len)
			continue;
		/* a damaged page is counted; the rest of this read dropped */
		if (sa_raw_iterate_range(c->walk.data, c->walk.len, &s->lay,
					 cpu, 0, c->walk.len, decode_one, &d,
					 &dmg) == -2)
			s->bad_pages++;
		c->walk.len = 0;
	}
	sa_top_stream_merge(s->recs, s->nr_cpus, t0, s->fn, s->data);
}

static gpointer merger_thread(gpointer data)
{
	struct sa_top_stream *s = data;

	g_mutex_lock(&s->stop_lock);
	while (!s->stopping) {
		gint64 end = g_get_monotonic_time() +
			     SA_TOP_STREAM_EPOCH_MS * G_TIME_SPAN_MILLISECOND;

		while (!s->stopping &&
		       g_cond_wait_until(&s->stop_cond, &s->stop_lock, end))
			;
		if (s->stopping)
			break;
		g_mutex_unlock(&s->stop_lock);
		g_mutex_lock(&s->lock);
		one_round(s);
		g_mutex_unlock(&s->lock);
		g_mutex_lock(&s->stop_lock);
	}
	g_mutex_unlock(&s->stop_lock);
	return NULL;
}

int sa_top_stream_sync(struct sa_top_stream *s, void (*fn)(void *data),
		       void *data, GError **err)
{
	int e;

	g_mutex_lock(&s->lock);
	one_round(s);
	if (fn)
		fn(data);
	e = s->err;
	g_mutex_unlock(&s->lock);
	if (!e)
		return 0;
	g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e),
		    "reading the ring buffer: %s", g_strerror(e));
	return -1;
}

static size_t buffer_cap(struct tracefs_instance *inst, size_t page_size)
{
	ssize_t kb = tracefs_instance_get_buffer_size(inst, 0);
	size_t cap = kb > 0 ? (size_t)kb * 1024 * 16 : CAP_MIN;

	cap = CLAMP(cap, CAP_MIN, CAP_MAX);
	return cap - cap % page_size;
}

static int map_buf(struct page_buf *b, size_t cap)
{
	void *m = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	b->data = m;
	return 0;
}

struct sa_top_stream *sa_top_stream_start(struct tracefs_instance *inst,
					  int nr_cpus,
					  struct tep_handle *tep,
					  struct sa_decode *dec,
					  bool mono_clock, sa_top_feed_fn fn,
					  void *data, GError **err)
{
	struct sa_top_stream *s = g_new0(struct sa_top_stream, 1);
	const struct sa_cpu_sink sink = { .move = copy_page, .data = s };
	int cpu;

	s->nr_cpus = nr_cpus;
	s->tep = tep;
	s->dec = dec;
	s->mono = mono_clock;
	s->fn = fn;
	s->data = data;
	g_mutex_init(&s->lock);
	g_mutex_init(&s->stop_lock);
	g_cond_init(&s->stop_cond);
	s->page_size = sa_trace_subbuf_size(inst);
	s->cap = buffer_cap(inst, s->page_size);
	/* the pages as the kernel writes them: its long size, our order */
	s->lay.version = 6;
	s->lay.page_size = s->page_size;
	s->lay.long_size = tep_get_header_page_size(tep) == 4 ? 4 : 8;
	s->lay.big_endian = tep_is_file_bigendian(tep);
	s->cpus = g_new0(struct cpu_stream, nr_cpus);
	s->recs = g_new0(GArray *, nr_cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_stream *c = &s->cpus[cpu];

		s->recs[cpu] = g_array_new(FALSE, FALSE, sizeof(struct sa_rec));
		if (map_buf(&c->fill, s->cap) || map_buf(&c->walk, s->cap)) {
			int e = errno;

			g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e),
				    "mapping %zu MB for the pages read: %s",
				    s->cap >> 20, g_strerror(e));
			goto fail;
		}
	}
	s->readers = sa_cpu_readers_start(inst, nr_cpus, s->page_size, &sink,
					  err);
	if (!s->readers)
		goto fail;
	s->merger = sa_thread_new("slabacct-merge", merger_thread, s);
	return s;
fail:
	sa_top_stream_free(s);
	return NULL;
}

void sa_top_stream_free(struct sa_top_stream *s)
{
	int cpu;

	if (!s)
		return;
	if (s->merger) {
		g_mutex_lock(&s->stop_lock);
		s->stopping = true;
		g_cond_signal(&s->stop_cond);
		g_mutex_unlock(&s->stop_lock);
		g_thread_join(s->merger);
	}
	sa_cpu_readers_free(s->readers);
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cpu_stream *c = &s->cpus[cpu];

		if (c->fill.data)
			munmap(c->fill.data, s->cap);
		if (c->walk.data)
			munmap(c->walk.data, s->cap);
		if (s->recs[cpu])
			g_array_free(s->recs[cpu], TRUE);
	}
	g_free(s->cpus);
	g_free(s->recs);
	g_mutex_clear(&s->lock);
	g_mutex_clear(&s->stop_lock);
	g_cond_clear(&s->stop_cond);
	g_free(s);
}
