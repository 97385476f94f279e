/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON reader: every JSON slabacct reads (diff's and merge's
 * inputs, snapshot --load and --compare, the snapshot stored in a
 * trace.dat) is parsed here. The text is hostile: json-glib (before
 * 1.10) parses nesting by recursion with no bound, so 100,000 '[' take
 * the stack; here the nesting is measured before json-glib sees the
 * text, by a scanner that reads strings, escapes and comments as
 * json-glib's own scanner does, and a text nested deeper than
 * SA_JSON_READ_DEPTH is refused naming the line.
 */
#ifndef SLABACCT_JSON_READ_H
#define SLABACCT_JSON_READ_H

#include <glib.h>
#include <json-glib/json-glib.h>

/* The deepest nesting read: slabacct's own JSON goes 8 levels deep. */
#define SA_JSON_READ_DEPTH	64
/*
 * The most values read (arrays, objects, strings, member names, numbers):
 * json-glib takes about 80 bytes for each, so a 10 MB file of "1," took
 * 400 MB; this bounds its tree at about 1.3 GB, while a report of 100,000
 * call sites (61 values each) has about 6 million.
 */
#define SA_JSON_READ_VALUES	(1u << 24)

/*
 * Parse len bytes at text (a file's content: they need not end with a
 * NUL), name naming it in errors. Returns the root (json_node_unref it),
 * never NULL on success; or NULL with *err set (JSON_PARSER_ERROR), its
 * message starting with "name: ": a text that is not UTF-8, nested
 * deeper than SA_JSON_READ_DEPTH or holding more than SA_JSON_READ_VALUES
 * values (with the line), not valid JSON (with
 * the line and column), or holding no value at all (an empty file).
 */
JsonNode *sa_json_read(const char *text, gsize len, const char *name,
		       GError **err);

/*
 * The nesting json-glib would recurse to on len bytes at text, measured
 * as its scanner reads them (valid UTF-8 assumed), up to max: 0 when it
 * stays within max, else -1 with *line the line where it goes deeper.
 */
int sa_json_depth_check(const char *text, gsize len, guint max, guint *line);

#endif /* SLABACCT_JSON_READ_H */
