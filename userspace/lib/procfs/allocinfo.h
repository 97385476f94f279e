/* SPDX-License-Identifier: GPL-2.0 */
/*
 * allocinfo: parse the text of /proc/allocinfo, the kernel's own memory
 * allocation profiling (6.10+, CONFIG_MEM_ALLOC_PROFILING), into plain
 * structs. Format (Documentation/filesystems/proc.rst, lib/alloc_tag.c):
 *
 *	allocinfo - version: 1.0
 *	#     <size>  <calls> <tag info>
 *	       89600      700 /src/sa_test.c:62 [sa_test] func:sa_test_kmalloc_loop
 *	        4096        1 mm/slub.c:2133 func:alloc_slab_obj_exts
 *
 * One row per allocation site (a code tag): the bytes and the number of
 * allocations it has live now (allocated and not yet freed, since boot
 * or since its module was loaded), then FILE:LINE, [MODULE] for a
 * module's site, and func:FUNCTION. Version 2.0 (6.18) may add
 * KEY:VALUE pairs after the function, "accurate:no" when the counters
 * missed allocations (a slab's extension vector could not be allocated).
 * Readers ignore pairs they do not know; a major version above 2 is
 * refused.
 *
 *	GError *err = NULL;
 *	struct sa_allocinfo *ai = sa_allocinfo_load("/proc/allocinfo", &err);
 *	if (!ai) { ... err->message names the line and column ... }
 *	for (size_t i = 0; i < ai->n_rows; i++)
 *		use(ai->rows[i].function, ai->rows[i].bytes);
 *	sa_allocinfo_free(ai);
 *
 * The same FILE:LINE and function can appear on several rows: an inline
 * function that allocates gets a tag in every file that uses it. The
 * parser keeps the rows as they are.
 */
#ifndef SLABACCT_ALLOCINFO_H
#define SLABACCT_ALLOCINFO_H

#include <stddef.h>

#include <glib.h>

/*
 * What the format bounds: a line holds two numbers, a file name (the
 * path the compiler was given, at most PATH_MAX 4096 for a module built
 * out of tree), a module name (56), a function (KSYM_NAME_LEN 512) and a
 * few KEY:VALUE pairs. The rows: the tags of the kernel and its modules
 * (about 20,000 in a 6.12 defconfig; the kernel sets room for 100,000
 * per module area).
 */
#define SA_ALLOCINFO_MAX_LINE		8192
#define SA_ALLOCINFO_MAX_ROWS		(1 << 22)
/* The newest major format version read (2.0: KEY:VALUE pairs). */
#define SA_ALLOCINFO_MAX_MAJOR		2

/* One allocation site (code tag). */
struct sa_allocinfo_row {
	/*
	 * Live bytes and allocations: per-CPU counters summed while they
	 * move, so a read can catch one below zero (the kernel prints the
	 * calls unsigned; a value past 2^63 is taken as that negative).
	 */
	gint64 bytes;
	gint64 calls;
	char *file;		/* as the kernel prints it */
	guint line;
	char *module;		/* NULL for the kernel's own sites */
	char *function;
	gboolean inaccurate;	/* "accurate:no" (format 2.0+) */
};

/* The whole file, rows in the file's order. */
struct sa_allocinfo {
	guint major, minor;	/* format version */
	struct sa_allocinfo_row *rows;
	size_t n_rows;
	size_t n_live;		/* rows with live allocations (calls > 0) */
	size_t n_inaccurate;	/* rows marked accurate:no */
	gint64 bytes, calls;	/* sums over the rows (saturating) */
};

/*
 * What a report or diff says about an allocinfo input instead of a
 * trace's origin.
 */
struct sa_allocinfo_head {
	guint major, minor;
	guint64 tags;		/* rows of the file */
	guint64 live_tags;	/* rows with live allocations */
	guint64 inaccurate;	/* rows marked accurate:no */
};
void sa_allocinfo_head_of(const struct sa_allocinfo *ai,
			  struct sa_allocinfo_head *h);

#define SA_ALLOCINFO_ERROR	(sa_allocinfo_error_quark())
enum sa_allocinfo_error {
	SA_ALLOCINFO_ERROR_VERSION,	/* not an allocinfo file, or an
					 * unsupported format version */
	SA_ALLOCINFO_ERROR_SYNTAX,	/* a malformed line */
	SA_ALLOCINFO_ERROR_BOUND,	/* a line or the rows past the bounds */
};
GQuark sa_allocinfo_error_quark(void);

/*
 * Parse len bytes of text. Returns a new sa_allocinfo, or NULL with
 * *error set (SA_ALLOCINFO_ERROR; the message starts "line L, column C: ").
 */
struct sa_allocinfo *sa_allocinfo_parse(const char *text, size_t len,
					GError **error);
/*
 * Read and parse a file, line by line (a regular file, /proc's included),
 * so that what is kept stays within the format's bounds. I/O errors and a
 * path that is not a file come as G_FILE_ERROR; every error is prefixed
 * with the path.
 */
struct sa_allocinfo *sa_allocinfo_load(const char *path, GError **error);
void sa_allocinfo_free(struct sa_allocinfo *ai);

/* Whether text (the start of a file) is an allocinfo file's first line. */
gboolean sa_allocinfo_sniff(const char *text, size_t len);

#endif /* SLABACCT_ALLOCINFO_H */
