/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compare two snapshots (the start and end of a recording, or two
 * recordings): the headline figures that changed.
 */
#ifndef SLABACCT_SNAPSHOT_DIFF_H
#define SLABACCT_SNAPSHOT_DIFF_H

#include <json-glib/json-glib.h>

#include "snapshot/view.h"

struct sa_snap_delta {
	const char *section;	/* as in snapshot/figures.h */
	char *name;
	char *field;
	double a, b;		/* 0 where absent */
	bool in_a, in_b;
};

/*
 * The figures of the sections memory, slab totals, slab caches (size,
 * loss, objects), unusable_index, psi and oom that differ between a and
 * b, by section, then by decreasing |b - a|.
 */
GArray *sa_snapshot_diff(const struct sa_snapshot_view *a,
			 const struct sa_snapshot_view *b);

#endif /* SLABACCT_SNAPSHOT_DIFF_H */
