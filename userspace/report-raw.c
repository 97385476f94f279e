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
};

static long sys_page;

/* Drop the pages of [c->released, upto) from our memory. */
static void release(struct cursor *c, guint64 upto, bool all)
{
	uintptr_t from = (uintptr_t)(c->base + c->released);
	uintptr_t to = (uintptr_t)(c->base + upto);

	if (!all && upto - c->released < RELEASE_STEP)
		return;
	from = (from + sys_page - 1) & ~(uintptr_t)(sys_page - 1);
	to &= ~(uintptr_t)(sys_page - 1);
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

int sa_raw_iterate(const guint8 *map, size_t len,
		   const struct sa_tracedat_layout *lay, const cpu_set_t *cpus,
		   sa_raw_fn fn, void *data, guint64 *bad_pages)
{
	struct cursor *cur = g_new0(struct cursor, lay->nr_cpus ?
				    lay->nr_cpus : 1);
	enum kbuffer_long_size ls = lay->long_size == 8 ? KBUFFER_LSIZE_8 :
				    KBUFFER_LSIZE_4;
	enum kbuffer_endian en = lay->big_endian ? KBUFFER_ENDIAN_BIG :
				 KBUFFER_ENDIAN_LITTLE;
	struct tep_record rec;
	int i, n = 0, ret = 0;

	sys_page = sysconf(_SC_PAGESIZE);
	for (i = 0; i < lay->nr_cpus && i < CPU_SETSIZE; i++) {
		struct cursor *c;

		if (!CPU_ISSET(i, cpus) || lay->cpu_offset[i] > len ||
		    lay->cpu_size[i] > len - lay->cpu_offset[i])
			continue;
		c = &cur[n];
		c->cpu = i;
		c->base = map + lay->cpu_offset[i];
		c->size = lay->cpu_size[i];
		c->kb = kbuffer_alloc(ls, en);
		if (!c->kb)
			continue;
		n++;
		if (!next_page(c, lay, bad_pages))
			c->page = NULL;
	}
	/* the callback sees only the fields set below */
	memset(&rec, 0, sizeof(rec));
	for (;;) {
		struct cursor *best = NULL;
		int size;

		for (i = 0; i < n; i++)
			if (cur[i].page && (!best || cur[i].ts < best->ts))
				best = &cur[i];
		if (!best)
			break;
		if (!event_ok(best, lay, &size)) {
			(*bad_pages)++;
			next_page(best, lay, bad_pages);
			continue;
		}
		rec.ts = best->ts;
		rec.cpu = best->cpu;
		rec.data = best->ev;
		rec.size = size;
		rec.missed_events = best->missed;
		ret = fn(&rec, data);
		if (ret)
			break;
		advance(best, lay, bad_pages);
	}
	for (i = 0; i < n; i++)
		kbuffer_free(cur[i].kb);
	g_free(cur);
	return ret;
}
