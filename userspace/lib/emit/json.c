// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output through json-glib: one object with schema_version, the
 * trace's origin and losses, notes, and a "sections" object holding one
 * member per report section. Numbers are exact; percentages are doubles.
 */
#include <math.h>

#include "report/agg/callsite.h"
#include "trace/stack.h"
#include "report/agg/live.h"
#include "report/agg/subsys.h"
#include "report/agg/timeline.h"
#include "emit/emit-phases.h"
#include "emit/emit.h"
#include "emit/emit-allocinfo.h"
#include "emit/emit-areas.h"
#include "emit/emit-budget.h"
#include "emit/emit-coverage.h"
#include "emit/emit-stacks.h"
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

static void totals(JsonBuilder *b, const struct sa_totals *t)
{
	sa_json_put_uint(b, "sites", t->sites);
	sa_json_put_uint(b, "allocs", t->allocs);
	sa_json_put_uint(b, "frees", t->frees);
	sa_json_put_uint(b, "bytes_alloc", t->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", t->bytes_req);
	sa_json_put_uint(b, "slack", t->slack);
	sa_json_put_pct(b, "frag_pct", t->frag);
	sa_json_put_uint(b, "live", t->live);
	sa_json_put_uint(b, "live_bytes", t->live_alloc);
	sa_json_put_uint(b, "live_req", t->live_req);
	sa_json_put_uint(b, "live_waste", t->live_waste);
	sa_json_put_pct(b, "live_frag_pct", t->live_frag);
	sa_json_put_uint(b, "pingpong", t->pingpong);
}

/* Charged to a memory cgroup, where the trace says. */
static void accounted(JsonBuilder *b, guint64 n, guint64 bytes)
{
	sa_json_put_uint(b, "accounted", n);
	sa_json_put_uint(b, "accounted_bytes", bytes);
}

static void site_obj(JsonBuilder *b, const struct sa_site *s, bool acct)
{
	int i;

	json_builder_begin_object(b);
	sa_json_put_str(b, "kind", sa_kind_name(s->kind));
	sa_json_put_str(b, "site", s->sym);
	if (s->call_site) {
		char *a = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
					  s->call_site);

		sa_json_put_str(b, "address", a);
		g_free(a);
	}
	sa_json_put_str(b, "function", s->func);
	sa_json_put_str(b, "module", s->module);
	sa_json_put_str(b, "cache", s->cache);
	sa_json_put_str(b, "file", s->file);
	if (s->line)
		sa_json_put_int(b, "line", s->line);
	sa_json_put_uint(b, "allocs", s->allocs);
	sa_json_put_uint(b, "frees", s->frees);
	sa_json_put_uint(b, "bytes_alloc", s->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", s->bytes_req);
	sa_json_put_uint(b, "slack", s->slack);
	sa_json_put_pct(b, "frag_pct", s->frag);
	sa_json_put_uint(b, "live", s->live);
	sa_json_put_uint(b, "live_bytes", s->live_alloc);
	sa_json_put_uint(b, "live_req", s->live_req);
	sa_json_put_uint(b, "live_waste", s->live_waste);
	sa_json_put_pct(b, "live_frag_pct", s->live_frag);
	sa_json_put_uint(b, "pingpong", s->pingpong);
	sa_json_put_uint(b, "freed_untraced", s->freed_untraced);
	if (acct)
		accounted(b, s->accounted, s->accounted_bytes);
	sa_json_put_str(b, "gfp", s->gfp_str);
	json_builder_set_member_name(b, "live_age");
	json_builder_begin_object(b);
	for (i = 0; i < SA_AGE_BUCKETS; i++)
		sa_json_put_uint(b, sa_age_label(i), s->age[i]);
	json_builder_end_object(b);
	if (s->wrapper_hint) {
		json_builder_set_member_name(b, "wrapper");
		json_builder_add_boolean_value(b, TRUE);
	}
	/* attributed through a wrapper by the stacks: the wrapper, the caller */
	if (s->wrapper)
		sa_json_put_str(b, "via", s->wrapper);
	if (s->caller_sym)
		sa_json_put_str(b, "caller", s->caller_sym);
	if (s->frames && s->frames->n > 1) {
		json_builder_set_member_name(b, "frames");
		json_builder_begin_array(b);
		for (i = 0; i < (int)s->frames->n; i++) {
			char *a = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
						  s->frames->ip[i]);

			json_builder_add_string_value(b, a);
			g_free(a);
		}
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
}

void sa_json_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_callsite_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int k;

	if (r->allocinfo) {
		sa_json_allocinfo_sites(e, r);
		return;
	}
	json_builder_set_member_name(b, "callsite");
	json_builder_begin_object(b);
	sa_json_put_str(b, "by", sa_group_by_name(r->by));
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	for (k = 0; k < SA_KIND_NR; k++) {
		json_builder_set_member_name(b, sa_kind_name(k));
		json_builder_begin_object(b);
		totals(b, &r->total[k]);
		if (r->accounted_known)
			accounted(b, r->total[k].accounted,
				  r->total[k].accounted_bytes);
		json_builder_end_object(b);
	}
	sa_json_put_uint(b, "unmatched_frees", r->unmatched_frees);
	sa_json_put_uint(b, "null_frees", r->null_frees);
	sa_json_put_uint(b, "reused_without_free", r->reused);
	if (r->attributed || r->attrib_not_in_stack ||
	    r->attrib_all_wrappers || r->wrapper_no_stack) {
		sa_json_put_uint(b, "attributed", r->attributed);
		sa_json_put_uint(b, "wrapper_stack_without_site",
				r->attrib_not_in_stack);
		sa_json_put_uint(b, "wrapper_stack_all_wrappers",
				r->attrib_all_wrappers);
		sa_json_put_uint(b, "wrapper_no_stack", r->wrapper_no_stack);
	}
	json_builder_end_object(b);
	sa_json_put_uint(b, "rows_hidden", r->hidden);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->shown->len; i++)
		site_obj(b, r->shown->pdata[i], r->accounted_known);
	json_builder_end_array(b);
	if (r->by == SA_BY_STACK)
		sa_json_stacks(b, r);
	json_builder_end_object(b);
}

