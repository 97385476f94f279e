// SPDX-License-Identifier: GPL-2.0
/*
 * The trace-reading pipeline of slabacct report.
 *
 * The CPUs of the trace are split over T reader threads. Each opens the
 * file with libtracecmd, walks its CPUs in timestamp order
 * (tracecmd_iterate_events), decodes the records the dispatch table knows
 * into struct sa_rec, and passes them on in chunks through a bounded
 * queue. The calling thread merges the T sorted streams by timestamp and
 * runs the aggregators, so they see one time-ordered stream and need no
 * locks; memory stays bounded by the chunks in flight.
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

#include "report.h"
#include "report-check.h"
#include "report-pipeline.h"
#include "report-raw.h"
#include "symbols.h"

#define CHUNK_RECS	4096
#define CHUNKS_PER_STREAM 4
#define MAX_STREAMS	8

G_DEFINE_QUARK(sa-report-error-quark, sa_report_error)

struct chunk {
	guint n;
	gboolean last;
	guint64 nr_records;		/* records read, used or not */
	guint64 missed, missed_unknown;
	guint64 first_ts, last_ts;
	guint64 done, min_off;		/* bytes of event data read */
	struct sa_rec r[CHUNK_RECS];
};


struct stream {
	struct sa_decode *dec;
	struct tracecmd_input *handle;
	struct tep_handle *tep;		/* the handle's, looked up once */
	cpu_set_t cpus;
	GThread *thread;
	GAsyncQueue *full, *empty;
	struct chunk *cur;		/* being filled (reader side) */
	gboolean first_set;
	int nr_cpus;
	guint64 *first_off, *last_off;	/* [nr_cpus] file offsets read */
	/* the fast path (report-raw.c), when map is set */
	const guint8 *map;
	size_t map_len;
	const struct sa_tracedat_layout *lay;
	guint64 bad_pages;
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

	memset(c, 0, offsetof(struct chunk, r));
	return c;
}

static int take_record(struct stream *s, struct tep_handle *tep,
		       struct tep_record *rec)
{
	struct chunk *c = s->cur;

	c->nr_records++;
	if (G_UNLIKELY(rec->missed_events)) {
		if (rec->missed_events > 0)
			c->missed += rec->missed_events;
		else
			c->missed_unknown++;
	}
	if (G_UNLIKELY(!c->first_ts) || rec->ts < c->first_ts)
		c->first_ts = rec->ts;
	if (rec->ts > c->last_ts)
		c->last_ts = rec->ts;
	if (G_LIKELY(rec->cpu >= 0 && rec->cpu < s->nr_cpus)) {
		if (G_UNLIKELY(!s->first_off[rec->cpu]))
			s->first_off[rec->cpu] = rec->offset;
		s->last_off[rec->cpu] = rec->offset;
	}
	if (sa_decode_record(s->dec, tep, rec, &c->r[c->n]))
		return 0;
	if (++c->n == CHUNK_RECS) {
		chunk_seal(s, c);
		g_async_queue_push(s->full, c);
		s->cur = chunk_get(s);
	}
	return 0;
}

static int reader_cb(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	return take_record(data, tracecmd_get_tep(h), rec);
}

static int raw_cb(struct tep_record *rec, void *data)
{
	struct stream *s = data;

	rec->offset = (const guint8 *)rec->data - s->map;
	return take_record(s, s->tep, rec);
}

static gpointer reader_thread(gpointer data)
{
	struct stream *s = data;

	s->cur = chunk_get(s);
	if (s->map)
		sa_raw_iterate(s->map, s->map_len, s->lay, &s->cpus, raw_cb, s,
			       &s->bad_pages);
	else
		tracecmd_iterate_events(s->handle, &s->cpus, sizeof(s->cpus),
					reader_cb, s);
	s->cur->last = TRUE;
	chunk_seal(s, s->cur);
	g_async_queue_push(s->full, s->cur);
	return NULL;
}

/* The whole file, read-only, for the fast path; NULL if it cannot be. */
static guint8 *map_file(const char *path, size_t *len)
{
	struct stat sb;
	void *m;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || sb.st_size <= 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	madvise(m, sb.st_size, MADV_SEQUENTIAL);
	*len = sb.st_size;
	return m;
}

/* ---- the pipeline ---- */

