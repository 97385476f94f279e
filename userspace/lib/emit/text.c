// SPDX-License-Identifier: GPL-2.0
/*
 * Text output, under 80 columns by default. Byte counts are scaled
 * (K = 1024); JSON and CSV carry the exact numbers.
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
#include "emit/emit-mm.h"
#include "emit/snapshot-origin.h"

#define H(v) sa_human((char[16]){ 0 }, (v))

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

/* A line cut at the width (text computed first, for the verbose rows). */
static void put_cut(struct sa_emit *e, char *line)
{
	if (e->width > 0 && (int)strlen(line) > e->width) {
		line[e->width - 1] = '~';
		line[e->width] = 0;
	}
	fprintf(e->out, "%s\n", line);
}

/* "# key: value" cut at the width */
static void put_kv(struct sa_emit *e, const char *key, const char *value)
{
	char *l = g_strconcat(key, sa_esc(value), NULL);

	put_cut(e, l);
	g_free(l);
}

/* "-1.2M" right-aligned in width w */
static void put_signed(FILE *f, int w, gint64 v)
{
	char h[16], t[20];

	snprintf(t, sizeof(t), "%s%s", v < 0 ? "-" : "",
		 sa_human(h, v < 0 ? -(guint64)v : (guint64)v));
	fprintf(f, " %*s", w, t);
}

static void put_secs(FILE *f, guint64 ns)
{
	fprintf(f, "%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT,
		ns / G_GUINT64_CONSTANT(1000000000), (ns % G_GUINT64_CONSTANT(1000000000)) / G_GUINT64_CONSTANT(1000));
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
	put_secs(f, rep->last_ts > rep->first_ts ?
		 rep->last_ts - rep->first_ts : 0);
	fprintf(f, " s\n");
	if (o->lost_known)
		fprintf(f, "# lost events: %" G_GUINT64_FORMAT "%s\n",
			o->lost_total, o->lost_total ?
			" (ring-buffer overruns: the figures are incomplete)"
			: "");
	else
		fprintf(f, "# lost events: unknown (no per-CPU stats in the "
			"file)\n");
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
	for (i = 0; i < rep->notes->len; i++)
		put_wrapped(e, "# note: ", rep->notes->pdata[i]);
	sa_snapshot_origin_text(f, o->snapshot_start, o->snapshot_end);
}

static void totals_line(struct sa_emit *e, const char *what,
			const struct sa_totals *t)
{
	fprintf(e->out, "# %-7s %s alloc, %s req, %s slack (%.1f%%), "
		"%" G_GUINT64_FORMAT " allocs, %" G_GUINT64_FORMAT " frees\n",
		what, H(t->bytes_alloc), H(t->bytes_req), H(t->slack),
		t->frag, t->allocs, t->frees);
	fprintf(e->out, "# %-7s live %" G_GUINT64_FORMAT " objs %s "
		"(waste %s), ping-pong %" G_GUINT64_FORMAT ", %"
		G_GUINT64_FORMAT " sites\n", "", t->live, H(t->live_alloc),
		H(t->live_waste), t->pingpong, t->sites);
}

void sa_text_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_callsite_result *r = result;
	FILE *f = e->out;
	guint i;
	int k;

	if (r->allocinfo) {
		sa_text_allocinfo_sites(e, r);
		return;
	}
	fprintf(f, "\n== call sites%s%s%s ==\n",
		r->by != SA_BY_CALLSITE ? " (by " : "",
		r->by != SA_BY_CALLSITE ? sa_group_by_name(r->by) : "",
		r->by != SA_BY_CALLSITE ? ")" : "");
	for (k = 0; k < SA_KIND_NR; k++)
		totals_line(e, sa_kind_name(k), &r->total[k]);
	fprintf(f, "# frees of untraced objects: %" G_GUINT64_FORMAT
		", kfree(NULL): %" G_GUINT64_FORMAT "\n# freed without a "
		"trace event: %" G_GUINT64_FORMAT " (not live)\n",
		r->unmatched_frees, r->null_frees, r->reused);
	for (k = 0; k < SA_KIND_NR; k++) {
		int shown = 0;

		for (i = 0; i < r->shown->len; i++) {
			const struct sa_site *s = r->shown->pdata[i];

			if ((int)s->kind != k)
				continue;
			if (!shown++)
				fprintf(f, "\n%s:\n%7s %7s %5s %6s %6s %7s %4s "
					"%s\n", k == SA_KIND_KMALLOC ?
					"kmalloc (slack: over-request)" :
					"kmem_cache (slack: cache padding)",
					"alloc", "slack", "frag%", "allocs",
					"frees", "live_b", "pp", "site");
			fprintf(f, "%7s %7s %5.1f %6" G_GUINT64_FORMAT " %6"
				G_GUINT64_FORMAT " %7s %4" G_GUINT64_FORMAT " ",
				H(s->bytes_alloc), H(s->slack), s->frag,
				s->allocs, s->frees, H(s->live_alloc),
				s->pingpong);
			sa_text_tail_name(e, 50, s->sym);
			sa_text_where(e, 8, s->file, s->line);
			if (e->verbose) {
				char u[48] = "";
				char *l;

				if (s->freed_untraced)
					snprintf(u, sizeof(u), ", untraced "
						 "frees %" G_GUINT64_FORMAT,
						 s->freed_untraced);
				if (r->accounted_known && s->accounted)
					snprintf(u + strlen(u),
						 sizeof(u) - strlen(u),
						 ", memcg %s", H(s->accounted_bytes));
				l = g_strdup_printf(
					"        req %s, live %" G_GUINT64_FORMAT
					" (waste %s)%s, %s%s%s",
					H(s->bytes_req), s->live,
					H(s->live_waste), u,
					s->cache ? sa_esc(s->cache) : "",
					s->cache ? ", " : "",
					s->gfp_str ? sa_esc(s->gfp_str) : "-");

				put_cut(e, l);
				g_free(l);
			}
		}
	}
	if (r->hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more rows left out "
			"(--top/--min-bytes)\n", r->hidden);
}

