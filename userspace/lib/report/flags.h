/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flag fields (gfp_flags, ...) rendered the way the traced kernel names
 * them: through the event's own print format saved in the trace, so no
 * kernel's flag values are assumed.
 */
#ifndef SLABACCT_REPORT_FLAGS_H
#define SLABACCT_REPORT_FLAGS_H

#include "report/report.h"

/*
 * The text for value of field index field (in the event table row,
 * trace/events.h) of
 * event ev, e.g. "GFP_KERNEL|__GFP_ZERO"; "0x..." when it cannot be
 * rendered (rep->tep is NULL, or the event lacks the field). g_free it.
 */
char *sa_report_flags(struct sa_report *rep, enum sa_ev ev, int field,
		      guint64 value);

/*
 * The text the event's print format gives label (a field or a label of
 * its own, like kmalloc's "accounted", computed from gfp_flags) for a
 * record whose field index field is value and every other field 0, or
 * NULL when it cannot be printed or has no such label. g_free it.
 */
char *sa_report_print_label(struct sa_report *rep, enum sa_ev ev, int field,
			    guint64 value, const char *label);

#endif /* SLABACCT_REPORT_FLAGS_H */
