/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding trace records into struct sa_rec (trace/events.h): the decoder of a
 * trace is built once from the event table, the fields looked up by name.
 */
#ifndef SLABACCT_DECODE_H
#define SLABACCT_DECODE_H

#include <stdbool.h>

#include <event-parse.h>

#include "trace/events.h"

struct decoder;

struct sa_decode {
	struct decoder **by_id;		/* [max_id + 1], by tep event id */
	int max_id;
	/* common_type and common_pid, read inline when plain (size 0: not) */
	int type_off, type_size, pid_off, pid_size;
	int flags_off;			/* common_flags (1 byte), or -1 */
	int stack_id;			/* ftrace:kernel_stack's, or -1 */
};

/*
 * Build the decoder of a trace's tep handle from the event table. With
 * ev_present ([SA_EV_NR]), the ids whose events the trace has are set
 * there; with notes (util/notes.h), a field the format lacks is noted.
 */
struct sa_decode *sa_decode_new(struct tep_handle *tep, bool *ev_present,
				GPtrArray *notes);
void sa_decode_free(struct sa_decode *d);

/*
 * Decode one record. Returns 0, or -1 if the table does not know it. A
 * kernel_stack entry comes out as ev SA_EV_STACK with its frames in
 * out->stack (trace/stack.h), for the reader to attach to its event.
 */
int sa_decode_record(const struct sa_decode *d, struct tep_handle *tep,
		     struct tep_record *rec, struct sa_rec *out);

#endif /* SLABACCT_DECODE_H */
