// SPDX-License-Identifier: GPL-2.0
/*
 * The text report's frame, under 80 columns by default: the header (the
 * trace's origin, lost events, notes), the sections in table order (each
 * section's writer is in emit/SECTION.c), and the system snapshot last.
 * Byte counts are scaled (K = 1024); JSON and CSV carry the exact numbers.
 */
#include <string.h>

#include "emit/emit.h"
#include "emit/emit-areas.h"
#include "emit/emit-budget.h"
#include "emit/emit-coverage.h"
#include "emit/emit-mm.h"
#include "emit/snapshot-origin.h"

/* A long comment, wrapped at the width with "#   " continuations. */
static void put_wrapped(struct sa_emit *e, const char *lead, const char *s)
{
	char **w = g_strsplit(sa_esc(s), " ", -1);
	int col, i;

	fputs(lead, e->out);
	col = strlen(lead);
	for (i = 0; w[i]; i++) {
		int len = strlen(w[i]);

		if (i && e->width > 0 && col + 1 + len > e->width) {
			fputs("\n#   ", e->out);
			col = 4;
		} else if (i) {
			fputc(' ', e->out);
			col++;
		}
		fputs(w[i], e->out);
		col += len;
	}
	fputc('\n', e->out);
	g_strfreev(w);
}

/* "# key: value" cut at the width */
static void put_kv(struct sa_emit *e, const char *key, const char *value)
{
	char *l = g_strconcat(key, sa_esc(value), NULL);

	sa_text_put_cut(e, l);
	g_free(l);
}

void sa_text_header(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_trace_origin *o = &rep->origin;
	struct sa_record_kinds kinds;
	FILE *f = e->out;
	guint i;

	fprintf(f, "# slabacct report: %s\n", sa_esc(rep->file));
	if (rep->account || rep->allocinfo) {
		if (rep->account)
			sa_text_account_head(f, "# ", rep->account);
		else
			sa_text_allocinfo_head(f, "# ", rep->allocinfo_head);
		for (i = 0; i < rep->notes->len; i++)
			put_wrapped(e, "# note: ", rep->notes->pdata[i]);
		return;
	}
	if (o->kernel_release)
		fprintf(f, "# kernel: %s\n", sa_esc(o->kernel_release));
	if (o->recorder)
		fprintf(f, "# recorded by: %s\n", sa_esc(o->recorder));
	if (o->command)
		put_kv(e, "# command: ", o->command);
	if (o->cmdline)
		put_kv(e, "# cmdline: ", o->cmdline);
	if (o->scope)
		put_wrapped(e, "# scope: ", o->scope);
	if (o->left_out)
		put_wrapped(e, "# left out: ", o->left_out);
	if (o->filter)
		put_wrapped(e, "# filter: ", o->filter);
	fprintf(f, "# cpus: %d, clock: %s, duration: ", o->nr_cpus,
		o->clock ? sa_esc(o->clock) : "unknown");
	sa_text_put_secs(f, rep->last_ts > rep->first_ts ?
		 rep->last_ts - rep->first_ts : 0);
	fprintf(f, " s\n");
	if (o->lost_known && rep->hist)
		fprintf(f, "# lost events: %" G_GUINT64_FORMAT "%s\n",
			o->lost_total, o->lost_total ?
			" (the histograms' Dropped: allocations that found "
			"a map full; the figures are incomplete)" : "");
	else if (o->lost_known)
		fprintf(f, "# lost events: %" G_GUINT64_FORMAT "%s\n",
			o->lost_total, o->lost_total ?
			" (ring-buffer overruns: the figures are incomplete)"
			: "");
	else
		fprintf(f, "# lost events: unknown (no per-CPU stats in the "
			"file)\n");
	if (o->truncated) {
		char *lead = o->truncated_at_known ?
			g_strdup_printf("# TRUNCATED at %" G_GUINT64_FORMAT
					".%06" G_GUINT64_FORMAT " s ",
					o->truncated_ns / 1000000000,
					o->truncated_ns % 1000000000 / 1000) :
			g_strdup("# TRUNCATED ");
		char *why = g_strdup_printf("(%s): the recording stopped "
					    "early, the figures are "
					    "incomplete", o->truncated);

		put_wrapped(e, lead, why);
		g_free(why);
		g_free(lead);
	}
	if (rep->missed_events || rep->missed_pages_unknown)
		fprintf(f, "# WARNING: %" G_GUINT64_FORMAT " events missed in "
			"the ring buffer%s\n", rep->missed_events,
			rep->missed_pages_unknown ?
			", and more on pages of unknown loss" : "");
	sa_report_record_kinds(rep, &kinds);
	fprintf(f, "# records: %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
		" kmem", rep->nr_records, kinds.kmem);
	if (kinds.vmalloc)
		fprintf(f, ", %" G_GUINT64_FORMAT " vmalloc", kinds.vmalloc);
	if (kinds.percpu)
		fprintf(f, ", %" G_GUINT64_FORMAT " percpu", kinds.percpu);
	if (kinds.other)
		fprintf(f, ", %" G_GUINT64_FORMAT " other", kinds.other);
	fprintf(f, ")\n");
	if (rep->kmalloc_repeats_known)
		fprintf(f, "# large kmalloc traced twice: %" G_GUINT64_FORMAT
			" (counted once, at its caller)\n",
			rep->kmalloc_repeats);
	if (rep->stacks || rep->stacks_lost)
		fprintf(f, "# kernel stacks: %" G_GUINT64_FORMAT " (with their "
			"events), %" G_GUINT64_FORMAT " with no event\n",
			rep->stacks, rep->stacks_lost);
	sa_text_coverage_head(f, rep);
	for (i = 0; i < rep->notes->len; i++)
		put_wrapped(e, "# note: ", rep->notes->pdata[i]);
}

const sa_emit_fn sa_text_sections[SA_SEC_NR] = {
	[SA_SEC_CALLSITE] = sa_text_callsite,
	[SA_SEC_LIVE] = sa_text_live,
	[SA_SEC_SUBSYS] = sa_text_subsys,
	[SA_SEC_TIMELINE] = sa_text_timeline,
	[SA_SEC_PAGES] = sa_text_pages,
	[SA_SEC_RECLAIM] = sa_text_reclaim,
	[SA_SEC_COMPACTION] = sa_text_compaction,
	[SA_SEC_OOM] = sa_text_oom,
	[SA_SEC_VMALLOC] = sa_text_areas,
	[SA_SEC_PERCPU] = sa_text_areas,
	[SA_SEC_COVERAGE] = sa_text_coverage,
	[SA_SEC_BUDGET] = sa_text_budget,
};

static int text_begin(struct sa_emit *e, const struct sa_report *rep)
{
	if (sa_text_begin(e, &e->tb))
		return -1;
	sa_text_header(e, rep);
	return 0;
}

/* the system snapshot comes last: the call sites are the answer */
static int text_end(struct sa_emit *e, const struct sa_report *rep)
{
	if (!rep->account && !rep->allocinfo)
		sa_snapshot_origin_text(e->out, rep->origin.snapshot_start,
					rep->origin.snapshot_end);
	return sa_text_end(e, &e->tb);
}

const struct sa_format_ops sa_format_text = {
	.name = "text", .begin = text_begin, .sections = sa_text_sections,
	.end = text_end,
};
