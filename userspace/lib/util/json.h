/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON writer: every JSON slabacct prints (report, diff, top,
 * snapshot, account, the BPF tools) is built with json-glib through these
 * members, and carries this one schema version.
 */
#ifndef SLABACCT_JSON_H
#define SLABACCT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <json-glib/json-glib.h>

/*
 * The schema version of every JSON document slabacct writes; raised
 * when a member changes meaning or goes away (adding one does not).
 */
#define SA_JSON_SCHEMA_VERSION	1

/* Members: an integer; a double rounded to two decimals, so that the
 * output does not depend on float noise; a string, or null for NULL; a
 * boolean; an array of strings. */
void sa_json_put_int(JsonBuilder *b, const char *k, gint64 v);
/*
 * An unsigned counter: JSON integers are gint64 here (json-glib), so one
 * above 2^63 - 1 (a hostile input's) saturates there instead of turning
 * negative; sa_json_add_uint is the same for an array's element.
 */
void sa_json_put_uint(JsonBuilder *b, const char *k, guint64 v);
void sa_json_add_uint(JsonBuilder *b, guint64 v);
void sa_json_put_pct(JsonBuilder *b, const char *k, double v);
void sa_json_put_str(JsonBuilder *b, const char *k, const char *v);
void sa_json_put_bool(JsonBuilder *b, const char *k, bool v);
void sa_json_put_strv(JsonBuilder *b, const char *k, const GPtrArray *v);

/*
 * The builder's root to f, on one line (pretty: indented, on many), then
 * a newline; the root is released. Returns 0, or -1 with errno set.
 */
int sa_json_print(JsonBuilder *b, FILE *f, bool pretty);

#endif /* SLABACCT_JSON_H */
