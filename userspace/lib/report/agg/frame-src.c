// SPDX-License-Identifier: GPL-2.0
/*
 * The file:line of the addresses of the call-site rows' stacks
 * (agg/callsite.h: sa_callsite_result.frame_src). The symbols (and the
 * vmlinux's DWARF) are gone once the report is finished, but pprof's
 * locations want a line for every frame, not only the caller's. Rows
 * share their frames, so a position is kept once per distinct address
 * (an integer table to an array of 16-byte entries), not per row and
 * frame: its size is bounded by the kernel text a trace's stacks pass
 * through, however many stacks it holds.
 */
#include "report/agg/callsite.h"
#include "symbols/symbols.h"

void sa_callsite_frame_src_put(struct sa_callsite_result *r, guint64 addr,
			       const struct sa_sym *sym)
{
	struct sa_frame_src src = { sym->file, sym->line };
	guint32 *idx;
	bool found;

	if (!sym->file)
		return;
	idx = sa_inttable_put(&r->frame_idx, addr, &found);
	if (found)
		return;
	if (!r->frame_src)
		r->frame_src = g_array_new(FALSE, FALSE, sizeof(src));
	*idx = r->frame_src->len;
	g_array_append_val(r->frame_src, src);
}

bool sa_callsite_frame_src(const struct sa_callsite_result *r, guint64 addr,
			   struct sa_frame_src *out)
{
	guint32 idx;

	if (!r->frame_src || !sa_inttable_lookup(&r->frame_idx, addr, &idx) ||
	    idx >= r->frame_src->len)
		return false;
	*out = g_array_index(r->frame_src, struct sa_frame_src, idx);
	return true;
}
