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

#include <stddef.h>
#include <glib.h>

/*
 * Check the len bytes at data (a whole trace.dat). Returns 0, or -1 with
 * *err set to "NAME: ... at offset N: ...".
 */
int sa_tracedat_check(const char *name, const guint8 *data, size_t len,
		      GError **err);

/* The same, for the file at path (read through a private mapping). */
int sa_tracedat_check_file(const char *path, GError **err);

/*
 * Open the file with libtracecmd in a child process first: libtracecmd
 * 3.1 crashes on some damaged files while it gives up on them
 * (tracecmd_close of a half-built handle). Returns 0 if it opens, or -1
 * with *err set. Call it before any thread is started.
 */
int sa_tracedat_probe_open(const char *path, GError **err);

#endif /* SLABACCT_REPORT_CHECK_H */
