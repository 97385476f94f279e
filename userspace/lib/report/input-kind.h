/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one door for the files slabacct reads: what a file is, told by its
 * content, never by its name. report, diff, merge and account ask here;
 * the kernel's text files are told by procfs/sniff.h.
 *
 *   trace.dat           trace-cmd's magic
 *   /proc/slab_account  "# slab_account N" (a saved copy, or the file)
 *   /proc/allocinfo     "allocinfo - version: X.Y"
 *   hist                a tracefs hist file ("# event histogram"; boot
 *                       cmdline --hist)
 *   JSON                '{' first, after white space (our own outputs)
 *   other               none of these: the trace reader names what is
 *                       wrong with it
 */
#ifndef SLABACCT_REPORT_INPUT_KIND_H
#define SLABACCT_REPORT_INPUT_KIND_H

#include <glib.h>

enum sa_input_kind {
	SA_INPUT_OTHER,
	SA_INPUT_TRACEDAT,
	SA_INPUT_SLAB_ACCOUNT,
	SA_INPUT_ALLOCINFO,
	SA_INPUT_HIST,
	SA_INPUT_JSON,
};

/*
 * Sets *kind and returns 0, or returns -1 with *err set when path is not
 * a regular file that can be read (the same message every command
 * gives). Reads at most the first 64 KB.
 */
int sa_input_kind(const char *path, enum sa_input_kind *kind, GError **err);

/*
 * "trace.dat", "/proc/slab_account", "/proc/allocinfo", "hist", "JSON" or
 * "other"
 */
const char *sa_input_kind_name(enum sa_input_kind k);

#endif /* SLABACCT_REPORT_INPUT_KIND_H */
