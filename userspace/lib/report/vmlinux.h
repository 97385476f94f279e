/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --vmlinux checked against the trace's origin (report/vmlinux.c): the
 * GNU build IDs when both are known, else the kernel release and version
 * (uname -r, uname -v) of the trace's UNAME against the vmlinux's Linux
 * banner.
 */
#ifndef SLABACCT_REPORT_VMLINUX_H
#define SLABACCT_REPORT_VMLINUX_H

#include "report/report.h"
#include "symbols/symbols.h"

enum sa_vmlinux_match {
	SA_VMLINUX_SAME,	/* same build ID, or same release and version */
	SA_VMLINUX_OTHER,	/* another build */
	SA_VMLINUX_UNKNOWN,	/* nothing to compare */
};

/*
 * Compare a vmlinux's identity with the trace's origin. *why (if why is
 * not NULL) gets a sentence saying what was compared, to g_free.
 */
enum sa_vmlinux_match sa_vmlinux_compare(const struct sa_kernel_id *id,
					 const struct sa_trace_origin *o,
					 char **why);

/*
 * Check vmlinux against rep's origin. Another build is an error
 * (SA_REPORT_ERROR_VMLINUX) unless force, then a note; a vmlinux that
 * cannot be checked is a note. Returns 0, or -1 with *err set.
 */
int sa_report_vmlinux_check(struct sa_report *rep, const char *vmlinux,
			    bool force, GError **err);

#endif /* SLABACCT_REPORT_VMLINUX_H */
