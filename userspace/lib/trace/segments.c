// SPDX-License-Identifier: GPL-2.0
/*
 * The segment readers of trace/segments.h.
 *
 * A segment is SEG_BYTES of one CPU's pages. The segments are read in the
 * order of their first page's timestamp, which is the order the merge
 * needs them in, but no CPU is read more than SEG_AHEAD segments ahead of
 * the merge, so that memory stays bounded by the segments in flight. A
 * trace whose events sit mostly on one CPU (one busy task) is then read
 * by every reader at once, where one reader per CPU would leave the others
 * waiting on the merge.
 *
 * One lock guards the plan (which segment is read, which is merged) and
 * the chunk lists; it is taken once per chunk and per segment, not per
 * record.
 */
#include <unistd.h>

#include "trace/raw.h"
#include "trace/segments.h"
#include "util/sigstack.h"

#define SEG_BYTES	(256u << 10)
#define SEG_AHEAD	4

/* A kernel stack at a segment's head whose event is before it. */
struct orphan {
	struct sa_rec stack;
	guint scanned;			/* records the rule looked at */
};

struct seg {
	guint64 off, size;		/* in the file */
	guint64 start_ts;		/* of its first page */
	GQueue chunks;			/* read, not yet merged */
	gboolean read;			/* every chunk of it is in chunks */
	/* its head is read: orphans holds its stacks for the one before */
	gboolean head_read;
	GArray *orphans;		/* struct orphan, in order */
};

/* One CPU with data: one stream of the merge. */
struct seg_cpu {
	int cpu;
	guint64 base;			/* its data's offset in the file */
	struct seg *seg;
	guint nseg;
	guint next;			/* the first segment not taken yet */
	guint cur;			/* the segment being merged */
};

struct reader {
	struct sa_segments *ss;
	GThread *thread;
	struct sa_decode *dec;
	struct tep_handle *tep;
	struct seg *seg;		/* being read */
	struct seg_cpu *sc;
	struct chunk *c;		/* being filled */
	int mode;			/* enum seg_mode */
};

struct sa_segments {
	GMutex lock;
	GCond cond;			/* a chunk or segment read, one merged */
	const guint8 *map;
	size_t len;
	const struct sa_tracedat_layout *lay;
	struct seg_cpu *sc;
	int nsc;
	GSList *pool;			/* chunks given back */
	gboolean stop;
	gboolean failed;		/* a damaged page: dmg says where */
	struct sa_page_damage dmg;
	struct reader *rd;
	int nrd;
};

/* A chunk from the pool, or a new one. Under the lock. */
static struct chunk *chunk_take(struct sa_segments *ss)
{
	struct chunk *c;

	if (ss->pool) {
		c = ss->pool->data;
		ss->pool = g_slist_delete_link(ss->pool, ss->pool);
	} else {
		c = g_malloc(sizeof(*c));
	}
	chunk_reset(c);
	return c;
}

/*
 * How a reader takes the records of a segment. A kernel_stack entry near
 * the start of a segment may belong to an event of the segment before
 * it: one that finds no event in its own segment where the rule
 * (trace/stack.h) would look further back. The reader counts it but
 * keeps it aside (an orphan, while in SEG_HEAD: the rule looks back at
 * most SA_STACK_SCAN records, fewer than a chunk); the merge attaches it
 * to the segment before's last chunk, as one stream of the CPU would
 * have (sa_segments_next).
 */
enum seg_mode {
	SEG_BODY,
	SEG_HEAD,			/* the first chunk of a segment */
};

/*
 * The head of the reader's segment is read (its first chunk, or all of
 * it): its orphans are known, the merge may finish the segment before.
 * Under the lock.
 */
static void head_read(struct reader *r)
{
	if (r->mode != SEG_HEAD)
		return;
	r->mode = SEG_BODY;
	r->seg->head_read = TRUE;
}

/*
 * Hand the reader's chunk to the merge; with more, start another, which
 * carries the record that found the full one full (chunk_add_record):
 * under the lock, before the merge can take the full one.
 */
static void chunk_hand(struct reader *r, gboolean more)
{
	struct sa_segments *ss = r->ss;
	struct chunk *full = r->c;

	g_mutex_lock(&ss->lock);
	g_queue_push_tail(&r->seg->chunks, full);
	head_read(r);
	r->c = more ? chunk_take(ss) : NULL;
	if (more)
		chunk_carry(r->c, full, true);
	if (!more)
		r->seg->read = TRUE;
	g_cond_broadcast(&ss->cond);
	g_mutex_unlock(&ss->lock);
}

