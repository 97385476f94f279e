/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabacct top: the model behind the live view. A source gives the
 * cumulative counts of every call site now (from /proc/slab_account,
 * or from a live tracefs instance through the call-site aggregator);
 * sa_top_refresh() takes a sample, turns the difference from the last
 * one into rates per second, and sorts. sa_top_format() lays the view
 * out as lines of text; the terminal handling is in cmd-top.c.
 *
 *	struct sa_top_source *src = sa_top_source_account(path, &err);
 *	struct sa_top *t = sa_top_new(src, SA_TOP_RATE);
 *	sa_top_refresh(t, g_get_monotonic_time(), &err);	(each tick)
 *	sa_top_format(t, out, 80, 20, SA_TOP_PLAIN);
 *	sa_top_free(t);				(closes the source)
 */
#ifndef SLABACCT_TOP_H
#define SLABACCT_TOP_H

#include <stdbool.h>
#include <glib.h>

enum sa_top_sort {
	SA_TOP_RATE,		/* allocations per second */
	SA_TOP_BYTES,		/* bytes allocated per second */
	SA_TOP_SLACK,		/* slack so far */
	SA_TOP_LIVE,		/* live bytes now */
	SA_TOP_NR_SORTS,
};

struct sa_top_row {
	char *site;		/* "func+0xoff [module]" (key with kind) */
	const char *kind;	/* "kmalloc" or "cache" (static) */
	guint64 allocs, frees, bytes_alloc, bytes_req, slack;
	gint64 live, live_bytes;
	double alloc_rate, byte_rate;	/* per second, last interval */
};

struct sa_top_source {
	char *desc;		/* "/proc/slab_account", "tracefs ..." */
	const char *instance;	/* the tracefs instance's path, or NULL */
	/*
	 * Fill rows (struct sa_top_row *, rates 0) with the cumulative
	 * counts now, and *lost with what the source missed so far
	 * (events lost, allocations no row took). 0, or -1 with *err.
	 */
	int (*sample)(struct sa_top_source *s, GPtrArray *rows,
		      guint64 *lost, GError **err);
	void (*close)(struct sa_top_source *s);	/* frees s */
	void *priv;
};

/* For sources: append a copy of *r (its site copied too) to rows. */
void sa_top_row_add(GPtrArray *rows, const struct sa_top_row *r);

/* /proc/slab_account (or a file in its format). */
struct sa_top_source *sa_top_source_account(const char *path, GError **err);

struct sa_top_trace_opts {
	int buffer_kb;		/* per CPU; 0: the kernel's default */
	int pid;		/* only this task's events; 0: all */
	const char *comm;	/* only tasks of this name; NULL: all */
};

/*
 * A private tracefs instance with the kmem events (needs root). A filter
 * the kernel refuses is G_FILE_ERROR_INVAL.
 */
struct sa_top_source *sa_top_source_trace(const struct sa_top_trace_opts *o,
					  GError **err);

struct sa_top {
	struct sa_top_source *src;
	enum sa_top_sort sort;
	GPtrArray *rows;		/* struct sa_top_row *, sorted */
	GHashTable *prev;		/* "kind site" -> guint64[2] */
	gint64 prev_us;			/* time of the last sample, 0: none */
	double interval_s;		/* between the last two samples */
	guint64 lost;			/* since the source started */
	guint64 lost_interval;		/* of it, since the last sample */
	guint64 samples;
	/* totals over rows */
	double alloc_rate, byte_rate;
	gint64 live_bytes;
	guint64 slack;
};

struct sa_top *sa_top_new(struct sa_top_source *src, enum sa_top_sort sort);
/* Sample the source at time now_us (monotonic). 0, or -1 with *err. */
int sa_top_refresh(struct sa_top *t, gint64 now_us, GError **err);
void sa_top_set_sort(struct sa_top *t, enum sa_top_sort sort);
void sa_top_free(struct sa_top *t);

/* "rate", "bytes", "slack", "live" */
int sa_top_sort_parse(const char *s, enum sa_top_sort *sort);
const char *sa_top_sort_name(enum sa_top_sort sort);
/* The key that selects a sort in the live view ('a', 'b', 's', 'l'). */
int sa_top_sort_key(enum sa_top_sort sort);

#define SA_TOP_PLAIN	1	/* no key help line */

/* Lines before the rows in sa_top_format's view, the key help included. */
#define SA_TOP_HEAD_LINES	5

/*
 * The view as lines into out: three header lines (the rates and the
 * events lost in the last interval next to them), the key help unless
 * SA_TOP_PLAIN, the column heads, then at most max_rows rows (0: all),
 * each cut to width columns (0: no limit).
 */
void sa_top_format(const struct sa_top *t, GString *out, int width,
		   int max_rows, unsigned int flags);

/*
 * The view as one JSON object on one line (top/json.c), with
 * schema_version, the figures of the header (the events lost in the last
 * interval and since the start among them) and at most max_rows rows
 * (0: all), in the view's order. Newly allocated.
 */
char *sa_top_json(const struct sa_top *t, int max_rows);

#endif /* SLABACCT_TOP_H */
