/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribution through allocation wrappers: who really asked for the
 * memory of an allocation whose call site is a wrapper (kvmalloc_node,
 * kmemdup, mempool_alloc, ...: symbols/wrappers.h), read from the kernel
 * stack recorded with it (trace/stack.h).
 *
 * The rule: find the call site among the frames (the same address, else
 * the first frame in the same function), then go outwards over the
 * frames in the wrapper set; the first frame outside it is the caller.
 * The frames innermost of the call site (the allocator's own, the
 * tracepoint's) are not looked at.
 */
#ifndef SLABACCT_SYMBOLS_ATTRIB_H
#define SLABACCT_SYMBOLS_ATTRIB_H

#include <stdbool.h>
#include <glib.h>

#include "symbols/symbols.h"
#include "symbols/wrappers.h"
#include "trace/stack.h"

/* Frames kept beyond the call site: --stack-depth's limit. */
#define SA_ATTRIB_MAX_DEPTH	32

enum sa_attrib_result {
	SA_ATTRIB_NONE = 0,		/* not a wrapper's call site */
	SA_ATTRIB_OK,			/* out[] filled */
	SA_ATTRIB_NOT_IN_STACK,		/* the call site is not a frame */
	SA_ATTRIB_ALL_WRAPPERS,		/* no frame outside the set */
};

/*
 * The frames of st from the caller of call_site outwards: out[0] the
 * first frame outside the wrapper set w (NULL: the built-in one), then
 * the frames after it, at most max in all (*n of them). With
 * any_site, a call site that is not a wrapper's gets its frames too
 * (--by stack); else it is SA_ATTRIB_NONE.
 */
enum sa_attrib_result sa_attrib_frames(struct sa_symbols *syms,
				       const struct sa_wrappers *w,
				       guint64 call_site,
				       const struct sa_stack *st,
				       bool any_site, guint64 *out,
				       guint max, guint *n);

/*
 * For an event with no call site (vmalloc:alloc_vmap_area): the
 * innermost frame of st in w, then outwards over the frames in w; the
 * last of them is the entry point (*via, its address) and the frames
 * after it go to out[] as above. SA_ATTRIB_NOT_IN_STACK when no frame is
 * in w, SA_ATTRIB_ALL_WRAPPERS when none is outside after it.
 */
enum sa_attrib_result sa_attrib_outer(struct sa_symbols *syms,
				      const struct sa_wrappers *w,
				      const struct sa_stack *st,
				      guint64 *via, guint64 *out, guint max,
				      guint *n);

/* Whether the function at addr is in w. */
bool sa_attrib_is_wrapper(struct sa_symbols *syms,
			  const struct sa_wrappers *w, guint64 addr);

#endif /* SLABACCT_SYMBOLS_ATTRIB_H */
