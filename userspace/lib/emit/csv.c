// SPDX-License-Identifier: GPL-2.0
/*
 * CSV output: "# key: value" lines with the origin, losses and notes,
 * then one table per section. Every table starts with a header row and
 * its first column is the section name, so `grep ^callsite,` or a CSV
 * reader with comment='#' gets one table. Column names are stable.
 */
#include <string.h>

#include "report/agg/callsite.h"
#include "report/agg/live.h"
#include "report/agg/subsys.h"
#include "report/agg/timeline.h"
#include "emit/emit-phases.h"
#include "emit/emit.h"
#include "emit/emit-allocinfo.h"
#include "emit/emit-areas.h"
#include "emit/emit-budget.h"
#include "emit/emit-coverage.h"
#include "emit/emit-mm.h"
#include "emit/snapshot-origin.h"

#define U G_GUINT64_FORMAT

static void kv(FILE *f, const char *k, const char *v)
{
	if (!v)
		return;
	/* escaped: the comment stays on one line */
	fprintf(f, "# %s: %s\n", k, sa_esc(v));
}

void sa_csv_header(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_trace_origin *o = &rep->origin;
	FILE *f = e->out;
	guint i;

	fprintf(f, "# slabacct report, schema_version: %d\n",
		SA_JSON_SCHEMA_VERSION);
	kv(f, "file", rep->file);
	if (rep->account || rep->allocinfo) {
		if (rep->account)
			sa_csv_account_head(f, "", rep->account);
		else
			sa_csv_allocinfo_head(f, "", rep->allocinfo_head);
		for (i = 0; i < rep->notes->len; i++)
			kv(f, "note", rep->notes->pdata[i]);
		return;
	}
	kv(f, "kernel_release", o->kernel_release);
	kv(f, "kernel_build_id", o->kernel_build_id);
	kv(f, "recorder", o->recorder);
	kv(f, "command", o->command);
	kv(f, "cmdline", o->cmdline);
	kv(f, "scope", o->scope);
	kv(f, "left_out", o->left_out);
	kv(f, "filter", o->filter);
	kv(f, "clock", o->clock);
	fprintf(f, "# nr_cpus: %d\n# duration_ns: %" U "\n", o->nr_cpus,
		rep->last_ts > rep->first_ts ? rep->last_ts - rep->first_ts :
		0);
	if (o->lost_known)
		fprintf(f, "# lost_events: %" U "\n", o->lost_total);
	else
		fprintf(f, "# lost_events: unknown\n");
	if (o->truncated) {
		kv(f, "truncated", o->truncated);
		if (o->truncated_at_known)
			fprintf(f, "# truncated_at_ns: %" U "\n",
				o->truncated_ns);
	}
	fprintf(f, "# missed_in_buffer: %" U "\n# records: %" U
		"\n# records_used: %" U "\n", rep->missed_events,
		rep->nr_records, rep->nr_used);
	if (rep->kmalloc_repeats_known)
		fprintf(f, "# kmalloc_repeats: %" U "\n", rep->kmalloc_repeats);
	if (rep->stacks || rep->stacks_lost)
		fprintf(f, "# stacks: %" U "\n# stacks_lost: %" U "\n",
			rep->stacks, rep->stacks_lost);
	sa_csv_coverage_head(f, rep);
	for (i = 0; i < rep->notes->len; i++)
		kv(f, "note", rep->notes->pdata[i]);
	sa_snapshot_origin_csv(f, o->snapshot_start, o->snapshot_end);
}

#define SITE_COLS							\
	"kind,site,address,function,module,cache,allocs,frees,bytes_alloc,"	\
	"bytes_req,slack,frag_pct,live,live_bytes,live_req,live_waste,"	\
	"live_frag_pct,pingpong,gfp,age_lt_1ms,age_lt_10ms,age_lt_100ms,"	\
	"age_lt_1s,age_lt_10s,age_ge_10s,freed_untraced"
static const char site_cols[] = SITE_COLS ",file,line";
/* the call-site table: memcg charges too (empty where the trace lacks them) */
static const char callsite_cols[] = SITE_COLS
	",accounted,accounted_bytes,file,line";

/* acct: 0, no accounted columns; 1, empty ones; 2, with their values */
static void site_row(FILE *f, const char *section, const struct sa_site *s,
		     int acct)
{
	int i;

	fprintf(f, "%s,%s,", section, sa_kind_name(s->kind));
	sa_csv_str(f, s->sym);
	fputc(',', f);
	if (s->call_site)
		fprintf(f, "0x%" G_GINT64_MODIFIER "x", s->call_site);
	fputc(',', f);
	sa_csv_str(f, s->func);
	fputc(',', f);
	sa_csv_str(f, s->module);
	fputc(',', f);
	sa_csv_str(f, s->cache);
	fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%.2f,%" U ",%" U
		",%" U ",%" U ",%.2f,%" U ",", s->allocs, s->frees,
		s->bytes_alloc, s->bytes_req, s->slack, s->frag, s->live,
		s->live_alloc, s->live_req, s->live_waste, s->live_frag,
		s->pingpong);
	sa_csv_str(f, s->gfp_str);
	for (i = 0; i < SA_AGE_BUCKETS; i++)
		fprintf(f, ",%" U, s->age[i]);
	fprintf(f, ",%" U, s->freed_untraced);
	if (acct == 1)
		fputs(",,", f);
	else if (acct == 2)
		fprintf(f, ",%" U ",%" U, s->accounted, s->accounted_bytes);
	/* --vmlinux: source file:line; --build-tree: the object file */
	fputc(',', f);
	sa_csv_str(f, s->file);
	if (s->line > 0)
		fprintf(f, ",%d\n", s->line);
	else
		fputs(",\n", f);
}

