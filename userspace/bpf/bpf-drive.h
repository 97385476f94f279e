/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Driving a tool's opened skeleton: load it, attach its programs, start
 * the -c child, and run the event loop (ring buffer records) or the
 * counting loop (a counts map reported each interval). The tools only
 * open the skeleton, set its read-only data, and say which loop.
 */
#ifndef SLABACCT_BPF_DRIVE_H
#define SLABACCT_BPF_DRIVE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

#include "bpf-report.h"

struct bpf_object;
struct bpf_object_skeleton;
struct sa_bpf_run;

struct sa_bpf_drive {
	/* an event tool: each record of its "events" ring buffer */
	const char *header;	/* printed first, in text mode */
	int (*handle)(void *ctx, void *data, size_t size);
	void *ctx;
	/* a counting tool: its "counts" map, reported through this */
	struct sa_count_report *counts;
	bool stacks;		/* keyed by sa_stack_key, not sa_name_key */
	/* attach specially; NULL: every loaded program at its SEC() */
	int (*attach)(struct bpf_object *obj, void *arg, GPtrArray *links);
	void *attach_arg;
};

/*
 * Load the opened skeleton s, attach, and run the loop d describes until
 * the run ends; at the end an event tool prints its number of events and
 * of lost ones. Returns an SA_EXIT_* code, having printed any failure.
 */
int sa_bpf_drive(struct sa_bpf_run *run, struct bpf_object_skeleton *s,
		 const struct sa_bpf_drive *d);

/* Print that the skeleton could not be opened; returns SA_EXIT_FAIL. */
int sa_bpf_open_failed(const char *tool);

/*
 * Check that the tracepoint category:event exists; if not print so, with
 * what provides it (needs), and return -1.
 */
int sa_require_tracepoint(const char *tool, const char *category,
			  const char *event, const char *needs);

#endif /* SLABACCT_BPF_DRIVE_H */