void sa_report_note(struct sa_report *rep, const char *fmt, ...)
{
	va_list ap;
	char *s;
	guint i;

	va_start(ap, fmt);
	s = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	for (i = 0; i < rep->notes->len; i++)
		if (!strcmp(rep->notes->pdata[i], s)) {
			g_free(s);
			return;
		}
	g_ptr_array_add(rep->notes, s);
}

bool sa_report_no_kmem(const struct sa_report *rep)
{
	return !rep->ev_count[SA_EV_KMALLOC] &&
	       !rep->ev_count[SA_EV_CACHE_ALLOC] &&
	       !rep->ev_count[SA_EV_KFREE] &&
	       !rep->ev_count[SA_EV_CACHE_FREE];
}

void *sa_pipeline_state(struct sa_pipeline *p, const char *what)
{
	int i = sa_section_index(what);

	return i >= 0 ? p->state[i] : NULL;
}

struct sa_report *sa_report_new(const char *path, guint32 sections,
				const struct sa_report_opts *opts)
{
	struct sa_report *rep = g_new0(struct sa_report, 1);

	rep->file = g_strdup(path);
	rep->notes = g_ptr_array_new_with_free_func(g_free);
	rep->sections = sections;
	rep->opts = opts;
	return rep;
}

void sa_pipeline_init(struct sa_pipeline *p, struct sa_report *rep)
{
	int i, e;

	memset(p, 0, sizeof(*p));
	p->rep = rep;
	for (i = 0; sa_report_table[i].what; i++) {
		const struct sa_agg *agg = sa_report_table[i].agg;

		/* the callsite row (0) feeds the others: always run it */
		if (!(rep->sections & (1u << i)) && i != 0)
			continue;
		p->state[i] = agg->create(rep->opts, p);
		for (e = 0; e < SA_EV_NR; e++)
			if (agg->events & SA_EVBIT(e)) {
				int n = p->nr_disp[e]++;

				p->disp[e][n].agg = agg;
				p->disp[e][n].state = p->state[i];
			}
	}
}

void sa_pipeline_feed(struct sa_pipeline *p, struct sa_rec *r)
{
	int i;

	p->rep->ev_count[r->ev]++;
	for (i = 0; i < p->nr_disp[r->ev]; i++)
		p->disp[r->ev][i].agg->event(p->disp[r->ev][i].state, r);
}

void sa_pipeline_abort(struct sa_pipeline *p)
{
	int i;

	for (i = 0; sa_report_table[i].what; i++)
		if (p->state[i])
			sa_report_table[i].agg->destroy(p->state[i]);
}

void sa_pipeline_finish(struct sa_pipeline *p)
{
	struct sa_report *rep = p->rep;
	int i;

	for (i = 0; sa_report_table[i].what; i++) {
		const struct sa_agg *agg = sa_report_table[i].agg;

		if (!p->state[i])
			continue;
		if (i == 0 || (rep->sections & (1u << i)))
			rep->result[i] = agg->finish(p->state[i], rep);
	}
	sa_pipeline_abort(p);
}

static void origin_fill(struct sa_report *rep, struct tep_handle *tep)
{
	struct sa_trace_origin *o = &rep->origin;

	if (!o->nr_cpus)
		o->nr_cpus = tep_get_cpus(tep);
	if (!o->start_ns)
		o->start_ns = rep->first_ts;
	if (!o->end_ns)
		o->end_ns = rep->last_ts;
}

static void notes_fill(struct sa_report *rep)
{
	int e;

	if (!rep->ev_present[SA_EV_KMALLOC] &&
	    !rep->ev_present[SA_EV_CACHE_ALLOC] &&
	    !rep->ev_present[SA_EV_KFREE] &&
	    !rep->ev_present[SA_EV_CACHE_FREE]) {
		sa_report_note(rep, "the trace has no kmem events "
			       "(record with -e kmem)");
		return;
	}
	for (e = 0; e <= SA_EV_CACHE_FREE; e++)	/* the kmem ids */
		if (!rep->ev_present[e])
			sa_report_note(rep, "the trace has no kmem:%s events"
				       "%s", sa_ev_name(e),
				       e == SA_EV_KFREE || e == SA_EV_CACHE_FREE ?
				       ": objects freed by it look live" : "");
	if (sa_report_no_kmem(rep))
		sa_report_note(rep, "the trace has kmem event formats but "
			       "no kmem records");
}

