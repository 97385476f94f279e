/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System snapshots carried in a trace (trace/origin.h: snapshot_start and
 * snapshot_end, JSON text from sa_snapshot_capture_json in
 * snapshot/snapshot.h): the short "system" section of reports and diffs.
 * Every function accepts NULL or damaged text and then prints that the
 * snapshot is not available.
 */
#ifndef SLABACCT_SNAPSHOT_ORIGIN_H
#define SLABACCT_SNAPSHOT_ORIGIN_H

#include <stdio.h>

#include <json-glib/json-glib.h>

/*
 * "== system ==": the start and end snapshots of a recording, and what
 * changed between them. Prints nothing when both are NULL.
 */
void sa_snapshot_origin_text(FILE *f, const char *start, const char *end);
/* {"start": ..., "end": ..., "changes": [...]}, or a JSON null. */
JsonNode *sa_snapshot_origin_json(const char *start, const char *end);
/* "# system_<start|end>_<figure>: value" comment lines. */
void sa_snapshot_origin_csv(FILE *f, const char *start, const char *end);

/*
 * For `slabacct diff A B`: the system at the end of each recording (the
 * start where the end is missing), compared. title names the section.
 */
void sa_snapshot_origin_diff_text(FILE *f, const char *a, const char *b);
JsonNode *sa_snapshot_origin_diff_json(const char *a, const char *b);
/* "# system_<a|b>_<figure>: value" comment lines. */
void sa_snapshot_origin_diff_csv(FILE *f, const char *a, const char *b);

#endif /* SLABACCT_SNAPSHOT_ORIGIN_H */
