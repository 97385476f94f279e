// SPDX-License-Identifier: GPL-2.0
/* Checking a ring-buffer page with kbuffer's rules (trace/ringbuf-page.h). */
#include <string.h>

#include "trace/ringbuf-page.h"

#define COMMIT_MASK	((1u << 27) - 1)
#define MISSING_EVENTS	(1u << 31)
#define MISSING_STORED	(1u << 30)
#define TYPE_PADDING	29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP	31

static guint32 rd4(const guint8 *p, bool big)
{
	guint32 v;

	memcpy(&v, p, 4);
	return big ? GUINT32_FROM_BE(v) : GUINT32_FROM_LE(v);
}

static guint64 rd_long(const guint8 *p, const struct sa_page_fmt *f)
{
	guint64 v;

	if (f->long_size != 8)
		return rd4(p, f->big_endian);
	memcpy(&v, p, 8);
	return f->big_endian ? GUINT64_FROM_BE(v) : GUINT64_FROM_LE(v);
}

static int bad_at(size_t *bad, const char **why, size_t off, const char *w)
{
	*bad = off;
	*why = w;
	return -1;
}

int sa_ringbuf_page_check(const guint8 *p, size_t avail,
			  const struct sa_page_fmt *f, size_t *bad,
			  const char **why)
{
	size_t hdr = 8 + (f->long_size == 8 ? 8 : 4), room, next = 0;
	const guint8 *data = p + hdr;
	guint64 flags;
	guint32 commit;

	if (avail < hdr)
		return bad_at(bad, why, 0, "the page header is cut");
	room = avail - hdr;
	flags = rd_long(p + 8, f);
	commit = (guint32)flags & COMMIT_MASK;
	if (commit > room)
		return bad_at(bad, why, 8, "the page claims more data than "
			      "it holds");
	/* kbuffer reads the count of lost events right after the data */
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) &&
	    commit + (size_t)(f->long_size == 8 ? 8 : 4) > room)
		return bad_at(bad, why, 8, "the count of lost events lies "
			      "past the page");
	while (next < commit) {
		size_t cur = next, at = cur + 4;
		guint32 tl, type;
		gint64 len;

		if (cur + 4 > commit)
			return bad_at(bad, why, hdr + cur, "an event header "
				      "runs past the page's data");
		tl = rd4(data + cur, f->big_endian);
		type = f->big_endian ? (tl >> 27) & 0x1f : tl & 0x1f;
		switch (type) {
		case TYPE_PADDING:
			if (at + 4 > commit)
				return bad_at(bad, why, hdr + cur, "a padding "
					      "runs past the page's data");
			len = (gint32)rd4(data + at, f->big_endian);
			if (len < 0)
				return bad_at(bad, why, hdr + at, "a padding "
					      "of negative length");
			/* it may end the page: next past the commit stops */
			next = at + len;
			continue;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			if (at + 4 > commit)
				return bad_at(bad, why, hdr + cur, "a time "
					      "stamp runs past the page's "
					      "data");
			next = at + 4;
			continue;
		case 0:
			if (at + 4 > commit)
				return bad_at(bad, why, hdr + cur, "an event "
					      "length runs past the page's "
					      "data");
			/* as kbuffer: an int, the length word included */
			len = (gint32)(rd4(data + at, f->big_endian) - 4);
			len = (len + 3) & ~(gint64)3;
			at += 4;
			break;
		default:
			len = type * 4;
			break;
		}
		if (len < 0 || at + len > commit)
			return bad_at(bad, why, hdr + cur, "an event runs "
				      "past the page's data");
		next = at + len;
	}
	return 0;
}
