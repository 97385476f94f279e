/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A report made of counts the kernel kept rather than of events: a
 * /proc/slab_account or /proc/allocinfo snapshot, or a hist file
 * (report/account.c, report/allocinfo.c, report/hist.c). Its one section
 * is the call sites: the caller fills their rows between new and end;
 * every row is shown, sorted later as a trace's are.
 */
#ifndef SLABACCT_REPORT_COUNTED_H
#define SLABACCT_REPORT_COUNTED_H

#include <glib.h>

#include "report/agg/callsite.h"
#include "report/report.h"

/*
 * A report of path with the call-site section only, and in *res that
 * section's result, with no rows yet (res->sites frees its sites).
 */
struct sa_report *sa_counted_report_new(const char *path,
					const struct sa_report_opts *opts,
					struct sa_callsite_result **res);

/* The rows are in: the totals, every row shown, res the report's. */
void sa_counted_report_end(struct sa_report *rep,
			   struct sa_callsite_result *res);

/* a + b, at the type's limit rather than wrapped */
static inline guint64 sa_counted_add(guint64 a, guint64 b)
{
	guint64 s;

	return __builtin_add_overflow(a, b, &s) ? G_MAXUINT64 : s;
}

static inline gint64 sa_counted_add_signed(gint64 a, gint64 b)
{
	gint64 s;

	if (__builtin_add_overflow(a, b, &s))
		s = b < 0 ? G_MININT64 : G_MAXINT64;
	return s;
}

#endif /* SLABACCT_REPORT_COUNTED_H */
