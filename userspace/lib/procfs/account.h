/* SPDX-License-Identifier: GPL-2.0 */
/*
 * account: parse the text of /proc/slab_account (slab_account.ko) into
 * plain structs. The format is the tables of uapi/slab_account.h,
 * documented in docs/module.md ("/proc/slab_account format"); this
 * parser accepts format versions SA_ACCOUNT_FORMAT_OLDEST to
 * SA_ACCOUNT_FORMAT_VERSION.
 *
 *	GError *err = NULL;
 *	struct sa_account *a = sa_account_load("/proc/slab_account", &err);
 *	if (!a) { ... err->message names the line and column ... }
 *	for (size_t i = 0; i < a->n_rows; i++)
 *		use(a->rows[i].caller, a->rows[i].live);
 *	sa_account_free(a);
 *
 * Header keys the parser does not know are ignored (the module may add
 * keys without a version bump); a missing known key is an error, except
 * for keys added since (the groups of uapi/slab_account.h's table), whose
 * absence is recorded. A file with some keys of such a group and not the
 * others is refused.
 */
#ifndef SLABACCT_ACCOUNT_H
#define SLABACCT_ACCOUNT_H

#include <stddef.h>

#include <glib.h>

#include "uapi/slab_account.h"

#define SA_ACCOUNT_FORMAT_VERSION	SLAB_ACCOUNT_FORMAT_VERSION
/* the oldest format read: 2 has no wrapper rows, else the same */
#define SA_ACCOUNT_FORMAT_OLDEST	2
/* The most page orders a pages_alloc/pages_free line may carry. */
#define SA_ACCOUNT_MAX_ORDERS		16
/*
 * What the format bounds: a line (a caller is a symbol of at most
 * KSYM_NAME_LEN 512 bytes, its offsets and a module name of at most 56),
 * and the rows, by the table's sites (the module allows 4194304; a
 * report's account format counts the trace's sites, so more are let in).
 */
#define SA_ACCOUNT_MAX_LINE		1024
#define SA_ACCOUNT_MAX_SITES		(1 << 24)

/* The kind: uapi/slab_account.h's one enum, by this layer's names */
#define sa_account_kind		slab_account_kind
#define SA_ACCOUNT_KMALLOC	SLAB_ACCOUNT_KMALLOC
#define SA_ACCOUNT_CACHE	SLAB_ACCOUNT_CACHE
#define SA_ACCOUNT_NR_KINDS	SLAB_ACCOUNT_NR_KINDS

/* One call site: a row of the table. */
struct sa_account_row {
	guint64 total;		/* bytes allocated (slot sizes) */
	guint64 slack;		/* total - req */
	guint64 req;		/* bytes requested */
	gint64 live;		/* bytes allocated and not yet freed */
	gint64 objs;		/* objects allocated and not yet freed */
	guint64 allocs;
	guint64 frees;
	enum sa_account_kind kind;
	char *caller;		/* "symbol+0x1a/0x40 [module]", or a
				 * hashed pointer if it has no symbol;
				 * through a wrapper (format 3),
				 * "WRAPPER_SITE <- CALLER" */
	char *via;		/* that WRAPPER_SITE, or NULL */
};

/* Totals of one kind (kmalloc or kmem_cache). */
struct sa_account_kind_totals {
	guint64 allocs;
	guint64 bytes_alloc;
	guint64 bytes_req;
	guint64 slack;
};

/*
 * The whole file: header totals, then the rows in the file's order. A
 * field for each key of uapi/slab_account.h's tables, of its name
 * (cache_slot_size: cache_slot_exact), and a flag for each group of keys
 * a file may not have.
 */