void sa_csv_callsite(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_callsite_result *r = result;
	FILE *f = e->out;
	guint i;
	int k;

	if (r->allocinfo) {
		sa_csv_allocinfo_sites(e, site_cols, r);
		return;
	}
	fprintf(f, "\ncallsite_totals,kind,sites,allocs,frees,bytes_alloc,"
		"bytes_req,slack,frag_pct,live,live_bytes,live_waste,"
		"pingpong,unmatched_frees,null_frees,reused_without_free\n");
	for (k = 0; k < SA_KIND_NR; k++) {
		const struct sa_totals *t = &r->total[k];

		fprintf(f, "callsite_totals,%s,%" U ",%" U ",%" U ",%" U ",%"
			U ",%" U ",%.2f,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
			",%" U "\n", sa_kind_name(k), t->sites, t->allocs,
			t->frees, t->bytes_alloc, t->bytes_req, t->slack,
			t->frag, t->live, t->live_alloc, t->live_waste,
			t->pingpong, r->unmatched_frees, r->null_frees,
			r->reused);
	}
	fprintf(f, "\ncallsite,%s\n", callsite_cols);
	for (i = 0; i < r->shown->len; i++)
		site_row(f, "callsite", r->shown->pdata[i],
			 r->accounted_known ? 2 : 1);
}

void sa_csv_live(struct sa_emit *e, const struct sa_report *rep,
		 const void *result)
{
	const struct sa_live_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\nlive,%s\n", site_cols);
	for (i = 0; i < r->sites->len; i++)
		site_row(f, "live", r->sites->pdata[i], 0);
	if (!r->objects)
		return;
	fprintf(f, "\nlive_object,ptr,bytes_alloc,bytes_req,age_ns,pid,comm,"
		"site\n");
	for (i = 0; i < r->objects->len; i++) {
		const struct sa_live_row *o = &g_array_index(r->objects,
							     struct sa_live_row,
							     i);

		fprintf(f, "live_object,0x%" G_GINT64_MODIFIER "x,%u,%u,%" U
			",%d,", o->ptr, o->bytes_alloc, o->bytes_req,
			o->age_ns, o->pid);
		sa_csv_str(f, o->comm);
		fputc(',', f);
		sa_csv_str(f, o->site->sym);
		fputc('\n', f);
	}
}

void sa_csv_subsys(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_subsys_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\nsubsys,subsystem,source,sites,allocs,bytes_alloc,"
		"bytes_req,slack,live_bytes\n");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		fputs("subsys,", f);
		sa_csv_str(f, s->name);
		fputc(',', f);
		sa_csv_str(f, r->source);
		fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%" U "\n",
			s->sites, s->allocs, s->bytes_alloc,
			s->bytes_req, s->slack, s->live_alloc);
	}
	fprintf(f, "\nwrapper,function,sites,allocs,bytes_alloc\n");
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		fputs("wrapper,", f);
		sa_csv_str(f, w->func);
		fprintf(f, ",%" U ",%" U ",%" U "\n", w->sites, w->allocs,
			w->bytes_alloc);
	}
}

void sa_csv_timeline(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_timeline_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\ntimeline,start_ns,interval_ns,allocs,frees,alloc_bytes,"
		"freed_bytes,net,outstanding,untraced_frees,untraced_bytes\n");
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *b = &g_array_index(r->bins,
							struct sa_bin, i);

		fprintf(f, "timeline,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
			",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" U ",%" U
			"\n", b->start_ns, r->interval_ns, b->allocs, b->frees,
			b->alloc_bytes, b->freed_bytes, b->net,
			b->outstanding, b->untraced, b->untraced_bytes);
	}
	sa_csv_phases(e, &r->phases);
}

const sa_emit_fn sa_csv_sections[SA_SEC_NR] = {
	[SA_SEC_CALLSITE] = sa_csv_callsite,
	[SA_SEC_LIVE] = sa_csv_live,
	[SA_SEC_SUBSYS] = sa_csv_subsys,
	[SA_SEC_TIMELINE] = sa_csv_timeline,
	[SA_SEC_PAGES] = sa_csv_pages,
	[SA_SEC_RECLAIM] = sa_csv_reclaim,
	[SA_SEC_COMPACTION] = sa_csv_compaction,
	[SA_SEC_OOM] = sa_csv_oom,
	[SA_SEC_VMALLOC] = sa_csv_areas,
	[SA_SEC_PERCPU] = sa_csv_areas,
	[SA_SEC_COVERAGE] = sa_csv_coverage,
	[SA_SEC_BUDGET] = sa_csv_budget,
};

static int csv_begin(struct sa_emit *e, const struct sa_report *rep)
{
	sa_csv_header(e, rep);
	return 0;
}

const struct sa_format_ops sa_format_csv = {
	.name = "csv", .begin = csv_begin, .sections = sa_csv_sections,
};
