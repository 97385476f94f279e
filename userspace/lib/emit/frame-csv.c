// SPDX-License-Identifier: GPL-2.0
/*
 * The CSV report's frame: "# key: value" lines with the origin, losses
 * and notes, then one table per section (each section's writer is in
 * emit/SECTION.c). Every table starts with a header row and its first
 * column is the section name, so `grep ^callsite,` or a CSV reader with
 * comment='#' gets one table. Column names are stable.
 */
#include <string.h>

#include "emit/emit.h"
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
