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
#include "emit/emit-budget.h"
#include "emit/emit-coverage.h"
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

/*
 * A call-site table's columns. The site is never cut: on a narrow width
 * the numbers give way first, in the order of drop, until the longest
 * name fits (alloc, slack and allocs always stay); a name longer than
 * even that runs past the width. A kmem_cache table has the cache's
 * name, as slabtop shows it.
 */
enum cs_col {
	CS_ALLOC, CS_SLACK, CS_FRAG, CS_ALLOCS, CS_FREES, CS_LIVE, CS_PP,
	CS_CACHE, CS_NR,
};

static const struct {
	const char *head;
	int w;				/* its width; the cache's is measured */
	int drop;			/* its turn to give way, 0: never */
} cs_cols[CS_NR] = {
	[CS_ALLOC] = { "alloc", 7, 0 },
	[CS_SLACK] = { "slack", 7, 0 },
	[CS_FRAG] = { "frag%", 5, 4 },
	[CS_ALLOCS] = { "allocs", 6, 0 },
	[CS_FREES] = { "frees", 6, 2 },
	[CS_LIVE] = { "live_b", 7, 3 },
	[CS_PP] = { "pp", 4, 1 },
	[CS_CACHE] = { "cache", 0, 5 },
};

/* the widest a cache name gets its column: longer ones run on */
#define CS_CACHE_MAX	24

static void cs_cell(FILE *f, int c, int w, const struct sa_site *s)
{
	switch (c) {
	case CS_ALLOC: fprintf(f, "%*s ", w, H(s->bytes_alloc)); break;
	case CS_SLACK: fprintf(f, "%*s ", w, H(s->slack)); break;
	case CS_FRAG: fprintf(f, "%*.1f ", w, s->frag); break;
	case CS_ALLOCS: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->allocs);
		break;
	case CS_FREES: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->frees);
		break;
	case CS_LIVE: fprintf(f, "%*s ", w, H(s->live_alloc)); break;
	case CS_PP: fprintf(f, "%*" G_GUINT64_FORMAT " ", w, s->pingpong);
		break;
	default: fprintf(f, "%-*s ", w, s->cache ? sa_esc(s->cache) : "-");
	}
}

/* The rows of one kind: which columns fit beside the longest name. */
static void cs_table(struct sa_emit *e, const struct sa_callsite_result *r,
		     int kind)
{
	bool on[CS_NR];
	int w[CS_NR], name = 0, used = 0, c, turn;
	FILE *f = e->out;
	guint i, n = 0;

	for (c = 0; c < CS_NR; c++) {
		on[c] = c != CS_CACHE || (kind == SA_KIND_CACHE &&
					  r->by != SA_BY_CACHE);
		w[c] = cs_cols[c].w;
	}
	if (on[CS_CACHE])
		w[CS_CACHE] = strlen(cs_cols[CS_CACHE].head);
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		if ((int)s->kind != kind)
			continue;
		n++;
		name = MAX(name, (int)strlen(sa_esc(s->sym)));
		if (on[CS_CACHE] && s->cache)
			w[CS_CACHE] = MIN(CS_CACHE_MAX, MAX(w[CS_CACHE],
				(int)strlen(sa_esc(s->cache))));
	}
	if (!n)
		return;
	for (c = 0; c < CS_NR; c++)
		used += on[c] ? w[c] + 1 : 0;
	for (turn = 1; e->width > 0 && used + name > e->width; turn++) {
		for (c = 0; c < CS_NR && cs_cols[c].drop != turn; c++)
			;
		if (c == CS_NR)
			break;		/* the name runs past the width */
		if (on[c])
			used -= w[c] + 1;
		on[c] = false;
	}
	fprintf(f, "\n%s:\n", kind == SA_KIND_KMALLOC ?
		"kmalloc (slack: over-request)" :
		"kmem_cache (slack: cache padding)");
	for (c = 0; c < CS_NR; c++)
		if (on[c])
			fprintf(f, c == CS_CACHE ? "%-*s " : "%*s ", w[c],
				cs_cols[c].head);
	fprintf(f, "site\n");
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		if ((int)s->kind != kind)
			continue;
		for (c = 0; c < CS_NR; c++)
			if (on[c])
				cs_cell(f, c, w[c], s);
		fprintf(f, "%s\n", sa_esc(s->sym));
		sa_text_where(e, 8, s->file, s->line);
		if (e->verbose) {
			char u[48] = "";
			char *l;

			if (s->freed_untraced)
				snprintf(u, sizeof(u), ", untraced frees %"
					 G_GUINT64_FORMAT, s->freed_untraced);
			if (r->accounted_known && s->accounted)
				snprintf(u + strlen(u), sizeof(u) - strlen(u),
					 ", memcg %s", H(s->accounted_bytes));
			l = g_strdup_printf("        req %s, live %"
				G_GUINT64_FORMAT " (waste %s)%s, %s%s%s",
				H(s->bytes_req), s->live, H(s->live_waste), u,
				s->cache ? sa_esc(s->cache) : "",
				s->cache ? ", " : "",
				s->gfp_str ? sa_esc(s->gfp_str) : "-");
			put_cut(e, l);
			g_free(l);
		}
	}
}

/*
 * "most slack": the kmalloc site whose over-request wastes the most, in
 * one line after the tables (a cache's padding is not the caller's to
 * fix). Among every site, not only those shown.
 */
static void most_slack(struct sa_emit *e, const struct sa_callsite_result *r)
{
	const struct sa_site *top = NULL;
	guint i;

	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (s->kind == SA_KIND_KMALLOC && s->slack &&
		    (!top || s->slack > top->slack ||
		     (s->slack == top->slack &&
		      g_strcmp0(s->sym, top->sym) < 0)))
			top = s;
	}
	if (!top)
		return;
	fprintf(e->out, "\n# most slack: %s, %s of %s allocated in %"
		G_GUINT64_FORMAT " allocations (%.1f%%; %.1f%% of all kmalloc "
		"slack)\n", sa_esc(top->sym), H(top->slack),
		H(top->bytes_alloc), top->allocs, top->frag,
		r->total[SA_KIND_KMALLOC].slack ? 100.0 * top->slack /
		r->total[SA_KIND_KMALLOC].slack : 0.0);
}

void sa_text_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_callsite_result *r = result;
	FILE *f = e->out;
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
	for (k = 0; k < SA_KIND_NR; k++)
		cs_table(e, r, k);
	if (r->hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more rows left out "
			"(--top/--min-bytes)\n", r->hidden);
	if (r->by == SA_BY_CALLSITE)
		most_slack(e, r);
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
