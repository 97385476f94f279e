/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording's private instance lets through, and the trace's
 * origin saying so:
 * - the options' filters as event filters: --pid and --comm on every
 *   event; --gfp and --call-site on allocations only (gfp_flags, and
 *   call_site with bytes_alloc: a free's call_site is the freeing
 *   function's, so frees are all kept and matched by pointer);
 * - the recorder's own threads left out (their splice reads allocate):
 *   by set_event_notrace_pid where tracefs has it, else by
 *   'common_pid != TID' in every event's filter; unless opts->trace_self.
 * The origin gets "filter" (in words) and a key per option, and
 * "left_out" (trace/tracedat-format.h).
 */
#ifndef SLABACCT_RECORDER_FILTERS_H
#define SLABACCT_RECORDER_FILTERS_H

#include <glib.h>
#include <tracefs.h>

#include "trace/recorder.h"
#include "trace/tracedat-write.h"

/*
 * Set them in inst, once every thread of the recorder runs, before
 * tracing starts; events is the GPtrArray of struct sa_event_ref
 * enabled. Returns 0, or -1 with *err set (G_IO_ERROR_INVALID_ARGUMENT:
 * a filter the kernel refused).
 */
int sa_recorder_filters_set(struct tracefs_instance *inst,
			    struct sa_tracedat *td, GPtrArray *events,
			    const struct sa_record_opts *o, GError **err);

#endif /* SLABACCT_RECORDER_FILTERS_H */
