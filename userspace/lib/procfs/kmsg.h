/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log: the lines a source wants from root/dev/kmsg, read
 * without blocking, and a line's text without its prefix (/dev/kmsg's
 * "pri,seq,usec,flags;", dmesg's "[  12.345678] ", or none).
 */
#ifndef SLABACCT_KMSG_H
#define SLABACCT_KMSG_H

#include <stdbool.h>
#include <glib.h>

/*
 * The lines of root/dev/kmsg for which wanted() is true, each ending in
 * a newline. NULL with *err if it cannot be read (not root,
 * dmesg_restrict, a container); an empty string when none is wanted.
 */
char *sa_kmsg_capture(const char *root, bool (*wanted)(const char *line),
		      GError **err);

/* The message of a log line; its time in *t (seconds, -1 unknown). */
const char *sa_kmsg_message(const char *line, double *t);

/*
 * Each line of a log text (NULL: none), as sa_procfile_lines gives them:
 * fn gets its message and time, as sa_kmsg_message takes them apart.
 */
typedef void (*sa_kmsg_fn)(void *data, const char *msg, double t);
void sa_kmsg_lines(const char *text, sa_kmsg_fn fn, void *data);

#endif /* SLABACCT_KMSG_H */
