// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a trace.dat (trace/reader.h).
 *
 * Reader threads decode the records the dispatch table knows into struct
 * sa_rec and pass them on in chunks, as time-ordered streams. A trace.dat
 * the fast path can read (trace/raw.c) is read by segments of pages
 * (trace/segments.c), one stream per CPU; any other is read through
 * libtracecmd, its CPUs split over the readers, each of which walks its
 * CPUs in timestamp order (tracecmd_iterate_events) into one stream
 * through a bounded queue. The calling thread merges the streams by
 * timestamp into the sink, so it sees one time-ordered stream and needs
 * no locks; memory stays bounded by the chunks in flight.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "trace/decode.h"
#include "util/sigstack.h"
#include "util/input-file.h"
#include "trace/kallsyms.h"
#include "trace/check.h"
#include "trace/raw.h"
#include "trace/segments.h"
#include "trace/reader.h"
#include "trace/tracecmd-private.h"

#define CHUNKS_PER_STREAM 8
#define MAX_READERS	8
/* no kernel has more CPUs (x86's MAXSMP NR_CPUS) */
#define SA_TRACE_MAX_CPUS	8192

/* A reader of the libtracecmd path, and its stream. */
struct stream {
	struct sa_decode *dec;
	struct tracecmd_input *handle;
	struct tep_handle *tep;		/* the handle's, looked up once */
	cpu_set_t cpus;
	GThread *thread;
	GAsyncQueue *full, *empty;
	struct chunk *cur;		/* being filled (reader side) */
	gboolean ended;			/* its last chunk was merged */
	int nr_cpus;
	guint64 *first_off, *last_off;	/* [nr_cpus] file offsets read */
	size_t page_size, page_hdr;	/* a record lies in between */
	struct sa_page_damage dmg;	/* why set: a record outside its
					 * page, the stream ended there */
};

/* How far the stream's CPUs are read, for the progress callback. */
static void chunk_seal(struct stream *s, struct chunk *c)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++) {
		if (!s->first_off[i])
			continue;
		c->done += s->last_off[i] - s->first_off[i];
		if (!c->min_off || s->first_off[i] < c->min_off)
			c->min_off = s->first_off[i];
	}
}

static struct chunk *chunk_get(struct stream *s)
{
	struct chunk *c = g_async_queue_pop(s->empty);

	chunk_reset(c);
	return c;
}

/*
 * Whether the record lies inside its page. libtracecmd's pages were
 * checked before it read them (sa_tracedat_check_pages); this is the
 * bound on the record itself, as the fast path has (trace/raw.c).
 */
static bool record_in_page(struct stream *s, struct tracecmd_input *h,
			   const struct tep_record *rec)
{
	const guint8 *page = tracecmd_record_page(h, (struct tep_record *)rec);
	const guint8 *d = rec->data;

	if (page && rec->size >= 0 && d >= page + s->page_hdr &&
	    (size_t)(d - page) + rec->size <= s->page_size)
		return true;
	s->dmg.cpu = rec->cpu;
	s->dmg.off = rec->offset;
	s->dmg.at = page && d >= page ? (size_t)(d - page) : 0;
	s->dmg.why = "a record lies outside its page";
	return false;
}

static int take_record(struct stream *s, struct tep_handle *tep,
		       struct tep_record *rec)
{
	struct chunk *c = s->cur;

	if (G_LIKELY(rec->cpu >= 0 && rec->cpu < s->nr_cpus)) {
		if (G_UNLIKELY(!s->first_off[rec->cpu]))
			s->first_off[rec->cpu] = rec->offset;
		s->last_off[rec->cpu] = rec->offset;
	}
	if (chunk_add_record(c, s->dec, tep, rec, NULL) == CHUNK_FULL) {
		/* full: hand it on, the record starts the next one */
		chunk_seal(s, c);
		s->cur = chunk_get(s);
		chunk_carry(s->cur, c, CPU_COUNT(&s->cpus) == 1);
		g_async_queue_push(s->full, c);
	}
	return 0;
}

static int reader_cb(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	if (!record_in_page(data, h, rec))
		return -1;	/* stops the iteration */
	return take_record(data, tracecmd_get_tep(h), rec);
}

static gpointer reader_thread(gpointer data)
{
	struct stream *s = data;

	s->cur = chunk_get(s);
	tracecmd_iterate_events(s->handle, &s->cpus, sizeof(s->cpus),
				reader_cb, s);
	s->cur->last = TRUE;
	chunk_seal(s, s->cur);
	g_async_queue_push(s->full, s->cur);
	return NULL;
}