void sa_text_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_live_result *r = result;
	FILE *f = e->out;
	guint i;
	int b;

	fprintf(f, "\n== live at the end of the trace ==\n");
	fprintf(f, "# %" G_GUINT64_FORMAT " objects, %s (waste %s, frag "
		"%.1f%%) at %" G_GUINT64_FORMAT " sites\n", r->total.live,
		H(r->total.live_alloc), H(r->total.live_waste),
		r->total.live_frag, r->total.sites);
	if (r->freed_untraced)
		fprintf(f, "# not live: %" G_GUINT64_FORMAT " objects freed "
			"without a trace event\n", r->freed_untraced);
	fprintf(f, "# by age:");
	for (b = 0; b < SA_AGE_BUCKETS; b++)
		fprintf(f, " %s %" G_GUINT64_FORMAT, sa_age_label(b),
			r->age[b]);
	fprintf(f, "\n%7s %7s %6s %6s %6s %6s %6s %s\n", "live_b", "objs",
		"<10ms", "<1s", "<10s", ">=10s", "kind", "site");
	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		fprintf(f, "%7s %7" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
			" %6" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT " %6"
			G_GUINT64_FORMAT " %6s ", H(s->live_alloc), s->live,
			s->age[0] + s->age[1], s->age[2] + s->age[3], s->age[4],
			s->age[5], s->kind == SA_KIND_KMALLOC ? "kmall" :
			"cache");
		sa_text_tail_name(e, 55, s->sym);
		sa_text_where(e, 8, s->file, s->line);
	}
	if (r->sites_hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more sites left out "
			"(--top)\n", r->sites_hidden);
	if (!r->objects)
		return;
	fprintf(f, "\n%18s %6s %11s %7s %-15s %s\n", "ptr", "bytes",
		"age_s", "pid", "comm", "site");
	for (i = 0; i < r->objects->len; i++) {
		const struct sa_live_row *o = &g_array_index(r->objects,
							     struct sa_live_row,
							     i);

		fprintf(f, "%#18" G_GINT64_MODIFIER "x %6u ", o->ptr,
			o->bytes_alloc);
		put_secs(f, o->age_ns);
		fprintf(f, " %7d %-15.15s ", o->pid, sa_esc(o->comm));
		sa_text_tail_name(e, 62, o->site->sym);
	}
	if (r->objects_hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more objects left out "
			"(--top)\n", r->objects_hidden);
}

void sa_text_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_subsys_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== subsystems (from %s", sa_esc(r->source));
	if (r->depth)
		fprintf(f, ", depth %d", r->depth);
	fprintf(f, ") ==\n%7s %7s %7s %7s %5s %s\n", "alloc", "slack",
		"allocs", "live_b", "sites", "subsystem");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		fprintf(f, "%7s %7s %7" G_GUINT64_FORMAT " %7s %5"
			G_GUINT64_FORMAT " ", H(s->bytes_alloc), H(s->slack),
			s->allocs, H(s->live_alloc), s->sites);
		sa_text_tail_name(e, 42, s->name);
	}
	if (!r->wrappers->len)
		return;
	fprintf(f, "\nallocation wrappers (their callers are hidden):\n");
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		fprintf(f, "%7s %7" G_GUINT64_FORMAT " %s\n",
			H(w->bytes_alloc), w->allocs, sa_esc(w->func));
	}
	fprintf(f, "# %s\n", ((struct sa_wrapper_row *)
			      r->wrappers->data)->hint);
}

void sa_text_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_timeline_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== timeline (interval ");
	put_secs(f, r->interval_ns);
	fprintf(f, " s) ==\n%14s %8s %8s %8s %9s %11s\n", "t_s", "alloc",
		"freed", "untraced", "net", "outstanding");
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *b = &g_array_index(r->bins,
							struct sa_bin, i);
		char t[32];

		snprintf(t, sizeof(t), "%" G_GUINT64_FORMAT ".%06"
			 G_GUINT64_FORMAT, b->start_ns / G_GUINT64_CONSTANT(1000000000),
			 (b->start_ns % G_GUINT64_CONSTANT(1000000000)) / G_GUINT64_CONSTANT(1000));
		fprintf(f, "%14s %8s %8s %8s", t, H(b->alloc_bytes),
			H(b->freed_bytes), H(b->untraced_bytes));
		put_signed(f, 9, b->net);
		put_signed(f, 11, b->outstanding);
		fputc('\n', f);
	}
	sa_text_phases(e, &r->phases);
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
};

static int text_begin(struct sa_emit *e, const struct sa_report *rep)
{
	if (sa_text_begin(e, &e->tb))
		return -1;
	sa_text_header(e, rep);
	return 0;
}

static int text_end(struct sa_emit *e, const struct sa_report *rep)
{
	return sa_text_end(e, &e->tb);
}

const struct sa_format_ops sa_format_text = {
	.name = "text", .begin = text_begin, .sections = sa_text_sections,
	.end = text_end,
};