static void streams_stop(struct stream *st, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct chunk *c;

		if (!st[i].thread)
			continue;
		/* drain until the reader's last chunk, so it can finish */
		do {
			c = g_async_queue_pop(st[i].full);
			g_async_queue_push(st[i].empty, c);
		} while (!c->last);
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

static int nr_threads(const struct sa_report_opts *opts, int cpus)
{
	/*
	 * automatic: one reader per core (at most one per CPU of the trace),
	 * beside the calling thread that aggregates. On 2 cores, 2 readers
	 * beat 1 in every run of bench/report.sh: the readers do 60% of the
	 * work, so one alone is the bottleneck.
	 */
	int n = opts && opts->threads > 0 ? opts->threads :
		(int)sysconf(_SC_NPROCESSORS_ONLN);

	if (n > cpus)
		n = cpus;
	if (n > MAX_STREAMS)
		n = MAX_STREAMS;
	return n < 1 ? 1 : n;
}

static guint64 file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (guint64)sb.st_size;
}

/* Tell opts->progress how far the streams are, of the file's size. */
static void progress(const struct sa_report *rep, const guint64 *done,
		     const guint64 *min_off, int n, guint64 size)
{
	guint64 sum = 0, off = 0;
	int i;

	if (!rep->opts || !rep->opts->progress)
		return;
	for (i = 0; i < n; i++) {
		sum += done[i];
		if (min_off[i] && (!off || min_off[i] < off))
			off = min_off[i];
	}
	rep->opts->progress(rep->opts->progress_data, sum,
			    size > off ? size - off : size);
}

