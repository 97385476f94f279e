/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A structural check of a trace.dat file before libtracecmd reads it:
 * every size and offset in its headers must lie inside the file, so that
 * a truncated or damaged file is reported with the offset of the damage
 * (libtracecmd 3.1 can crash on such files instead of failing).
 *
 * Version 6 is walked in full (headers, formats, kallsyms, printk,
 * cmdlines, options, the per-CPU data table). Version 7 is walked along
 * its chain of option sections; the sections those options point at are
 * checked to fit in the file, and uncompressed ones are walked.
 */
#ifndef SLABACCT_REPORT_CHECK_H
#define SLABACCT_REPORT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/* What the check learnt of the file's layout. */
struct sa_tracedat_layout {
	int version;			/* 6 or 7 */
	bool big_endian;
	int long_size;			/* 4 or 8 */
	guint32 page_size;
	bool latency;			/* a latency-tracer file, no CPU data */
	guint64 options;		/* bit n: option id n was seen (v6) */
	int nr_cpus;
	guint64 *cpu_offset;		/* v6: each CPU's data, in the file */
	guint64 *cpu_size;
};

void sa_tracedat_layout_clear(struct sa_tracedat_layout *lay);

/*
 * Check the len bytes at data (a whole trace.dat). Returns 0, or -1 with
 * *err set to "NAME: ... at offset N: ...". With lay, the layout is
 * filled in (clear it with sa_tracedat_layout_clear).
 */
int sa_tracedat_check(const char *name, const guint8 *data, size_t len,
		      struct sa_tracedat_layout *lay, GError **err);

/* The same, for the file at path (read through a private mapping). */
int sa_tracedat_check_file(const char *path, struct sa_tracedat_layout *lay,
			   GError **err);

/*
 * Open the file with libtracecmd in a child process first: libtracecmd
 * 3.1 crashes on some damaged files while it gives up on them
 * (tracecmd_close of a half-built handle). Returns 0 if it opens, or -1
 * with *err set. Call it before any thread is started.
 */
int sa_tracedat_probe_open(const char *path, GError **err);

#endif /* SLABACCT_REPORT_CHECK_H */
