// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF tools, in the order `slabacct --help` lists them.
 */
#include <string.h>

#include "bpf-tool.h"

#ifdef SA_NO_BPF
/*
 * Built without the BPF tools (make ARCH=... for a kernel with no BTF to
 * build them against): SA_NO_BPF says why.
 */
const struct sa_bpf_tool *const sa_bpf_tools[] = { NULL };
const char *const sa_bpf_absent = SA_NO_BPF;
#else
const char *const sa_bpf_absent;

/* each defined in its front end, X.c */
extern const struct sa_bpf_tool sa_tool_memleak, sa_tool_brkstack,
	sa_tool_drsnoop, sa_tool_faults, sa_tool_ffaults, sa_tool_hfaults,
	sa_tool_mmapsnoop, sa_tool_oomkill, sa_tool_pmc, sa_tool_shmsnoop,
	sa_tool_swapin, sa_tool_vmscan;

const struct sa_bpf_tool *const sa_bpf_tools[] = {
	&sa_tool_memleak,
	&sa_tool_brkstack,
	&sa_tool_drsnoop,
	&sa_tool_faults,
	&sa_tool_ffaults,
	&sa_tool_hfaults,
	&sa_tool_mmapsnoop,
	&sa_tool_oomkill,
	&sa_tool_pmc,
	&sa_tool_shmsnoop,
	&sa_tool_swapin,
	&sa_tool_vmscan,
	NULL,
};
#endif

const struct sa_bpf_tool *sa_bpf_tool_find(const char *name)
{
	const struct sa_bpf_tool *const *t;

	for (t = sa_bpf_tools; *t; t++)
		if (!strcmp((*t)->name, name))
			return *t;
	return NULL;
}