/* Merge the streams by timestamp into the pipeline. */
static void merge(struct stream *st, int n, struct sa_pipeline *p,
		  guint64 size)
{
	struct chunk *cur[MAX_STREAMS];
	guint64 done[MAX_STREAMS] = { 0 }, min_off[MAX_STREAMS] = { 0 };
	guint idx[MAX_STREAMS];
	struct sa_report *rep = p->rep;
	int i, live = n;

	for (i = 0; i < n; i++) {
		cur[i] = NULL;
		idx[i] = 0;
	}
	while (live) {
		int best = -1, lim_i = n;
		guint64 lim = G_MAXUINT64;
		struct chunk *bc;

		for (i = 0; i < n; i++) {
			struct chunk *c = cur[i];

			/* refill: account for the chunk, skip empty ones */
			while (st[i].thread && (!c || idx[i] == c->n)) {
				if (c) {
					gboolean last = c->last;

					g_async_queue_push(st[i].empty, c);
					cur[i] = c = NULL;
					if (last) {
						g_thread_join(st[i].thread);
						st[i].thread = NULL;
						live--;
						break;
					}
				}
				c = cur[i] = g_async_queue_pop(st[i].full);
				idx[i] = 0;
				rep->nr_records += c->nr_records;
				rep->missed_events += c->missed;
				rep->missed_pages_unknown += c->missed_unknown;
				done[i] = c->done;
				min_off[i] = c->min_off;
				progress(rep, done, min_off, n, size);
				if (c->first_ts && (!rep->first_ts ||
						    c->first_ts < rep->first_ts))
					rep->first_ts = c->first_ts;
				if (c->last_ts > rep->last_ts)
					rep->last_ts = c->last_ts;
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
			rep->nr_used++;
			sa_pipeline_feed(p, &bc->r[idx[best]++]);
		} while (idx[best] < bc->n &&
			 (bc->r[idx[best]].ts < lim ||
			  (bc->r[idx[best]].ts == lim && best < lim_i)));
	}
}

struct sa_report *sa_report_read(const char *path, guint32 sections,
				 const struct sa_report_opts *opts,
				 GError **err)
{
	struct stream st[MAX_STREAMS];
	struct sa_pipeline p;
	struct sa_report *rep;
	struct sa_tracedat_layout lay = { 0 };
	struct tep_handle *tep;
	int i, j, n, cpus, ret;
	guint64 bad_pages = 0;
	size_t map_len = 0;
	guint8 *map = NULL;

	if (sa_tracedat_check_file(path, &lay, err))
		return NULL;
	if (sa_tracedat_probe_open(path, err)) {
		sa_tracedat_layout_clear(&lay);
		return NULL;
	}
	memset(st, 0, sizeof(st));
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	st[0].handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!st[0].handle) {
		struct stat sb;

		stat(path, &sb);
		g_set_error(err, SA_REPORT_ERROR, SA_REPORT_ERROR_FORMAT,
			    "%s: corrupt or truncated trace.dat: its headers "
			    "could not be read (the file is %lld bytes)", path,
			    (long long)sb.st_size);
		sa_tracedat_layout_clear(&lay);
		return NULL;
	}
	rep = sa_report_new(path, sections, opts);
	sa_kallsyms_skip(true);		/* the origin needs no symbols */
	ret = sa_trace_origin_read(path, &rep->origin, err);
	sa_kallsyms_skip(false);
	if (ret) {
		tracecmd_close(st[0].handle);
		sa_report_free(rep);
		sa_tracedat_layout_clear(&lay);
		return NULL;
	}
	if (sa_raw_usable(&lay) && !(opts && opts->no_raw))
		map = map_file(path, &map_len);
	rep->origin_known = true;
	tep = tracecmd_get_tep(st[0].handle);
	cpus = tep_get_cpus(tep);
	n = nr_threads(opts, cpus > 0 ? cpus : 1);
	for (i = 0; i < n; i++) {
		if (i) {
			/* symbols come from stream 0's handle only */
			sa_kallsyms_skip(true);
			st[i].handle = tracecmd_open(path,
						     TRACECMD_FL_LOAD_NO_PLUGINS);
			sa_kallsyms_skip(false);
			if (!st[i].handle) {
				n = i;
				break;
			}
		}
		st[i].tep = tracecmd_get_tep(st[i].handle);
		st[i].dec = sa_decode_new(st[i].tep,
					  i ? NULL : rep);
	}
	for (i = 0; i < n; i++) {
		CPU_ZERO(&st[i].cpus);
		for (j = i; j < (cpus > 0 ? cpus : 1) && j < CPU_SETSIZE;
		     j += n)
			CPU_SET(j, &st[i].cpus);
		st[i].nr_cpus = cpus > 0 ? cpus : 1;
		st[i].first_off = g_new0(guint64, st[i].nr_cpus);
		st[i].last_off = g_new0(guint64, st[i].nr_cpus);
		st[i].full = g_async_queue_new();
		st[i].empty = g_async_queue_new();
		for (j = 0; j < CHUNKS_PER_STREAM; j++)
			g_async_queue_push(st[i].empty,
					   g_malloc(sizeof(struct chunk)));
		st[i].map = map;
		st[i].map_len = map_len;
		st[i].lay = &lay;
		st[i].thread = g_thread_new("sa-reader", reader_thread, &st[i]);
	}
	sa_pipeline_init(&p, rep);
	merge(st, n, &p, file_size(path));
	streams_stop(st, n);
	for (i = 0; i < n; i++)
		bad_pages += st[i].bad_pages;
	if (bad_pages)
		sa_report_note(rep, "%" G_GUINT64_FORMAT " damaged ring-buffer "
			       "pages were skipped: the figures are incomplete",
			       bad_pages);
	if (map)
		munmap(map, map_len);
	sa_tracedat_layout_clear(&lay);

	notes_fill(rep);
	origin_fill(rep, tep);
	rep->tep = tep;
	rep->syms = sa_symbols_new(tep, opts ? opts->vmlinux : NULL,
				   opts ? opts->build_tree : NULL, err);
	if (!rep->syms) {
		for (i = 0; i < n; i++)
			stream_free(&st[i]);
		sa_pipeline_abort(&p);
		sa_report_free(rep);
		return NULL;
	}
	sa_pipeline_finish(&p);
	rep->tep = NULL;
	sa_symbols_free(rep->syms);
	rep->syms = NULL;
	for (i = 0; i < n; i++)
		stream_free(&st[i]);
	return rep;
}

void sa_report_free(struct sa_report *rep)
{
	int i;

	if (!rep)
		return;
	for (i = 0; sa_report_table[i].what; i++)
		if (rep->result[i] && sa_report_table[i].agg->free_result)
			sa_report_table[i].agg->free_result(rep->result[i]);
	g_ptr_array_free(rep->notes, TRUE);
	sa_trace_origin_clear(&rep->origin);
	g_free(rep->file);
	g_free(rep);
}
