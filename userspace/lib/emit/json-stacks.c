// SPDX-License-Identifier: GPL-2.0
/*
 * The call sites' stacks in the JSON model (emit-stacks.h): the rows'
 * paths and leaves that the callsite aggregator keeps, as --folded
 * writes them, but as arrays of frames with every weight, so that the
 * page can draw a flame graph by any of them.
 */
#include "emit/emit-stacks.h"
#include "report/agg/callsite.h"
#include "report/diff-stacks.h"
#include "util/json.h"

void sa_json_stacks(JsonBuilder *b, const struct sa_callsite_result *r)
{
	guint i;

	json_builder_set_member_name(b, "stacks");
	json_builder_begin_array(b);
	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];
		gchar **f, **frames;

		if (!s->allocs && !s->live)
			continue;
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "frames");
		json_builder_begin_array(b);
		frames = s->path && *s->path ? g_strsplit(s->path, ";", -1) :
			 NULL;
		for (f = frames; f && *f; f++)
			json_builder_add_string_value(b, *f);
		g_strfreev(frames);
		json_builder_add_string_value(b, s->leaf ? s->leaf :
					      s->sym ? s->sym : "?");
		json_builder_end_array(b);
		sa_json_put_uint(b, "allocs", s->allocs);
		sa_json_put_uint(b, "bytes_alloc", s->bytes_alloc);
		sa_json_put_uint(b, "live", s->live);
		sa_json_put_uint(b, "live_bytes", s->live_alloc);
		sa_json_put_uint(b, "slack", s->slack);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

void sa_json_diff_stacks(JsonBuilder *b, const GPtrArray *stacks)
{
	static const char *const names[SA_DSW_NR] = {
		[SA_DSW_ALLOCS] = "allocs", [SA_DSW_BYTES] = "bytes_alloc",
		[SA_DSW_LIVE_BYTES] = "live_bytes", [SA_DSW_SLACK] = "slack",
	};
	guint i;
	int side, w;

	json_builder_set_member_name(b, "stacks");
	json_builder_begin_array(b);
	for (i = 0; i < stacks->len; i++) {
		const struct sa_diff_stack *s = stacks->pdata[i];
		char **f;

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "frames");
		json_builder_begin_array(b);
		for (f = s->frames; *f; f++)
			json_builder_add_string_value(b, *f);
		json_builder_end_array(b);
		for (side = 0; side < 2; side++) {
			json_builder_set_member_name(b, side ? "b" : "a");
			json_builder_begin_object(b);
			for (w = 0; w < SA_DSW_NR; w++)
				sa_json_put_uint(b, names[w], s->w[side][w]);
			json_builder_end_object(b);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}
