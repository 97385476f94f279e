/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of a snapshot view: text, JSON, CSV, the short "system" section
 * that trace reports include, and the comparison of two snapshots.
 * Emitters append to a GString; they compute nothing of their own.
 */
#ifndef SLABACCT_SNAPSHOT_EMIT_H
#define SLABACCT_SNAPSHOT_EMIT_H

#include <json-glib/json-glib.h>

#include "snapshot/diff.h"
#include "snapshot/view.h"

struct sa_snapshot_emit_opts {
	int top;		/* rows in the top-N tables (default 10) */
	bool raw;		/* JSON: include the raw snapshot */
};

/* The full report, under 80 columns. */
void sa_snapshot_emit_text(GString *out, const struct sa_snapshot_view *v,
			   const struct sa_snapshot_emit_opts *o);
/*
 * A short "system" section (a dozen lines): memory, slab, swap, PSI,
 * fragmentation, OOM kills. title is printed as the heading, e.g.
 * "System at start".
 */
void sa_snapshot_emit_system_text(GString *out, const char *title,
				  const struct sa_snapshot_view *v);

/* {"schema_version":1, "kind":"slabacct-snapshot-report", ...} */
JsonNode *sa_snapshot_view_to_json(const struct sa_snapshot_view *v,
				   const struct sa_snapshot_emit_opts *o);
/* The short system section as a JSON object (for report --json). */
JsonNode *sa_snapshot_system_to_json(const struct sa_snapshot_view *v);

/* A CSV cell: s, quoted when it needs to be. */
void sa_csv_cell(GString *out, const char *s);

/* CSV: section,name,field,value, one figure a row, with a header. */
void sa_snapshot_emit_csv(GString *out, const struct sa_snapshot_view *v);

/* The comparison of two snapshots (emit/snapshot-diff.c). */
/* Text, up to top rows per section (0: all). */
void sa_snapshot_emit_diff_text(GString *out, const GArray *d, int top);
JsonNode *sa_snapshot_diff_to_json(const GArray *d);
/* section,name,field,a,b,delta */
void sa_snapshot_emit_diff_csv(GString *out, const GArray *d);

#endif /* SLABACCT_SNAPSHOT_EMIT_H */
