/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call sites' stacks in the JSON model (emit/json-stacks.c), for the
 * HTML page's flame graph: the callsite section's "stacks" key, written
 * when the rows are grouped by stack (--by stack), after the existing
 * keys.
 */
#ifndef SLABACCT_EMIT_STACKS_H
#define SLABACCT_EMIT_STACKS_H

#include <json-glib/json-glib.h>

struct sa_callsite_result;

/*
 * "stacks": one object per row of any allocation or live object, every
 * row whatever --top: "frames", its stack outermost first ending with
 * the row's --by caller name (as --folded's line), and the weights
 * allocs, bytes_alloc, live, live_bytes and slack.
 */
void sa_json_stacks(JsonBuilder *b, const struct sa_callsite_result *r);

/*
 * A diff's "stacks" (struct sa_diff_stack *): "frames", and "a" and "b"
 * with allocs, bytes_alloc, live_bytes and slack each.
 */
void sa_json_diff_stacks(JsonBuilder *b, const GPtrArray *stacks);

#endif /* SLABACCT_EMIT_STACKS_H */
