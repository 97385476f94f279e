/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sorting and trimming the call-site rows: --sort KEY[,KEY...], --top N
 * and --min-bytes. Keys are {name, cmp} rows as in perf kmem, so a new
 * key is one row. Numeric keys sort descending; callsite ascending.
 */
#ifndef SLABACCT_REPORT_SORT_H
#define SLABACCT_REPORT_SORT_H

#include "report/agg/callsite.h"

#define SA_SORT_MAX_KEYS	8

struct sa_site;
typedef int (*sa_site_cmp)(const struct sa_site *a, const struct sa_site *b);

struct sa_sort {
	sa_site_cmp cmp[SA_SORT_MAX_KEYS + 1];	/* NULL-terminated */
};

/* The names of the keys, for help text: "bytes, req, ...". */
const char *sa_sort_key_names(void);
/* The name of key i, in the table's order, or NULL past the last. */
const char *sa_sort_key_name(unsigned int i);

/* Parse "frag,bytes". Returns 0, or -1 with *bad a copy of the bad key. */
int sa_sort_parse(const char *list, struct sa_sort *s, char **bad);

/* Compare with the keys in turn; ties broken by site name, then kind. */
int sa_sort_cmp(const struct sa_sort *s, const struct sa_site *a,
		const struct sa_site *b);

/*
 * Rebuild r->shown: the rows with bytes_alloc >= min_bytes, sorted (by
 * default by bytes), at most top of them (0: all); r->hidden counts the
 * others. For /proc/allocinfo rows (r->allocinfo), bytes are live bytes:
 * min_bytes and the default order are on live_alloc.
 */
void sa_callsite_view(struct sa_callsite_result *r, const struct sa_sort *s,
		      guint top, guint64 min_bytes);

/*
 * What the view leaves out, summed per kind (allocs, frees, bytes, slack,
 * live objects and bytes; sites counts them): with the rows shown, it
 * adds up to every row, so a bounded export loses no byte.
 */
void sa_callsite_rest(const struct sa_callsite_result *r,
		      struct sa_totals rest[SA_KIND_NR]);

/*
 * Keep the first top (0: all) of the live section's call sites (the most
 * live bytes) and of its objects (the oldest); the totals and ages still
 * count every one. r may be NULL.
 */
struct sa_live_result;
void sa_live_view(struct sa_live_result *r, guint top);

#endif /* SLABACCT_REPORT_SORT_H */