/* The chunk is full: hand it on, and go on in another. */
static void chunk_full(struct reader *r, const struct tep_record *rec)
{
	r->c->done = (const guint8 *)rec->data - r->ss->map - r->sc->base;
	r->c->min_off = r->sc->base;
	chunk_hand(r, TRUE);
}

static int seg_cb(struct tep_record *rec, void *data)
{
	struct reader *r = data;
	struct orphan o;

	switch (chunk_add_record(r->c, r->dec, r->tep, rec,
				 r->mode == SEG_HEAD ? &o.scanned : NULL)) {
	case CHUNK_FULL:
		chunk_full(r, rec);
		break;
	case CHUNK_ORPHAN:
		o.stack = r->c->r[r->c->n];
		g_array_append_val(r->seg->orphans, o);
		break;
	case CHUNK_TAKEN:
		break;
	}
	return 0;
}

/*
 * The unread segment the merge needs first, of a CPU not SEG_AHEAD
 * segments ahead of it; NULL if there is none now. Under the lock.
 */
static struct seg *seg_pick(struct sa_segments *ss, struct seg_cpu **scp)
{
	struct seg *best = NULL;
	int i;

	for (i = 0; i < ss->nsc; i++) {
		struct seg_cpu *sc = &ss->sc[i];

		if (sc->next == sc->nseg || sc->next - sc->cur >= SEG_AHEAD)
			continue;
		if (!best || sc->seg[sc->next].start_ts < best->start_ts) {
			best = &sc->seg[sc->next];
			*scp = sc;
		}
	}
	if (best)
		(*scp)->next++;
	return best;
}

static gboolean all_taken(const struct sa_segments *ss)
{
	int i;

	for (i = 0; i < ss->nsc; i++)
		if (ss->sc[i].next < ss->sc[i].nseg)
			return FALSE;
	return TRUE;
}

static gpointer reader_main(gpointer data)
{
	struct reader *r = data;
	struct sa_segments *ss = r->ss;

	g_mutex_lock(&ss->lock);
	while (!ss->stop && !ss->failed) {
		struct sa_page_damage dmg;
		int ret;

		r->seg = seg_pick(ss, &r->sc);
		if (!r->seg) {
			if (all_taken(ss))
				break;
			g_cond_wait(&ss->cond, &ss->lock);
			continue;
		}
		r->c = chunk_take(ss);
		g_mutex_unlock(&ss->lock);
		r->mode = r->seg == r->sc->seg ? SEG_BODY : SEG_HEAD;
		ret = sa_raw_iterate_range(ss->map, ss->len, ss->lay,
					   r->sc->cpu, r->seg->off,
					   r->seg->size, seg_cb, r, &dmg);
		r->c->done = r->seg->off + r->seg->size - r->sc->base;
		r->c->min_off = r->sc->base;
		chunk_hand(r, FALSE);
		g_mutex_lock(&ss->lock);
		if (ret == -2 && (!ss->failed || dmg.off < ss->dmg.off)) {
			/* the merge and the other readers stop */
			ss->dmg = dmg;
			ss->failed = TRUE;
			g_cond_broadcast(&ss->cond);
		}
	}
	g_mutex_unlock(&ss->lock);
	return NULL;
}

/* The timestamp of the page at off (0 if it cannot be read). */
static guint64 page_ts(const struct sa_segments *ss, int fd, guint64 off)
{
	guint8 hdr[8];

	if (pread(fd, hdr, sizeof(hdr), off) != (ssize_t)sizeof(hdr))
		return 0;
	return sa_raw_page_ts(hdr, ss->lay);
}

/*
 * Cut each CPU's data into segments. Their first pages' timestamps are
 * read from fd: touching the mapping would map the pages around each one
 * into memory long before they are read.
 */
static void plan(struct sa_segments *ss, int fd)
{
	const struct sa_tracedat_layout *lay = ss->lay;
	guint64 step = SEG_BYTES / lay->page_size * lay->page_size;
	int i;

	if (!step)
		step = lay->page_size;
	ss->sc = g_new0(struct seg_cpu, lay->nr_cpus ? lay->nr_cpus : 1);
	for (i = 0; i < lay->nr_cpus; i++) {
		guint64 off = lay->cpu_offset[i], size = lay->cpu_size[i], p;
		struct seg_cpu *sc;
		guint k;

		if (size < lay->page_size || off > ss->len ||
		    size > ss->len - off)
			continue;
		sc = &ss->sc[ss->nsc++];
		sc->cpu = i;
		sc->base = off;
		sc->nseg = (size + step - 1) / step;
		sc->seg = g_new0(struct seg, sc->nseg);
		for (k = 0, p = 0; k < sc->nseg; k++, p += step) {
			struct seg *s = &sc->seg[k];

			s->off = off + p;
			s->size = MIN(step, size - p);
			s->start_ts = page_ts(ss, fd, s->off);
			g_queue_init(&s->chunks);
			s->orphans = g_array_new(FALSE, FALSE,
						 sizeof(struct orphan));
			/* the first has nothing before it */
			s->head_read = k == 0;
		}
	}
}

