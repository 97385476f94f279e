/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's histogram files (tracefs events/SYSTEM/EVENT/hist, one
 * section per hist trigger, "# event histogram" first): a saved copy
 * parsed into its sections (trigger, keys, values, totals) and rows (the
 * key, here a call site, and its values). Only histograms keyed by one
 * field are read: "{ call_site: [ffffffff8123abcd] func+0x1c/0x50 }
 * hitcount: 3  bytes_alloc: 192" (the .sym or .sym-offset modifier) or
 * "{ call_site: 18446744071579...}" (none), as `slabacct boot cmdline
 * --hist` sets them. The file is hostile input: lines, rows, sections and
 * names are bounded, numbers checked for overflow, and a section whose
 * rows are not its Totals' Entries (a copy cut short) is refused.
 */
#ifndef SLABACCT_PROCFS_HIST_H
#define SLABACCT_PROCFS_HIST_H

#include <stdbool.h>
#include <glib.h>

#define SA_HIST_MAX_LINE	4096
#define SA_HIST_MAX_ROWS	(1 << 20)	/* the kernel's maps: 2^17 */
#define SA_HIST_MAX_SECTIONS	64
#define SA_HIST_MAX_NAME	1024

struct sa_hist_section {
	char *trigger;		/* "hist:keys=...:size=2048 [active]" */
	char *key;		/* the key field, modifier off: "call_site" */
	bool has_req, has_alloc; /* vals include bytes_req, bytes_alloc */
	bool totals;		/* its Totals were read */
	guint64 hits, entries, dropped;
	guint64 rows;		/* rows read */
};

struct sa_hist_row {
	guint32 section;
	guint64 key;		/* the call site's address */
	char *sym;		/* "func+0x1c [mod]" (the size cut), or NULL */
	guint64 hitcount, bytes_req, bytes_alloc;
};

struct sa_hist {
	GArray *sections;	/* struct sa_hist_section */
	GArray *rows;		/* struct sa_hist_row */
};

#define SA_HIST_ERROR	(sa_hist_error_quark())
GQuark sa_hist_error_quark(void);
enum {
	SA_HIST_ERROR_FORMAT,	/* not a hist file */
	SA_HIST_ERROR_SYNTAX,	/* a malformed line */
	SA_HIST_ERROR_BOUND,	/* past a bound */
	SA_HIST_ERROR_CUT,	/* a section without its Totals, or whose
				 * rows are not its Entries */
};

/* Whether the first len bytes at head start a hist file. */
bool sa_hist_sniff(const char *head, size_t len);

/*
 * Parse len bytes of text, or the file at path. Returns the histogram, or
 * NULL with *error set (SA_HIST_ERROR, "line L, column C: ..."; the
 * file's errors prefixed with its path).
 */
struct sa_hist *sa_hist_parse(const char *text, size_t len, GError **error);
struct sa_hist *sa_hist_load(const char *path, GError **error);
void sa_hist_free(struct sa_hist *h);

#endif /* SLABACCT_PROCFS_HIST_H */
