// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer pages of a trace.dat, checked before kbuffer reads them
 * (trace/check.h, trace/ringbuf-page.h): in place for uncompressed data, and
 * uncompressed chunk by chunk for version 7 files whose CPU data is in
 * zstd or zlib chunks (trace-cmd.dat.v7(5), "COMPRESSION FORMAT OF THE
 * TRACE DATA"), the chunks being what libtracecmd reads its pages from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input-file.h"
#include "trace/check.h"
#include "trace/raw.h"
#include "trace/ringbuf-page.h"

#define RELEASE_STEP	(4u << 20)	/* give pages back every 4 MB */
/*
 * A chunk's uncompressed size: trace-cmd writes 10 pages; the largest
 * sub-buffers the kernel allows are far below this.
 */
#define MAX_CHUNK	(64u << 20)

struct walk {
	const char *path;
	const guint8 *map;
	size_t len;
	const struct sa_tracedat_layout *lay;
	struct sa_page_fmt fmt;
	guint32 ps;
	guint64 released;
	long sys_page;
	GError **err;
};

void sa_page_damage_error(GError **err, const char *path,
			  const struct sa_page_damage *d)
{
	g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
		    "%s: corrupt trace.dat: the ring-buffer page of CPU %d at "
		    "offset %" G_GUINT64_FORMAT " is damaged: %s (byte %zu of "
		    "the page)", path, d->cpu, d->off, d->why, d->at);
}

