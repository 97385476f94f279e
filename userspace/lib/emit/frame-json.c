// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report's frame, through json-glib: one object with
 * schema_version, the trace's origin and losses, notes, and a "sections"
 * object holding one member per report section (each section's writer is
 * in emit/SECTION.c). Numbers are exact; percentages are doubles.
 */
#include <string.h>

#include "emit/emit.h"
#include "emit/emit-areas.h"
#include "emit/emit-budget.h"
#include "emit/emit-coverage.h"
#include "emit/emit-mm.h"
#include "emit/snapshot-origin.h"

void sa_json_header(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_trace_origin *o = &rep->origin;
	JsonBuilder *b = e->jb;
	guint i;
	int c;

	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "tool", "slabacct report");
	sa_json_put_str(b, "file", rep->file);
	if (rep->account) {
		sa_json_account_head(b, rep->account);
		goto notes;
	}
	if (rep->allocinfo) {
		sa_json_allocinfo_head(b, rep->allocinfo_head);
		goto notes;
	}
	json_builder_set_member_name(b, "origin");
	json_builder_begin_object(b);
	sa_json_put_str(b, "kernel_release", o->kernel_release);
	sa_json_put_str(b, "uname", o->uname);
	if (o->kernel_build_id)
		sa_json_put_str(b, "kernel_build_id", o->kernel_build_id);
	sa_json_put_str(b, "cmdline", o->cmdline);
	sa_json_put_str(b, "recorder", o->recorder);
	sa_json_put_str(b, "command", o->command);
	if (o->scope)
		sa_json_put_str(b, "scope", o->scope);
	sa_json_put_str(b, "left_out", o->left_out);
	sa_json_put_str(b, "filter", o->filter);
	sa_json_put_str(b, "clock", o->clock);
	sa_json_put_int(b, "nr_cpus", o->nr_cpus);
	sa_json_put_uint(b, "first_ts_ns", rep->first_ts);
	sa_json_put_uint(b, "last_ts_ns", rep->last_ts);
	sa_json_put_uint(b, "duration_ns", rep->last_ts > rep->first_ts ?
	     rep->last_ts - rep->first_ts : 0);
	json_builder_end_object(b);

	if (o->snapshot_start || o->snapshot_end) {
		json_builder_set_member_name(b, "system");
		json_builder_add_value(b, sa_snapshot_origin_json(
				o->snapshot_start, o->snapshot_end));
	}

	json_builder_set_member_name(b, "lost");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "known");
	json_builder_add_boolean_value(b, o->lost_known);
	sa_json_put_uint(b, "events", o->lost_total);
	json_builder_set_member_name(b, "per_cpu");
	json_builder_begin_array(b);
	for (c = 0; o->lost_known && o->lost && c < o->nr_cpus; c++)
		sa_json_add_uint(b, o->lost[c]);
	json_builder_end_array(b);
	sa_json_put_uint(b, "missed_in_buffer", rep->missed_events);
	sa_json_put_uint(b, "missed_pages_unknown", rep->missed_pages_unknown);
	/* only when the recording stopped early: a loss, like the events */
	if (o->truncated) {
		json_builder_set_member_name(b, "truncated");
		json_builder_begin_object(b);
		sa_json_put_str(b, "why", o->truncated);
		json_builder_set_member_name(b, "at_ns");
		if (o->truncated_at_known)
			sa_json_add_uint(b, o->truncated_ns);
		else
			json_builder_add_null_value(b);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);

	json_builder_set_member_name(b, "records");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "total", rep->nr_records);
	sa_json_put_uint(b, "used", rep->nr_used);
	for (c = 0; c < SA_EV_NR; c++) {
		if (c == SA_EV_STACK)	/* counted below */
			continue;
		/* vmalloc, percpu and forks: where the trace has them */
		if (((c >= SA_EV_VMAP_ALLOC && c <= SA_EV_PCPU_FAIL) ||
		     c == SA_EV_FORK) && !rep->ev_present[c])
			continue;
		sa_json_put_uint(b, sa_ev_name(c), rep->ev_count[c]);
	}
	/* large kmallocs traced twice, counted once (report/agg/callsite.h) */
	if (rep->kmalloc_repeats_known)
		sa_json_put_uint(b, "kmalloc_repeats", rep->kmalloc_repeats);
	/* kernel stacks attached to their events, and with none */
	if (rep->stacks || rep->stacks_lost) {
		sa_json_put_uint(b, "stacks", rep->stacks);
		sa_json_put_uint(b, "stacks_lost", rep->stacks_lost);
	}
	json_builder_end_object(b);
	sa_json_coverage_head(b, rep);

notes:
	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	for (i = 0; i < rep->notes->len; i++)
		json_builder_add_string_value(b, rep->notes->pdata[i]);
	json_builder_end_array(b);
}

int sa_json_write(struct sa_emit *e)
{
	int ret = sa_json_print(e->jb, e->out, true);

	g_object_unref(e->jb);
	e->jb = NULL;
	return ret || ferror(e->out) ? -1 : 0;
}

const sa_emit_fn sa_json_sections[SA_SEC_NR] = {
	[SA_SEC_CALLSITE] = sa_json_callsite,
	[SA_SEC_LIVE] = sa_json_live,
	[SA_SEC_SUBSYS] = sa_json_subsys,
	[SA_SEC_TIMELINE] = sa_json_timeline,
	[SA_SEC_PAGES] = sa_json_pages,
	[SA_SEC_RECLAIM] = sa_json_reclaim,
	[SA_SEC_COMPACTION] = sa_json_compaction,
	[SA_SEC_OOM] = sa_json_oom,
	[SA_SEC_VMALLOC] = sa_json_areas,
	[SA_SEC_PERCPU] = sa_json_areas,
	[SA_SEC_COVERAGE] = sa_json_coverage,
	[SA_SEC_BUDGET] = sa_json_budget,
};

/* The JSON model, for json and html: {header..., "sections": {...}} */
int sa_json_model_begin(struct sa_emit *e, const struct sa_report *rep)
{
	e->jb = json_builder_new();
	json_builder_begin_object(e->jb);
	sa_json_header(e, rep);
	json_builder_set_member_name(e->jb, "sections");
	json_builder_begin_object(e->jb);
	return 0;
}

void sa_json_model_end(struct sa_emit *e)
{
	json_builder_end_object(e->jb);
	json_builder_end_object(e->jb);
}

static int json_end(struct sa_emit *e, const struct sa_report *rep)
{
	sa_json_model_end(e);
	return sa_json_write(e);
}

const struct sa_format_ops sa_format_json = {
	.name = "json", .begin = sa_json_model_begin,
	.sections = sa_json_sections, .end = json_end,
};
