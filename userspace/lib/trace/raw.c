// SPDX-License-Identifier: GPL-2.0
/*
 * Walking the per-CPU pages of a version 6 trace.dat with kbuffer. Each
 * page is checked with kbuffer's rules (trace/ringbuf-page.h) before kbuffer
 * reads it, and each event to lie inside its page: a damaged page stops
 * the walk and names itself.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kbuffer.h>

#include "trace/raw.h"
#include "trace/ringbuf-page.h"

#define OPT_OFFSET	7
#define OPT_TIME_SHIFT	12
#define OPT_TSC2NSEC	14
#define RELEASE_STEP	(4u << 20)	/* give pages back every 4 MB */

bool sa_raw_usable(const struct sa_tracedat_layout *lay)
{
	return lay->version == 6 && !lay->latency && lay->cpu_offset &&
	       (lay->long_size == 4 || lay->long_size == 8) &&
	       lay->page_size >= 64 && lay->page_size <= (1u << 24) &&
	       !(lay->options & ((1ULL << OPT_OFFSET) |
				 (1ULL << OPT_TIME_SHIFT) |
				 (1ULL << OPT_TSC2NSEC)));
}

struct cursor {
	int cpu;
	guint64 off;			/* of base in the file */
	struct sa_page_fmt fmt;
	struct sa_page_damage *dmg;	/* set when a page is damaged */
	const guint8 *base;		/* this CPU's data */
	guint64 size, pos;		/* pos: the next page to load */
	guint64 released;		/* bytes given back to the kernel */
	const guint8 *page;		/* loaded, or NULL when done */
	struct kbuffer *kb;
	void *ev;
	unsigned long long ts;
	int missed;
	long sys_page;			/* the host's, for madvise */
};

/* Drop the pages of [c->released, upto) from our memory. */
static void release(struct cursor *c, guint64 upto, bool all)
{
	uintptr_t from = (uintptr_t)(c->base + c->released);
	uintptr_t to = (uintptr_t)(c->base + upto);

	if (!all && upto - c->released < RELEASE_STEP)
		return;
	from = (from + c->sys_page - 1) & ~(uintptr_t)(c->sys_page - 1);
	to &= ~(uintptr_t)(c->sys_page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	c->released = upto;
}

/* The page at p is damaged at byte at: stop there. */
static bool page_damaged(struct cursor *c, const guint8 *p, size_t at,
			 const char *why)
{
	c->dmg->cpu = c->cpu;
	c->dmg->off = c->off + (p - c->base);
	c->dmg->at = at;
	c->dmg->why = why;
	c->page = NULL;
	return false;
}

/*
 * Load pages until one has an event. Returns false when the CPU is done,
 * or a page is damaged (c->dmg->why set).
 */
static bool next_page(struct cursor *c, const struct sa_tracedat_layout *lay)
{
	guint32 ps = lay->page_size;

	for (;;) {
		const char *why;
		const guint8 *p;
		size_t at;

		if (c->pos + ps > c->size) {
			c->page = NULL;
			release(c, c->size, true);
			return false;
		}
		p = c->base + c->pos;
		c->pos += ps;
		if (sa_ringbuf_page_check(p, ps, &c->fmt, &at, &why))
			return page_damaged(c, p, at, why);
		if (kbuffer_load_subbuffer(c->kb, (void *)p) < 0)
			return page_damaged(c, p, 0, "kbuffer cannot load it");
		c->page = p;
		c->missed = kbuffer_missed_events(c->kb);
		c->ev = kbuffer_read_event(c->kb, &c->ts);
		release(c, c->pos - ps, false);
		if (c->ev)
			return true;
	}
}

/*
 * The current event lies inside its page (its size in *sizep)? Else the
 * page is dropped.
 */
static bool event_ok(struct cursor *c, const struct sa_tracedat_layout *lay,
		     int *sizep)
{
	int size = kbuffer_event_size(c->kb);
	const guint8 *e = c->ev;

	*sizep = size;
	return size >= 0 && e >= c->page &&
	       e + size <= c->page + lay->page_size;
}

static void advance(struct cursor *c, const struct sa_tracedat_layout *lay)
{
	c->missed = 0;
	c->ev = kbuffer_next_event(c->kb, &c->ts);
	if (!c->ev)
		next_page(c, lay);
}

int sa_raw_iterate_range(const guint8 *map, size_t len,
			 const struct sa_tracedat_layout *lay, int cpu,
			 guint64 off, guint64 size, sa_raw_fn fn, void *data,
			 struct sa_page_damage *dmg)
{
	struct cursor c = { 0 };
	struct tep_record rec;
	int ret = 0, esize;

	if (off > len || size > len - off)
		return -1;
	dmg->why = NULL;
	c.dmg = dmg;
	c.fmt.long_size = lay->long_size;
	c.fmt.big_endian = lay->big_endian;
	c.cpu = cpu;
	c.off = off;
	c.base = map + off;
	c.size = size;
	c.sys_page = sysconf(_SC_PAGESIZE);
	c.kb = kbuffer_alloc(lay->long_size == 8 ? KBUFFER_LSIZE_8 :
			     KBUFFER_LSIZE_4,
			     lay->big_endian ? KBUFFER_ENDIAN_BIG :
			     KBUFFER_ENDIAN_LITTLE);
	if (!c.kb)
		return -1;
	memset(&rec, 0, sizeof(rec));
	next_page(&c, lay);
	while (c.page) {
		if (!event_ok(&c, lay, &esize)) {
			page_damaged(&c, c.page, (const guint8 *)c.ev - c.page,
				     "an event lies outside its page");
			break;
		}
		rec.ts = c.ts;
		rec.cpu = cpu;
		rec.data = c.ev;
		rec.size = esize;
		rec.missed_events = c.missed;
		ret = fn(&rec, data);
		if (ret)
			break;
		advance(&c, lay);
	}
	kbuffer_free(c.kb);
	return !ret && dmg->why ? -2 : ret;
}

guint64 sa_raw_page_ts(const guint8 *page, const struct sa_tracedat_layout *lay)
{
	guint64 ts;

	memcpy(&ts, page, sizeof(ts));
	return lay->big_endian ? GUINT64_FROM_BE(ts) : GUINT64_FROM_LE(ts);
}