static int damaged(struct walk *w, guint64 off, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static int damaged(struct walk *w, guint64 off, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(w->err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
		    "%s: corrupt or truncated trace.dat at offset %"
		    G_GUINT64_FORMAT ": %s (the file is %zu bytes)", w->path,
		    off, what, w->len);
	g_free(what);
	return -1;
}

/* Let go of the mapping's pages up to upto, every few MB. */
static void release(struct walk *w, guint64 upto)
{
	guint64 a, b;

	if (upto - w->released < RELEASE_STEP)
		return;
	a = (w->released + w->sys_page - 1) & ~(guint64)(w->sys_page - 1);
	b = upto & ~(guint64)(w->sys_page - 1);
	if (b > a)
		madvise((void *)(w->map + a), b - a, MADV_DONTNEED);
	w->released = upto;
}

/*
 * The pages of size bytes at data, the first of which is at offset off
 * of the file (compressed: where its chunk is, and at the byte of the
 * CPU's uncompressed data); with !all only the first.
 */
static int pages(struct walk *w, const struct sa_cpu_range *r,
		 const guint8 *data, guint64 size, guint64 off, guint64 zat,
		 bool all)
{
	const char *why;
	guint64 p;
	size_t bad;

	for (p = 0; p < size; p += w->ps) {
		size_t avail = MIN(w->ps, size - p);

		if (!sa_ringbuf_page_check(data + p, avail, &w->fmt, &bad,
					   &why))
			goto next;
		if (!r->compressed) {
			struct sa_page_damage d = { r->cpu, off + p, bad, why };

			sa_page_damage_error(w->err, w->path, &d);
			return -1;
		}
		g_set_error(w->err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: corrupt trace.dat: the ring-buffer page of "
			    "CPU %u at byte %" G_GUINT64_FORMAT " of its "
			    "uncompressed data (the chunk at offset %"
			    G_GUINT64_FORMAT ") is damaged: %s (byte %zu of "
			    "the page)", w->path, r->cpu, zat + p, off, why,
			    bad);
		return -1;
next:
		if (!all)
			break;
		if (!r->compressed)
			release(w, off + p);
	}
	return 0;
}

static guint32 rd4(const struct walk *w, guint64 off)
{
	guint32 v;

	memcpy(&v, w->map + off, 4);
	return w->lay->big_endian ? GUINT32_FROM_BE(v) : GUINT32_FROM_LE(v);
}

/*
 * A CPU's data in chunks: u32 count, then per chunk u32 compressed size,
 * u32 uncompressed size and the data (the CPU's size in its BUFFER
 * option leaves out the count). Every chunk but the last holds
 * whole pages (libtracecmd finds a page by its chunk and its index in
 * it), and uncompresses to exactly the size it claims (libtracecmd would
 * read what it did not fill).
 */
static int chunks(struct walk *w, const struct sa_cpu_range *r, bool all)
{
	guint64 p = r->off, end = r->off + 4 + r->size, zat = 0;
	guint32 count, i, zsize, size;
	guint8 *buf = NULL;
	int ret = -1;

	count = rd4(w, p);
	p += 4;
	if (count > r->size / 8)
		return damaged(w, p - 4, "CPU %u claims %u compressed chunks "
			       "in %" G_GUINT64_FORMAT " bytes", r->cpu,
			       count, r->size);
	for (i = 0; i < count; i++) {
		guint64 at = p;

		if (end - p < 8)
			goto cut;
		zsize = rd4(w, p);
		size = rd4(w, p + 4);
		p += 8;
		if (zsize > end - p)
			goto cut;
		if (!size || size > MAX_CHUNK ||
		    (i + 1 < count && size % w->ps)) {
			damaged(w, at + 4, "a compressed chunk of CPU %u "
				"claims %u bytes (pages of %u)", r->cpu, size,
				w->ps);
			goto out;
		}
		buf = g_realloc(buf, size);
		if (sa_tracedat_uncompress(w->lay->zname, w->map + p, zsize,
					   buf, size)) {
			damaged(w, at, "a compressed chunk of CPU %u does not "
				"uncompress (%s) to the %u bytes it claims",
				r->cpu, w->lay->zname, size);
			goto out;
		}
		if (pages(w, r, buf, size, at, zat, all))
			goto out;
		zat += size;
		p += zsize;
		release(w, p);
		if (!all)
			break;
	}
	ret = 0;
	goto out;
cut:
	damaged(w, p, "the compressed data of CPU %u runs past its end",
		r->cpu);
out:
	g_free(buf);
	return ret;
}

int sa_tracedat_check_pages(const char *path,
			    const struct sa_tracedat_layout *lay,
			    const struct sa_tracedat_view *view, bool all,
			    GError **err)
{
	struct walk w = { .path = path, .lay = lay, .err = err };
	struct stat st;
	guint i;
	int fd, ret = 0;

	if (!lay->nr_ranges)
		return 0;
	if (view->old_format) {
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: the trace has no header_page: an old ring "
			    "buffer format (Linux before 2.6.31) is not "
			    "supported", path);
		return -1;
	}
	w.ps = view->page_size;
	w.fmt.long_size = view->long_size == 8 ? 8 : 4;
	w.fmt.big_endian = view->big_endian;
	w.sys_page = sysconf(_SC_PAGESIZE);
	fd = sa_input_open(path, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, g_strerror(e));
		return -1;
	}
	w.len = st.st_size;
	w.map = w.len ? mmap(NULL, w.len, PROT_READ, MAP_PRIVATE, fd, 0) :
		MAP_FAILED;
	close(fd);
	if (w.map == MAP_FAILED) {
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_OPEN,
			    "%s: cannot map it: %s", path, g_strerror(errno));
		return -1;
	}
	for (i = 0; i < lay->nr_ranges && !ret; i++) {
		const struct sa_cpu_range *r = &lay->ranges[i];

		if (r->off > w.len || r->size > w.len - r->off ||
		    (r->compressed && w.len - r->off - r->size < 4))
			ret = damaged(&w, r->off, "the data of CPU %u runs "
				      "past the end of the file", r->cpu);
		else if (!r->size)
			continue;
		else if (r->compressed)
			ret = chunks(&w, r, all);
		else
			ret = pages(&w, r, w.map + r->off, r->size, r->off, 0,
				    all);
		w.released = 0;
	}
	munmap((void *)w.map, w.len);
	return ret;
}