/*
 * The whole file, read-only, for the fast path, and its descriptor in
 * *fd; NULL if it cannot be.
 */
static guint8 *map_file(const char *path, size_t *len, int *fdp)
{
	struct stat sb;
	void *m;
	int fd;

	fd = sa_input_open(path, NULL);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || sb.st_size <= 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	*fdp = fd;
	madvise(m, sb.st_size, MADV_SEQUENTIAL);
	*len = sb.st_size;
	return m;
}

static void streams_stop(struct stream *st, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct chunk *c;

		if (!st[i].thread)
			continue;
		/* drain until the reader's last chunk, so it can finish */
		while (!st[i].ended) {
			c = g_async_queue_pop(st[i].full);
			st[i].ended = c->last;
			g_async_queue_push(st[i].empty, c);
		}
		g_thread_join(st[i].thread);
		st[i].thread = NULL;
	}
}

static void stream_free(struct stream *s)
{
	struct chunk *c;

	if (s->empty) {
		while ((c = g_async_queue_try_pop(s->empty)))
			g_free(c);
		g_async_queue_unref(s->empty);
	}
	if (s->full) {
		while ((c = g_async_queue_try_pop(s->full)))
			g_free(c);
		g_async_queue_unref(s->full);
	}
	sa_decode_free(s->dec);
	g_free(s->first_off);
	g_free(s->last_off);
	if (s->handle) {
		sa_kallsyms_forget(tracecmd_get_tep(s->handle));
		tracecmd_close(s->handle);
	}
}

/*
 * Reader threads: as asked, or one per core beside the calling thread
 * that aggregates (on 2 cores, 2 readers beat 1 in every run of
 * bench/report.sh: the readers do two thirds of the work). The
 * libtracecmd path has at most one per CPU of the trace.
 */
static int nr_threads(const struct sa_read_opts *opts, int cpus,
		      gboolean raw)
{
	int n = opts && opts->threads > 0 ? opts->threads :
		(int)sysconf(_SC_NPROCESSORS_ONLN);

	if (!raw && n > cpus)
		n = cpus;
	if (n > MAX_READERS)
		n = MAX_READERS;
	return n < 1 ? 1 : n;
}

/*
 * The n readers' handles and decoders, st[0]'s handle open; returns how
 * many could be had. The fast path's readers share the first handle
 * when the decoder reads the common fields itself: decoding then only
 * reads the tep (fields, byte order). Otherwise each reader has its own,
 * as libtracecmd's iterator needs anyway.
 */
static int readers_open(struct stream *st, int n, const char *path,
			const struct sa_read_sink *sink, gboolean raw)
{
	int i;

	st[0].tep = tracecmd_get_tep(st[0].handle);
	st[0].dec = sa_decode_new(st[0].tep, sink->ev_present, sink->notes);
	for (i = 1; i < n; i++) {
		if (raw && st[0].dec->type_size && st[0].dec->pid_size == 4) {
			st[i].tep = st[0].tep;
			st[i].dec = sa_decode_new(st[i].tep, NULL, NULL);
			continue;
		}
		/* symbols come from stream 0's handle only */
		sa_kallsyms_skip(true);
		st[i].handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		sa_kallsyms_skip(false);
		if (!st[i].handle)
			return i;
		st[i].tep = tracecmd_get_tep(st[i].handle);
		st[i].dec = sa_decode_new(st[i].tep, NULL, NULL);
	}
	return n;
}

/* Start the libtracecmd path's readers, the CPUs dealt out to them. */
static void streams_start(struct stream *st, int n, int cpus,
			  const struct sa_tracedat_view *view)
{
	int i, j;

	for (i = 0; i < n; i++) {
		st[i].page_size = view->page_size;
		st[i].page_hdr = 8 + (view->long_size == 8 ? 8 : 4);
		CPU_ZERO(&st[i].cpus);
		for (j = i; j < cpus && j < CPU_SETSIZE; j += n)
			CPU_SET(j, &st[i].cpus);
		st[i].nr_cpus = cpus;
		st[i].first_off = g_new0(guint64, cpus);
		st[i].last_off = g_new0(guint64, cpus);
		st[i].full = g_async_queue_new();
		st[i].empty = g_async_queue_new();
		for (j = 0; j < CHUNKS_PER_STREAM; j++)
			g_async_queue_push(st[i].empty,
					   g_malloc(sizeof(struct chunk)));
		st[i].thread = sa_thread_new("sa-reader", reader_thread, &st[i]);
	}
}

