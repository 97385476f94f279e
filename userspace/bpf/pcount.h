/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SA_BPF_PCOUNT_H
#define SA_BPF_PCOUNT_H

#include "bpf-tool.h"

/*
 * Count the calls of the first of FUNCS (a NULL-terminated list of the
 * names one kernel function has had) that the running kernel has, by
 * process; WHAT names the counted thing in the report, MISSING is the
 * error when the kernel has none of them. Returns an exit status.
 */
int sa_pcount_run(struct sa_bpf_run *run, const char *const *funcs,
		  const char *what, const char *missing);

#endif
