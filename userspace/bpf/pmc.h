/* SPDX-License-Identifier: GPL-2.0 */
/* pmc: the key pmc.bpf.c counts samples under. */
#ifndef SLABACCT_PMC_H
#define SLABACCT_PMC_H

#include "bpf-common.h"

#define PMC_MAX_EVENTS	8

struct pmc_key {
	__u32 tgid;
	__u32 event;		/* index into the front end's event list */
	char comm[SA_COMM_LEN];
	__u64 ip;		/* the sampled address (--by function) */
};

#endif /* SLABACCT_PMC_H */