static guint64 file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (guint64)sb.st_size;
}

/* Tell opts->progress how far the streams are, of the file's size. */
static void progress(const struct sa_read_opts *o, const guint64 *done,
		     const guint64 *min_off, int n, guint64 size)
{
	guint64 sum = 0, off = 0;
	int i;

	if (!o || !o->progress)
		return;
	for (i = 0; i < n; i++) {
		sum += done[i];
		if (min_off[i] && (!off || min_off[i] < off))
			off = min_off[i];
	}
	o->progress(o->progress_data, sum, size > off ? size - off : size);
}

/* Where the merge takes its streams' chunks from. */
struct source {
	struct stream *st;		/* the libtracecmd readers' streams, or */
	struct sa_segments *ss;		/* the segment readers' (one per CPU) */
	int n;				/* streams */
};

/* The next chunk of stream i; NULL once it has ended. */
static struct chunk *source_next(struct source *src, int i)
{
	struct chunk *c;

	if (src->ss)
		return sa_segments_next(src->ss, i);
	if (src->st[i].ended)
		return NULL;
	c = g_async_queue_pop(src->st[i].full);
	src->st[i].ended = c->last;
	return c;
}

static void source_put(struct source *src, int i, struct chunk *c)
{
	if (src->ss)
		sa_segments_put(src->ss, c);
	else
		g_async_queue_push(src->st[i].empty, c);
}

/* Count a chunk's reading. */
static void chunk_account(struct sa_read_counts *rc, const struct chunk *c)
{
	rc->nr_records += c->nr_records;
	rc->missed_events += c->missed;
	rc->missed_pages_unknown += c->missed_unknown;
	rc->stacks += c->stacks;
	rc->stacks_lost += c->stacks_lost;
	if (c->first_ts && (!rc->first_ts || c->first_ts < rc->first_ts))
		rc->first_ts = c->first_ts;
	if (c->last_ts > rc->last_ts)
		rc->last_ts = c->last_ts;
}

static bool sink_stopped(const struct sa_read_sink *sink)
{
	return sink->stopped && sink->stopped(sink->data);
}

/* Merge the streams by timestamp into the sink. */
static void merge(struct source *src, const struct sa_read_sink *sink,
		  const struct sa_read_opts *o, struct sa_read_counts *rc,
		  guint64 size)
{
	int i, n = src->n, live = n;
	struct chunk **cur = g_new0(struct chunk *, n ? n : 1);
	guint *idx = g_new0(guint, n ? n : 1);
	guint64 *done = g_new0(guint64, n ? n : 1);
	guint64 *min_off = g_new0(guint64, n ? n : 1);
	gboolean *over = g_new0(gboolean, n ? n : 1);

	while (live && !sink_stopped(sink)) {
		int best = -1, lim_i = n;
		guint64 lim = G_MAXUINT64;
		struct chunk *bc;

		for (i = 0; i < n; i++) {
			struct chunk *c = cur[i];

			/* refill: account for the chunk, skip empty ones */
			while (!over[i] && (!c || idx[i] == c->n)) {
				if (c)
					source_put(src, i, c);
				c = cur[i] = source_next(src, i);
				if (!c) {
					over[i] = TRUE;
					live--;
					break;
				}
				idx[i] = 0;
				chunk_account(rc, c);
				done[i] = c->done;
				min_off[i] = c->min_off;
				progress(o, done, min_off, n, size);
			}
			if (!c || idx[i] == c->n)
				continue;
			if (best < 0 || c->r[idx[i]].ts <
			    cur[best]->r[idx[best]].ts)
				best = i;
		}
		if (best < 0)
			continue;
		/*
		 * Feed best's records while they come first: before every
		 * other stream's next one, or equal to it from a lower stream.
		 */
		for (i = 0; i < n; i++)
			if (i != best && cur[i] && idx[i] < cur[i]->n &&
			    cur[i]->r[idx[i]].ts < lim) {
				lim = cur[i]->r[idx[i]].ts;
				lim_i = i;
			}
		bc = cur[best];
		do {
			rc->nr_used++;
			if (sink->record)
				sink->record(sink->data, &bc->r[idx[best]++]);
			else
				idx[best]++;
		} while (idx[best] < bc->n &&
			 (bc->r[idx[best]].ts < lim ||
			  (bc->r[idx[best]].ts == lim && best < lim_i)));
	}
	g_free(cur);
	g_free(idx);
	g_free(done);
	g_free(min_off);
	g_free(over);
}

