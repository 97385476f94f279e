// SPDX-License-Identifier: GPL-2.0
/*
 * Walking the per-CPU pages of a version 6 trace.dat with kbuffer. Each
 * page is checked to hold what its header claims before kbuffer reads it,
 * and each event to lie inside its page.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kbuffer.h>

#include "report-raw.h"

#define OPT_OFFSET	7
#define OPT_TIME_SHIFT	12
#define OPT_TSC2NSEC	14
#define COMMIT_MASK	((1ULL << 27) - 1)
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

/* Load pages until one has an event. Returns false when the CPU is done. */
static bool next_page(struct cursor *c, const struct sa_tracedat_layout *lay,
		      guint64 *bad)
{
	guint32 ps = lay->page_size;
	int hdr = 8 + lay->long_size;

	for (;;) {
		const guint8 *p;
		guint64 commit = 0;

		if (c->pos + ps > c->size) {
			c->page = NULL;
			release(c, c->size, true);
			return false;
		}
		p = c->base + c->pos;
		c->pos += ps;
		memcpy(&commit, p + 8, lay->long_size);
		if (lay->big_endian)
			commit = lay->long_size == 8 ?
				 GUINT64_FROM_BE(commit) :
				 GUINT32_FROM_BE((guint32)commit);
		if ((commit & COMMIT_MASK) > (guint64)(ps - hdr)) {
			(*bad)++;
			continue;
		}
		if (kbuffer_load_subbuffer(c->kb, (void *)p) < 0) {
			(*bad)++;
			continue;
		}
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

static void advance(struct cursor *c, const struct sa_tracedat_layout *lay,
		    guint64 *bad)
{
	c->missed = 0;
	c->ev = kbuffer_next_event(c->kb, &c->ts);
	if (!c->ev)
		next_page(c, lay, bad);
}

int sa_raw_iterate_range(const guint8 *map, size_t len,
			 const struct sa_tracedat_layout *lay, int cpu,
			 guint64 off, guint64 size, sa_raw_fn fn, void *data,
			 guint64 *bad_pages)
{
	struct cursor c = { 0 };
	struct tep_record rec;
	int ret = 0, esize;

	if (off > len || size > len - off)
		return -1;
	c.cpu = cpu;
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
	next_page(&c, lay, bad_pages);
	while (c.page) {
		if (!event_ok(&c, lay, &esize)) {
			(*bad_pages)++;
			next_page(&c, lay, bad_pages);
			continue;
		}
		rec.ts = c.ts;
		rec.cpu = cpu;
		rec.data = c.ev;
		rec.size = esize;
		rec.missed_events = c.missed;
		ret = fn(&rec, data);
		if (ret)
			break;
		advance(&c, lay, bad_pages);
	}
	kbuffer_free(c.kb);
	return ret;
}

guint64 sa_raw_page_ts(const guint8 *page, const struct sa_tracedat_layout *lay)
{
	guint64 ts;

	memcpy(&ts, page, sizeof(ts));
	return lay->big_endian ? GUINT64_FROM_BE(ts) : GUINT64_FROM_LE(ts);
}