struct sa_account {
	int version;
	char *sort;		/* the row order: total, slack, req, ... */
	guint64 top;		/* rows shown, 0 for all */
	guint64 sites;		/* call-site table size */
	guint64 objects;	/* live-object map size */
	gboolean cache_slot_exact; /* kmem_cache slot sizes are exact */
	guint64 bytes_alloc;
	guint64 bytes_req;
	guint64 slack;
	gint64 live_bytes;
	gint64 live_req;
	gint64 live_objects;
	guint64 allocs;
	guint64 frees;		/* frees of tracked objects */
	guint64 callers;	/* rows in the table (before top) */
	guint64 dropped;	/* allocs with no row: table full */
	guint64 untracked_frees; /* frees of objects not tracked */
	guint64 map_full;	/* allocs not tracked: live map full */
	guint64 lost_frees;	/* tracked objects freed with no event */
	guint64 kmalloc_repeats; /* large kmallocs traced twice (6.10+),
				  * counted once */
	gboolean kmalloc_repeats_known;	/* the file has the key */
	guint64 unattributed;	/* wrappers' allocs left at their rows */
	gboolean unattributed_known;	/* the file has the key */
	/*
	 * The probes' slower path: allocations whose row, objects whose map
	 * slot and frees whose object were not found in the home slot
	 */
	guint64 slow_sites, slow_objects, slow_frees;
	gboolean slow_known;	/* the file has the three keys */
	/*
	 * From `report --format account` of a truncated trace: why and
	 * when it stopped early (trace/origin.h); a module has neither
	 */
	char *trace_truncated;
	gboolean trace_truncated_known;
	guint64 trace_truncated_ns;
	gboolean trace_truncated_at_known;
	struct sa_account_kind_totals kind[SA_ACCOUNT_NR_KINDS];
	guint64 pages_alloc[SA_ACCOUNT_MAX_ORDERS];
	guint64 pages_free[SA_ACCOUNT_MAX_ORDERS];
	unsigned int n_orders;	/* entries of pages_alloc/pages_free */
	struct sa_account_row *rows;
	size_t n_rows;
};

/*
 * What a report or diff says about a /proc/slab_account input instead of
 * a trace's origin: its format version, table sizes and the counters of
 * what the module could not account. A field for each number key of
 * uapi/slab_account.h's SLAB_ACCOUNT_KEYS, of its name, and the flags of
 * the groups of keys a file may not have.
 */
#define SA_ACCOUNT_HEAD_U64(name)	guint64 name;
#define SA_ACCOUNT_HEAD_S64(name)	gint64 name;
#define SA_ACCOUNT_HEAD_WORD(name)
#define SA_ACCOUNT_HEAD_SLOT(name)	gboolean cache_slot_exact;
#define SA_ACCOUNT_HEAD_FIELD(name, type, since, group) \
	SA_ACCOUNT_HEAD_##type(name)
struct sa_account_head {
	int version;
	SLAB_ACCOUNT_KEYS(SA_ACCOUNT_HEAD_FIELD)
	gboolean kmalloc_repeats_known;
	gboolean unattributed_known;
	gboolean slow_known;
};
void sa_account_head_of(const struct sa_account *a,
			struct sa_account_head *h);

#define SA_ACCOUNT_ERROR	(sa_account_error_quark())
enum sa_account_error {
	SA_ACCOUNT_ERROR_VERSION,	/* not a slab_account file, or an
					 * unsupported format version */
	SA_ACCOUNT_ERROR_SYNTAX,	/* a malformed line */
	SA_ACCOUNT_ERROR_MISSING,	/* a header key is missing */
};
GQuark sa_account_error_quark(void);

/*
 * Parse len bytes of text. Returns a new sa_account, or NULL with *error
 * set (SA_ACCOUNT_ERROR; the message starts "line L, column C: ").
 */
struct sa_account *sa_account_parse(const char *text, size_t len,
				    GError **error);
/*
 * Read and parse a file: a regular file (/proc's included), read line by
 * line, so that what is kept stays within the format's bounds. I/O
 * errors and a path that is not a file come as G_FILE_ERROR.
 */
struct sa_account *sa_account_load(const char *path, GError **error);
void sa_account_free(struct sa_account *a);

/* "kmalloc" or "cache", as in the file. */
const char *sa_account_kind_name(enum sa_account_kind kind);

#endif /* SLABACCT_ACCOUNT_H */