struct sa_segments *sa_segments_start(const guint8 *map, size_t len, int fd,
				      const struct sa_tracedat_layout *lay,
				      struct sa_decode **dec,
				      struct tep_handle **tep, int nthreads)
{
	struct sa_segments *ss = g_new0(struct sa_segments, 1);
	int i;

	g_mutex_init(&ss->lock);
	g_cond_init(&ss->cond);
	ss->map = map;
	ss->len = len;
	ss->lay = lay;
	plan(ss, fd);
	ss->nrd = nthreads;
	ss->rd = g_new0(struct reader, nthreads);
	for (i = 0; i < nthreads; i++) {
		ss->rd[i].ss = ss;
		ss->rd[i].dec = dec[i];
		ss->rd[i].tep = tep[i];
		ss->rd[i].thread = sa_thread_new("sa-reader", reader_main,
						&ss->rd[i]);
	}
	return ss;
}

int sa_segments_streams(const struct sa_segments *ss)
{
	return ss->nsc;
}

/*
 * c is the last chunk of segment s: attach the orphans of the segment
 * after s to its records, once that one's head is read. Under the lock.
 */
static void adopt_orphans(struct sa_segments *ss, struct seg *next,
			  struct chunk *c)
{
	guint i;

	while (!next->head_read && !ss->failed)
		g_cond_wait(&ss->cond, &ss->lock);
	for (i = 0; i < next->orphans->len; i++) {
		struct orphan *o = &g_array_index(next->orphans,
						  struct orphan, i);

		if (sa_stack_attach(c->r, c->n, &o->stack, &o->scanned))
			c->stacks++;
		else
			c->stacks_lost++;
	}
}

struct chunk *sa_segments_next(struct sa_segments *ss, int stream)
{
	struct seg_cpu *sc = &ss->sc[stream];
	struct chunk *c = NULL;

	g_mutex_lock(&ss->lock);
	while (sc->cur < sc->nseg && !ss->failed) {
		struct seg *s = &sc->seg[sc->cur];

		c = g_queue_pop_head(&s->chunks);
		if (c && s->read && g_queue_is_empty(&s->chunks) &&
		    sc->cur + 1 < sc->nseg)
			adopt_orphans(ss, s + 1, c);
		if (c)
			break;
		if (s->read) {
			/* merged: a reader may take this CPU's next one */
			sc->cur++;
			g_cond_broadcast(&ss->cond);
			continue;
		}
		g_cond_wait(&ss->cond, &ss->lock);
	}
	g_mutex_unlock(&ss->lock);
	return c;
}

void sa_segments_put(struct sa_segments *ss, struct chunk *c)
{
	g_mutex_lock(&ss->lock);
	ss->pool = g_slist_prepend(ss->pool, c);
	g_mutex_unlock(&ss->lock);
}

bool sa_segments_finish(struct sa_segments *ss, struct sa_page_damage *dmg)
{
	bool failed;
	guint k;
	int i;

	g_mutex_lock(&ss->lock);
	ss->stop = TRUE;
	g_cond_broadcast(&ss->cond);
	g_mutex_unlock(&ss->lock);
	for (i = 0; i < ss->nrd; i++)
		g_thread_join(ss->rd[i].thread);
	failed = ss->failed;
	if (failed)
		*dmg = ss->dmg;
	for (i = 0; i < ss->nsc; i++) {
		for (k = 0; k < ss->sc[i].nseg; k++) {
			g_queue_clear_full(&ss->sc[i].seg[k].chunks, g_free);
			g_array_free(ss->sc[i].seg[k].orphans, TRUE);
		}
		g_free(ss->sc[i].seg);
	}
	g_slist_free_full(ss->pool, g_free);
	g_free(ss->sc);
	g_free(ss->rd);
	g_mutex_clear(&ss->lock);
	g_cond_clear(&ss->cond);
	g_free(ss);
	return failed;
}
