/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emitters of the vmalloc and percpu sections (report/agg/areas.h),
 * every format in one file, emit/areas.c: they only format the rows. The
 * CSV table's first column is the section's name (vmalloc, percpu), with
 * a row 'total' first.
 */
#ifndef SLABACCT_EMIT_AREAS_H
#define SLABACCT_EMIT_AREAS_H

#include "emit/emit.h"

void sa_text_areas(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);
void sa_json_areas(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);
void sa_csv_areas(struct sa_emit *e, const struct sa_report *rep,
		  const void *result);

#endif /* SLABACCT_EMIT_AREAS_H */
