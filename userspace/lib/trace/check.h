/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A structural check of a trace.dat file before libtracecmd reads it:
 * every size and offset in its headers must lie inside the file, so that
 * a truncated or damaged file is reported with the offset of the damage
 * (libtracecmd 3.1 can crash on such files instead of failing).
 *
 * Version 6 is walked in full (headers, formats, kallsyms, printk,
 * cmdlines, options, the per-CPU data table). Version 7 is walked along
 * its chain of option sections; the sections those options point at are
 * checked to fit in the file, and uncompressed ones are walked.
 */
#ifndef SLABACCT_TRACE_CHECK_H
#define SLABACCT_TRACE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/* The GError domain of reading a trace. */
#define SA_TRACE_ERROR (sa_trace_error_quark())
GQuark sa_trace_error_quark(void);
enum {
	SA_TRACE_ERROR_OPEN,		/* cannot open or read */
	SA_TRACE_ERROR_FORMAT,		/* not a trace / corrupt */
};

/* One CPU's ring-buffer pages in the file. */
struct sa_cpu_range {
	guint64 off, size;
	guint32 cpu;
	bool compressed;		/* v7: in zstd or zlib chunks */
};

/* What the check learnt of the file's layout. */
struct sa_tracedat_layout {
	int version;			/* 6 or 7 */
	bool big_endian;
	int long_size;			/* 4 or 8: the file header's, then
					 * libtracecmd's (sa_tracedat_view) */
	guint32 page_size;
	bool latency;			/* a latency-tracer file, no CPU data */
	guint64 options;		/* bit n: option id n was seen (v6) */
	int nr_cpus;
	guint64 *cpu_offset;		/* v6: each CPU's data, in the file */
	guint64 *cpu_size;
	char zname[16];			/* v7: compression, or "none" */
	struct sa_cpu_range *ranges;	/* every CPU's data (in v7, of every
					 * buffer instance) */
	guint nr_ranges;
};

/* How libtracecmd itself reads the file (sa_tracedat_probe_open). */
struct sa_tracedat_view {
	int long_size;			/* of the pages' commit field */
	guint32 page_size;
	bool big_endian;
	bool old_format;		/* no header_page: Linux < 2.6.31 */
};

void sa_tracedat_layout_clear(struct sa_tracedat_layout *lay);

/*
 * Check the len bytes at data (a whole trace.dat). Returns 0, or -1 with
 * *err set to "NAME: ... at offset N: ...". With lay, the layout is
 * filled in (clear it with sa_tracedat_layout_clear).
 */
int sa_tracedat_check(const char *name, const guint8 *data, size_t len,
		      struct sa_tracedat_layout *lay, GError **err);

/* The same, for the file at path (read through a private mapping). */
int sa_tracedat_check_file(const char *path, struct sa_tracedat_layout *lay,
			   GError **err);

/*
 * Open the file with libtracecmd in a child process first: libtracecmd
 * 3.1 crashes on some damaged files while it gives up on them
 * (tracecmd_close of a half-built handle). Returns 0 if it opens, or -1
 * with *err set. With view, the child first reads the headers alone and
 * tells how libtracecmd will read the pages (view->page_size is 0 if it
 * could not); it is filled in on failure too. With lay (from the
 * structural check), the child then checks the first page of each CPU
 * before libtracecmd reads it, and fails if one is damaged (the caller's
 * own check of the pages says how). Call it before any thread is
 * started.
 */
int sa_tracedat_probe_open(const char *path,
			   const struct sa_tracedat_layout *lay,
			   struct sa_tracedat_view *view, GError **err);

/*
 * Check the ring-buffer pages of the file at path (trace/pages.c) the
 * way kbuffer will read them (trace/ringbuf-page.h), with lay from
 * sa_tracedat_check_file and the long size, page size and byte order of
 * view: compressed pages are uncompressed to be checked. With all, every
 * page; else only the first page of each CPU, the one libtracecmd reads
 * when it opens the file (the report's fast path checks the others as it
 * reads them). Returns 0, or -1 with *err naming the file, the CPU and
 * the offset of the damage.
 */
int sa_tracedat_check_pages(const char *path,
			    const struct sa_tracedat_layout *lay,
			    const struct sa_tracedat_view *view, bool all,
			    GError **err);

/*
 * Everything libtracecmd and kbuffer will read, checked before they do
 * (trace/pages.c): the structure, an open in a child process, and the
 * pages as libtracecmd will read them. lay and view are filled in; *raw
 * says whether the fast path will read the file (it checks each page as
 * it reads it; the first pages are checked here). Returns 0, or -1 with
 * *err set and lay cleared.
 */
int sa_tracedat_check_all(const char *path, struct sa_tracedat_layout *lay,
			  struct sa_tracedat_view *view, bool no_raw,
			  bool *raw, GError **err);

/* A damaged page met while reading (trace/raw.c, trace/reader.c). */
struct sa_page_damage {
	int cpu;
	guint64 off;			/* of the page in the file */
	size_t at;			/* of the damage in the page */
	const char *why;
};

/* Set *err to "PATH: corrupt trace.dat: a ring-buffer page of CPU ..." */
void sa_page_damage_error(GError **err, const char *path,
			  const struct sa_page_damage *d);

/* zstd or zlib: the n bytes at in into exactly size bytes at out. */
int sa_tracedat_uncompress(const char *zname, const guint8 *in, size_t n,
			   guint8 *out, size_t size);

/* Whether the n bytes of a file's head start with trace-cmd's magic. */
bool sa_tracedat_sniff(const char *head, size_t n);

#endif /* SLABACCT_TRACE_CHECK_H */
