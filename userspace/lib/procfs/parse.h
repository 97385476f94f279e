/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the procfs parsers share (beside util/textline.h).
 */
#ifndef SLABACCT_PROCFS_PARSE_H
#define SLABACCT_PROCFS_PARSE_H

#include <stdbool.h>
#include <glib.h>

#include "util/input-file.h"
#include "util/textline.h"

/*
 * Parse "name<sep> value [kB]" lines into name -> guint64. Lines that do
 * not have that shape are skipped; NULL with *err (naming what) if none
 * does.
 */
GHashTable *sa_procfile_parse_keyvals(const char *text, char sep,
				      const char *what, GError **err);
bool sa_procfile_get(GHashTable *kv, const char *name, guint64 *v);

/*
 * Parse a whole unsigned decimal (sa_dec_u64 on a NUL-terminated
 * string); false, *v unchanged, if s is not one.
 */
bool sa_parse_u64(const char *s, guint64 *v);

/*
 * The lines of a NUL-terminated /proc text (NULL: none), by sa_text_lines:
 * fn gets each line without its '\n', and no empty last line after a
 * final '\n'. Line N is the Nth call.
 */
gboolean sa_procfile_lines(const char *text, sa_input_line_fn fn,
			   void *data, GError **err);

/* g_set_error in G_FILE_ERROR_INVAL with a printf message. */
void sa_parse_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * Called with each line of a text and its fields (sa_line_fields: f, n;
 * f is freed after the call, so a field kept must be copied). FALSE,
 * with *err set, stops the walk.
 */
typedef gboolean (*sa_procfile_fields_fn)(void *data,
					  const struct sa_line *l, char **f,
					  int n, GError **err);

/*
 * sa_procfile_lines, each line split by sa_line_fields: TRUE at the end
 * of the text, FALSE as fn did.
 */
gboolean sa_procfile_fields(const char *text, sa_procfile_fields_fn fn,
			    void *data, GError **err);

/* strcmp on two char ** (for g_ptr_array_sort of strings). */
int sa_strcmp_indirect(gconstpointer a, gconstpointer b);

/*
 * Fields "Node" "0," "zone" "Normal" [","] as /proc/{buddy,zone,pagetype}info
 * start a line: the node and zone (the trailing comma removed). False if
 * the line does not start so.
 */
bool sa_parse_node_zone(char **f, int n, int *node, char *zone,
			size_t len);

/* A /proc or /sys file is far smaller: a bound on what is read */
#define SA_SNAP_MAX_FILE	(16u << 20)

/*
 * Read root/rel whole (proc files report size 0): a regular file of at
 * most SA_SNAP_MAX_FILE bytes. NULL with *err if it cannot be read.
 */
char *sa_snap_read(const char *root, const char *rel, GError **err);

#endif /* SLABACCT_PROCFS_PARSE_H */