void sa_json_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_live_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int k;

	json_builder_set_member_name(b, "live");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	totals(b, &r->total);
	sa_json_put_uint(b, "freed_untraced", r->freed_untraced);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "age");
	json_builder_begin_object(b);
	for (k = 0; k < SA_AGE_BUCKETS; k++)
		sa_json_put_uint(b, sa_age_label(k), r->age[k]);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->sites->len; i++)
		site_obj(b, r->sites->pdata[i], false);
	json_builder_end_array(b);
	sa_json_put_uint(b, "rows_hidden", r->sites_hidden);
	if (r->objects)
		sa_json_put_uint(b, "objects_hidden", r->objects_hidden);
	if (r->objects) {
		json_builder_set_member_name(b, "objects");
		json_builder_begin_array(b);
		for (i = 0; i < r->objects->len; i++) {
			const struct sa_live_row *o =
				&g_array_index(r->objects, struct sa_live_row,
					       i);
			char *p = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
						  o->ptr);

			json_builder_begin_object(b);
			sa_json_put_str(b, "ptr", p);
			sa_json_put_int(b, "bytes_alloc", o->bytes_alloc);
			sa_json_put_int(b, "bytes_req", o->bytes_req);
			sa_json_put_uint(b, "age_ns", o->age_ns);
			sa_json_put_int(b, "pid", o->pid);
			sa_json_put_str(b, "comm", o->comm);
			sa_json_put_str(b, "site", o->site->sym);
			json_builder_end_object(b);
			g_free(p);
		}
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
}

void sa_json_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_subsys_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "subsys");
	json_builder_begin_object(b);
	sa_json_put_str(b, "source", r->source);
	sa_json_put_int(b, "depth", r->depth);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "subsystem", s->name);
		sa_json_put_uint(b, "sites", s->sites);
		sa_json_put_uint(b, "allocs", s->allocs);
		sa_json_put_uint(b, "bytes_alloc", s->bytes_alloc);
		sa_json_put_uint(b, "bytes_req", s->bytes_req);
		sa_json_put_uint(b, "slack", s->slack);
		sa_json_put_uint(b, "live_bytes", s->live_alloc);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "wrappers");
	json_builder_begin_array(b);
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "function", w->func);
		sa_json_put_uint(b, "sites", w->sites);
		sa_json_put_uint(b, "allocs", w->allocs);
		sa_json_put_uint(b, "bytes_alloc", w->bytes_alloc);
		sa_json_put_str(b, "hint", w->hint);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void sa_json_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_timeline_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "timeline");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "interval_ns", r->interval_ns);
	sa_json_put_uint(b, "t0_ns", r->t0_ns);
	json_builder_set_member_name(b, "bins");
	json_builder_begin_array(b);
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *x = &g_array_index(r->bins,
							struct sa_bin, i);

		json_builder_begin_object(b);
		sa_json_put_uint(b, "start_ns", x->start_ns);
		sa_json_put_uint(b, "allocs", x->allocs);
		sa_json_put_uint(b, "frees", x->frees);
		sa_json_put_uint(b, "alloc_bytes", x->alloc_bytes);
		sa_json_put_uint(b, "freed_bytes", x->freed_bytes);
		sa_json_put_uint(b, "untraced_frees", x->untraced);
		sa_json_put_uint(b, "untraced_bytes", x->untraced_bytes);
		sa_json_put_int(b, "net", x->net);
		sa_json_put_int(b, "outstanding", x->outstanding);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_phases(e, &r->phases);
	json_builder_end_object(b);
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