/* A damaged page met while reading: fail with it. */
static int damage_fail(const char *path, const struct sa_page_damage *d,
		       struct stream *st, int n, GError **err)
{
	int i;

	sa_page_damage_error(err, path, d);
	for (i = 0; i < n; i++)
		stream_free(&st[i]);
	return -1;
}

static int read_trace(const char *path, const struct sa_read_opts *opts,
		      const struct sa_read_sink *sink, GError **err)
{
	struct stream st[MAX_READERS];
	struct source src = { 0 };
	struct sa_read_counts rc = { 0 };
	struct sa_tracedat_layout lay = { 0 };
	struct sa_tracedat_view view;
	struct sa_page_damage dmg = { 0 };
	struct tep_handle *tep;
	int i, n, cpus, ret = 0;
	size_t map_len = 0;
	int map_fd = -1;
	guint8 *map = NULL;
	bool raw;

	if (sa_tracedat_check_all(path, &lay, &view, opts && opts->no_raw,
				  &raw, err))
		return -1;
	memset(st, 0, sizeof(st));
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	st[0].handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!st[0].handle) {
		struct stat sb;

		stat(path, &sb);
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: corrupt or truncated trace.dat: its headers "
			    "could not be read (the file is %lld bytes)", path,
			    (long long)sb.st_size);
		sa_tracedat_layout_clear(&lay);
		return -1;
	}
	tep = tracecmd_get_tep(st[0].handle);
	/*
	 * The CPU count is the file's: each CPU has at least its 16 bytes
	 * of offset and size in it, and no kernel has more than
	 * SA_TRACE_MAX_CPUS. A larger count (6 GB of per-CPU offsets, found
	 * by fuzzing) is a damaged file.
	 */
	cpus = tep_get_cpus(tep);
	if (cpus > SA_TRACE_MAX_CPUS ||
	    (guint64)(cpus > 0 ? cpus : 0) * 16 > file_size(path)) {
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: corrupt or truncated trace.dat: it claims %d "
			    "CPUs (the file is %" G_GUINT64_FORMAT " bytes)",
			    path, cpus, file_size(path));
		tracecmd_close(st[0].handle);
		sa_tracedat_layout_clear(&lay);
		return -1;
	}
	if (sink->opened && sink->opened(sink->data, tep, err)) {
		tracecmd_close(st[0].handle);
		sa_tracedat_layout_clear(&lay);
		return -1;
	}
	if (raw)
		map = map_file(path, &map_len, &map_fd);
	n = nr_threads(opts, cpus > 0 ? cpus : 1, map != NULL);
	n = readers_open(st, n, path, sink, map != NULL);
	sa_input_test_stop();
	if (map) {
		struct sa_decode *dec[MAX_READERS];
		struct tep_handle *teps[MAX_READERS];

		for (i = 0; i < n; i++) {
			dec[i] = st[i].dec;
			teps[i] = st[i].tep;
		}
		src.ss = sa_segments_start(map, map_len, map_fd, &lay, dec,
					   teps, n);
		close(map_fd);
		src.n = sa_segments_streams(src.ss);
	} else {
		streams_start(st, n, cpus > 0 ? cpus : 1, &view);
		src.st = st;
		src.n = n;
	}
	merge(&src, sink, opts, &rc, file_size(path));
	if (src.ss) {
		sa_segments_finish(src.ss, &dmg);
	} else {
		streams_stop(st, n);
		for (i = 0; i < n; i++)
			if (st[i].dmg.why)
				dmg = st[i].dmg;
	}
	if (map)
		munmap(map, map_len);
	sa_tracedat_layout_clear(&lay);
	if (dmg.why)
		return damage_fail(path, &dmg, st, n, err);
	if (sink_stopped(sink))
		ret = 1;
	else if (sink->done && sink->done(sink->data, tep, &rc, err))
		ret = -1;
	for (i = 0; i < n; i++)
		stream_free(&st[i]);
	return ret;
}

/*
 * The file is mapped (here and by libtracecmd) while it is read: watched,
 * so that a crash handler can tell that it shrank meanwhile.
 */
int sa_trace_read(const char *path, const struct sa_read_opts *opts,
		  const struct sa_read_sink *sink, GError **err)
{
	struct stat st;
	int ret, fd = sa_input_open(path, err);

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st))
		sa_input_watch(path, fd, st.st_size);
	ret = read_trace(path, opts, sink, err);
	sa_input_unwatch(fd);
	close(fd);
	return ret;
}
