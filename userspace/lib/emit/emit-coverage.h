/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emitters of the coverage section (report/agg/coverage.h), every
 * format in one file, emit/coverage.c: they only format the rows. The
 * CSV table's first column is "coverage", with a row 'total' first.
 */
#ifndef SLABACCT_EMIT_COVERAGE_H
#define SLABACCT_EMIT_COVERAGE_H

#include "emit/emit.h"

void sa_text_coverage(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);
void sa_json_coverage(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);
void sa_csv_coverage(struct sa_emit *e, const struct sa_report *rep,
		     const void *result);

/*
 * The header's summary of the coverage totals, in every report whose
 * trace has /proc/slabinfo at its end, whatever its sections: text's
 * "# slab coverage: ..." line, JSON's "slab_coverage" member, CSV's
 * "# slab_coverage_*" lines. Nothing otherwise.
 */
void sa_text_coverage_head(FILE *f, const struct sa_report *rep);
void sa_json_coverage_head(JsonBuilder *b, const struct sa_report *rep);
void sa_csv_coverage_head(FILE *f, const struct sa_report *rep);

#endif /* SLABACCT_EMIT_COVERAGE_H */
