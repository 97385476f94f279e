/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CI gates on a diff: `slabacct diff --fail-on RULES`. A rule names what
 * is judged (the total, each site in both inputs, each new site), a
 * measure (the diff's sort keys) and one or more limits, all of which
 * must be exceeded for the rule to be crossed:
 *
 *   RULES   = RULE[,RULE...]
 *   RULE    = SCOPE[/MEASURE]:LIMIT[&LIMIT...]
 *   SCOPE   = total | vmalloc-total | percpu-total | site | new-site
 *   MEASURE = bytes (default) | slack | allocs | live
 *   LIMIT   = [+]N[K|M|G|T]    growth B - A of more than N (K = 1024)
 *           | [+]P%            growth of more than P percent of A
 *
 *   total     the inputs' totals: the slab's (or allocinfo's)
 *   vmalloc-total, percpu-total
 *             the inputs' vmalloc or percpu totals, each apart (no
 *             slack: bytes, allocs or live); both inputs must have
 *             traced the events (sa_thresholds_judgeable)
 *   site      every site found in both A and B, of any kind (a site
 *             whose A value is 0 crosses any percentage once it grows)
 *   new-site  every site found only in B, by its value in B (sizes only)
 *
 * Sites gone from B, and shrinking figures, never cross a limit. bytes is
 * bytes allocated, live the live bytes at the end, allocs a count.
 *
 *   total:+64K,site:+10%&+4K,new-site:16K
 *
 * fails when the total grew by more than 64 KB, a site by more than 10%
 * and more than 4 KB, or a new site allocated more than 16 KB.
 */
#ifndef SLABACCT_REPORT_THRESHOLD_H
#define SLABACCT_REPORT_THRESHOLD_H

#include <stdbool.h>
#include <glib.h>

#include "report/diff.h"

enum sa_threshold_scope {
	SA_THRESHOLD_TOTAL,
	SA_THRESHOLD_SITE,
	SA_THRESHOLD_NEW_SITE,
	SA_THRESHOLD_VMALLOC_TOTAL,
	SA_THRESHOLD_PERCPU_TOTAL,
};

/* Whether a scope judges a total (the slab's, vmalloc's or percpu's). */
bool sa_threshold_is_total(enum sa_threshold_scope scope);
/* "total", "vmalloc-total", ... */
const char *sa_threshold_scope_name(enum sa_threshold_scope scope);

#define SA_THRESHOLD_MAX_LIMITS	4
#define SA_THRESHOLD_MAX_RULES	32

struct sa_threshold_limit {
	bool pct;			/* percent of A, else an amount */
	double percent;
	guint64 amount;
};

struct sa_threshold {
	char *text;			/* the rule as given */
	enum sa_threshold_scope scope;
	enum sa_diff_sort measure;
	int n_limits;
	struct sa_threshold_limit limit[SA_THRESHOLD_MAX_LIMITS];
};

struct sa_thresholds {
	guint n;
	struct sa_threshold rule[SA_THRESHOLD_MAX_RULES];
};

/*
 * Parse RULES. Returns 0, or -1 with *err (G_OPTION_ERROR_BAD_VALUE)
 * saying which rule is wrong and why. Free with sa_thresholds_clear.
 */
int sa_thresholds_parse(const char *s, struct sa_thresholds *t,
			GError **err);
void sa_thresholds_clear(struct sa_thresholds *t);

/* What crossed one rule: how many rows, and the one that grew most. */
struct sa_threshold_hit {
	guint64 count;			/* rows crossing (1 for the total) */
	char *site;			/* the worst one's name; NULL: total */
	int kind;
	guint64 base;			/* its A value (0 for a new site) */
	struct sa_delta change;		/* B - A (for a new site, B) */
};

struct sa_threshold_result {
	guint crossed;			/* rules crossed */
	struct sa_threshold_hit hit[SA_THRESHOLD_MAX_RULES];
};

/*
 * Whether d's inputs can answer every rule: a vmalloc-total or
 * percpu-total rule needs both inputs to have traced that section.
 * Returns 0, or -1 with *err naming the rule and the input.
 */
int sa_thresholds_judgeable(const struct sa_thresholds *t,
			    const struct sa_diff *d, GError **err);

/*
 * Judge every row of d (computed with sa_diff_compute_rows: before the
 * view leaves rows out) and its totals. Returns the number of rules
 * crossed. Free res with sa_threshold_result_clear.
 */
guint sa_thresholds_check(const struct sa_thresholds *t,
			  const struct sa_diff *d,
			  struct sa_threshold_result *res);
void sa_threshold_result_clear(struct sa_threshold_result *res);

/* The measure's name ("bytes", ...) and a row's or total's value. */
const char *sa_threshold_measure_name(enum sa_diff_sort m);

#endif /* SLABACCT_REPORT_THRESHOLD_H */
