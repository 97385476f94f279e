/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace ring buffers' size: tracefs's buffer_total_size_kb, of the
 * top instance and of each one in instances/. The file reads
 * "2816" or, before the buffer is first expanded, "14 (expanded: 2816)":
 * the first number is what is allocated now (data pages; the per-CPU
 * reader page and the buffer_page structs are not in it). That file sums
 * every possible CPU, so where per_cpu/ is there the capture sums the
 * per-CPU sizes of the CPUs online instead: a CPU that never came up has
 * no buffer.
 */
#ifndef SLABACCT_TRACEBUF_H
#define SLABACCT_TRACEBUF_H

#include <glib.h>

/* At most this many instances are read */
#define SA_TRACEBUF_MAX_INSTANCES	4096
/* and at most this many CPUs' per_cpu/ directories an instance */
#define SA_TRACEBUF_MAX_CPUS		8192

/*
 * The sizes under root's tracefs (sys/kernel/tracing, else
 * sys/kernel/debug/tracing), one instance a line: "<name> <file's
 * text>", the top instance named ".". NULL with *err if none is readable.
 */
char *sa_tracebuf_capture(const char *root, GError **err);

struct sa_tracebuf {
	char *name;		/* "." for the top instance */
	guint64 kb;
};

/* An array of struct sa_tracebuf; NULL with *err if malformed. */
GArray *sa_tracebuf_parse(const char *text, GError **err);
/* Their sum, kB */
guint64 sa_tracebuf_total_kb(const GArray *bufs);

#endif /* SLABACCT_TRACEBUF_H */
