// SPDX-License-Identifier: GPL-2.0
/*
 * --format openmetrics and --format prometheus: a report's call sites as
 * metrics for a monitoring system (node_exporter's textfile collector,
 * then Prometheus), named by Prometheus's conventions: slabacct_ prefix,
 * base units in the name (_bytes), counters ending in _total, one HELP
 * and TYPE per family. The rows are the report's view (--top, --sort:
 * bounded label cardinality); what it leaves out is summed in one
 * site="other" series per kind, so sum() over a family is the total.
 *
 *   openmetrics  OpenMetrics 1.0 text: a counter family is named
 *                without _total and its sample with it, families in
 *                bytes or seconds have a UNIT line, an info family,
 *                and # EOF
 *   prometheus   the text format 0.0.4 that node_exporter's textfile
 *                collector (and promtool) parse: the TYPE of a counter
 *                names the sample itself, no UNIT, no # EOF
 *
 * Label values are the names as every text output prints them
 * (util/escape.h: control characters and bytes that are not UTF-8 as
 * \xNN), then escaped for the format (backslash, double quote).
 */
#include <string.h>

#include "procfs/account.h"
#include "emit/emit.h"
#include "report/diff.h"
#include "report/merge.h"
#include "report/sort.h"

#define U G_GUINT64_FORMAT

enum om_type { OM_COUNTER, OM_GAUGE, OM_INFO, OM_SUMMARY };

struct om {
	FILE *f;
	bool om;			/* OpenMetrics, else text 0.0.4 */
};

/* "# HELP", "# TYPE" (and "# UNIT") of a family; counters' samples end
 * in _total, an info family's in _info. */
static void family(const struct om *o, const char *name, enum om_type t,
		   const char *help)
{
	static const char *const types[] = { "counter", "gauge", "info",
					     "summary" };
	const char *suffix = !o->om && t == OM_COUNTER ? "_total" :
			     !o->om && t == OM_INFO ? "_info" : "";

	fprintf(o->f, "# HELP %s%s %s\n", name, suffix, help);
	fprintf(o->f, "# TYPE %s%s %s\n", name, suffix,
		!o->om && t == OM_INFO ? "gauge" : types[t]);
	if (o->om && g_str_has_suffix(name, "_bytes"))
		fprintf(o->f, "# UNIT %s bytes\n", name);
	if (o->om && g_str_has_suffix(name, "_seconds"))
		fprintf(o->f, "# UNIT %s seconds\n", name);
}

/* A label value: escaped as text prints it, then for the format. */
static void label_value(FILE *f, const char *s)
{
	const char *p;

	for (p = sa_esc(s ? s : ""); *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', f);
		fputc(*p, f);
	}
}

static void sample_name(const struct om *o, const char *name, enum om_type t)
{
	fprintf(o->f, "%s%s", name, t == OM_COUNTER ? "_total" :
		t == OM_INFO ? "_info" : "");
}

struct site_metric {
	const char *name;
	enum om_type type;
	const char *help;
};

static const struct site_metric site_metrics[] = {
	{ "slabacct_site_allocated_bytes", OM_COUNTER,
	  "Bytes allocated (slot sizes) by the call site." },
	{ "slabacct_site_requested_bytes", OM_COUNTER,
	  "Bytes the call site requested." },
	{ "slabacct_site_slack_bytes", OM_COUNTER,
	  "Bytes allocated minus bytes requested by the call site." },
	{ "slabacct_site_allocations", OM_COUNTER,
	  "Allocations by the call site." },
	{ "slabacct_site_frees", OM_COUNTER,
	  "Frees of the call site's objects." },
	{ "slabacct_site_live_bytes", OM_GAUGE,
	  "Bytes of the call site's objects not freed (at the end of the "
	  "trace)." },
	{ "slabacct_site_live_objects", OM_GAUGE,
	  "The call site's objects not freed (at the end of the trace)." },
};

static guint64 site_value(int m, const struct sa_site *s,
			  const struct sa_totals *t)
{
	switch (m) {
	case 0: return s ? s->bytes_alloc : t->bytes_alloc;
	case 1: return s ? s->bytes_req : t->bytes_req;
	case 2: return s ? s->slack : t->slack;
	case 3: return s ? s->allocs : t->allocs;
	case 4: return s ? s->frees : t->frees;
	case 5: return s ? s->live_alloc : t->live_alloc;
	default: return s ? s->live : t->live;
	}
}

static void site_sample(const struct om *o, int m, const char *site,
			int kind, guint64 v)
{
	sample_name(o, site_metrics[m].name, site_metrics[m].type);
	fputs("{site=\"", o->f);
	label_value(o->f, site);
	fprintf(o->f, "\",kind=\"%s\"} %" U "\n", sa_kind_name(kind), v);
}

/*
 * Whether the recording stopped early (1, with its reason as a label, and
 * when), or ran to its end (0): a loss, as lost events are.
 */
static void truncated(const struct om *o, const struct sa_trace_origin *t)
{
	family(o, "slabacct_trace_truncated", OM_GAUGE, "1 when the "
	       "recording stopped early (a full disk, a signal before the "
	       "workload ended): the figures are incomplete.");
	if (!t->truncated) {
		fputs("slabacct_trace_truncated 0\n", o->f);
		return;
	}
	fputs("slabacct_trace_truncated{why=\"", o->f);
	label_value(o->f, t->truncated);
	fputs("\"} 1\n", o->f);
	if (!t->truncated_at_known)
		return;
	family(o, "slabacct_trace_truncated_at_seconds", OM_GAUGE,
	       "When the recording stopped early, from its start.");
	fprintf(o->f, "slabacct_trace_truncated_at_seconds %" U ".%09" U
		"\n", t->truncated_ns / 1000000000,
		t->truncated_ns % 1000000000);
}

/* A family of one sample without labels. */
static void simple(const struct om *o, const char *name, enum om_type t,
		   const char *help, guint64 v)
{
	family(o, name, t, help);
	sample_name(o, name, t);
	fprintf(o->f, " %" U "\n", v);
}

void sa_openmetrics_emit(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	struct om o = { e->out, e->fmt == SA_FMT_OPENMETRICS };
	struct sa_totals rest[SA_KIND_NR];
	guint i;
	int m, k;

	/* where the figures come from */
	family(&o, "slabacct", OM_INFO, "What the figures were taken from.");
	sample_name(&o, "slabacct", OM_INFO);
	fprintf(o.f, "{source=\"%s\"", rep->account ? "proc_slab_account" :
		"trace");
	if (!rep->account && rep->origin.kernel_release) {
		fputs(",kernel_release=\"", o.f);
		label_value(o.f, rep->origin.kernel_release);
		fputc('"', o.f);
	}
	fputs("} 1\n", o.f);
	if (rep->account) {
		const struct sa_account_head *h = rep->account;

		simple(&o, "slabacct_module_dropped_allocations", OM_COUNTER,
		       "Allocations slab_account.ko could not account: its "
		       "call-site table was full.", h->dropped);
		simple(&o, "slabacct_module_untracked_allocations",
		       OM_COUNTER, "Allocations not tracked as live: the "
		       "module's live-object map was full.", h->map_full);
		simple(&o, "slabacct_module_untracked_frees", OM_COUNTER,
		       "Frees of objects the module did not track.",
		       h->untracked_frees);
		simple(&o, "slabacct_module_lost_frees", OM_COUNTER,
		       "Tracked objects freed without an event.",
		       h->lost_frees);
		/* only when the snapshot has them (newer modules) */
		if (h->slow_known) {
			simple(&o, "slabacct_module_slow_allocations",
			       OM_COUNTER, "Allocations the module's probes "
			       "accounted on their slower path (a site's "
			       "first, a site away from its home slot, a "
			       "wrapper's, a large kmalloc).", h->slow_sites);
			simple(&o, "slabacct_module_slow_objects", OM_COUNTER,
			       "Objects the module tracked away from their "
			       "home slot of its live-object map.",
			       h->slow_objects);
			simple(&o, "slabacct_module_slow_frees", OM_COUNTER,
			       "Frees whose object was not at its home slot, "
			       "untracked frees included.", h->slow_frees);
		}
	} else {
		/* lost events are in every output: unknown is not 0 */
		if (rep->origin.lost_known)
			simple(&o, "slabacct_lost_events", OM_COUNTER,
			       "Events the ring buffer lost while recording: "
			       "the figures are incomplete when above 0.",
			       rep->origin.lost_total);
		/* kernel stacks: attached, and those no event may have */
		if (rep->stacks || rep->stacks_lost) {
			simple(&o, "slabacct_kernel_stacks", OM_COUNTER,
			       "Kernel stacks in the trace attached to their "
			       "events.", rep->stacks);
			simple(&o, "slabacct_kernel_stacks_unmatched",
			       OM_COUNTER, "Kernel stacks with no event to "
			       "go to (events lost, or the event has one): "
			       "given to none.", rep->stacks_lost);
		}
		guint64 ns = rep->last_ts > rep->first_ts ?
			     rep->last_ts - rep->first_ts : 0;


		family(&o, "slabacct_trace_duration_seconds", OM_GAUGE,
		       "Time from the trace's first event to its last.");
		fprintf(o.f, "slabacct_trace_duration_seconds %" U ".%09" U
			"\n", ns / 1000000000, ns % 1000000000);
		truncated(&o, &rep->origin);
	}
	if (!r)
		goto out;
	family(&o, "slabacct_sites", OM_GAUGE,
	       "Call sites seen, of each kind.");
	for (k = 0; k < SA_KIND_NR; k++)
		fprintf(o.f, "slabacct_sites{kind=\"%s\"} %" U "\n",
			sa_kind_name(k), r->total[k].sites);
	sa_callsite_rest(r, rest);
	for (m = 0; m < (int)G_N_ELEMENTS(site_metrics); m++) {
		family(&o, site_metrics[m].name, site_metrics[m].type,
		       site_metrics[m].help);
		for (i = 0; i < r->shown->len; i++) {
			const struct sa_site *s = r->shown->pdata[i];
			/* the name without "/0xsize": as a trace names it */
			char *site = sa_diff_key(s->sym, SA_DIFF_BY_SITE);

			site_sample(&o, m, site, s->kind, site_value(m, s,
								     NULL));
			g_free(site);
		}
		for (k = 0; k < SA_KIND_NR; k++)
			if (rest[k].sites)
				site_sample(&o, m, "other", k,
					    site_value(m, NULL, &rest[k]));
	}
out:
	if (o.om)
		fputs("# EOF\n", o.f);
}

/*
 * slabacct merge as metrics: each measure of a call site is a summary over
 * the runs, its quantiles the spread (0: min, 0.5: median, 1: max; a run
 * without the site counts 0), _sum the sum over the runs and _count the
 * runs. The sites are merge's rows (--top); the runs' totals are one
 * summary per measure without a site.
 */
/* a measure's family name after slabacct_merge_site_ (and _total_) */
static const struct {
	const char *name;
	const char *what;
} merge_metrics[SA_MERGE_NR] = {
	[SA_MERGE_BYTES] = { "allocated_bytes", "bytes allocated (slot sizes)" },
	[SA_MERGE_REQ] = { "requested_bytes", "bytes requested" },
	[SA_MERGE_SLACK] = { "slack_bytes",
			     "bytes allocated minus bytes requested" },
	[SA_MERGE_ALLOCS] = { "allocations", "allocations" },
	[SA_MERGE_FREES] = { "frees", "frees" },
	[SA_MERGE_LIVE_BYTES] = { "live_bytes", "bytes not freed" },
	[SA_MERGE_LIVE] = { "live_objects", "objects not freed" },
};

static void spread_samples(const struct om *o, const char *name,
			   const char *site, int kind,
			   const struct sa_spread *v, guint runs)
{
	const struct { const char *q; guint64 v; } qs[] = {
		{ "0", v->min }, { "0.5", v->median }, { "1", v->max },
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(qs); i++) {
		fprintf(o->f, "%s{", name);
		if (site) {
			fputs("site=\"", o->f);
			label_value(o->f, site);
			fprintf(o->f, "\",kind=\"%s\",", sa_kind_name(kind));
		}
		fprintf(o->f, "quantile=\"%s\"} %" U "\n", qs[i].q, qs[i].v);
	}
	fprintf(o->f, "%s_sum", name);
	if (site) {
		fputs("{site=\"", o->f);
		label_value(o->f, site);
		fprintf(o->f, "\",kind=\"%s\"}", sa_kind_name(kind));
	}
	fprintf(o->f, " %" U "\n%s_count", v->sum, name);
	if (site) {
		fputs("{site=\"", o->f);
		label_value(o->f, site);
		fprintf(o->f, "\",kind=\"%s\"}", sa_kind_name(kind));
	}
	fprintf(o->f, " %u\n", runs);
}

int sa_openmetrics_emit_merge(struct sa_emit *e, const struct sa_merge *m)
{
	struct om o = { e->out, e->fmt == SA_FMT_OPENMETRICS };
	guint i, runs = m->runs->len;
	int x;

	family(&o, "slabacct_merge_runs", OM_GAUGE, "Runs merged.");
	fprintf(o.f, "slabacct_merge_runs %u\n", runs);
	/* lost events are in every output: unknown is not 0 */
	if (m->lost_known)
		simple(&o, "slabacct_merge_lost_events", OM_COUNTER,
		       "Events the runs' ring buffers lost, summed: the "
		       "figures are incomplete when above 0.", m->lost);
	family(&o, "slabacct_merge_sites_hidden", OM_GAUGE,
	       "Call sites left out of the site families (--top).");
	fprintf(o.f, "slabacct_merge_sites_hidden %" U "\n", m->hidden);
	for (x = 0; x < SA_MERGE_NR; x++) {
		char *name = g_strdup_printf("slabacct_merge_total_%s",
					     merge_metrics[x].name);
		char *help = g_strdup_printf("A run's total %s: min (quantile "
			"0), median (0.5) and max (1) over the runs, their "
			"sum and count.", merge_metrics[x].what);

		family(&o, name, OM_SUMMARY, help);
		spread_samples(&o, name, NULL, 0, &m->total[x], runs);
		g_free(help);
		g_free(name);
	}
	for (x = 0; x < SA_MERGE_NR; x++) {
		char *name = g_strdup_printf("slabacct_merge_site_%s",
					     merge_metrics[x].name);
		char *help = g_strdup_printf("A call site's %s in a run: min "
			"(quantile 0), median (0.5) and max (1) over the "
			"runs, a run without the site counting 0, their sum "
			"and count.", merge_metrics[x].what);

		family(&o, name, OM_SUMMARY, help);
		for (i = 0; i < m->rows->len; i++) {
			const struct sa_merge_row *r =
				&g_array_index(m->rows, struct sa_merge_row, i);

			spread_samples(&o, name, r->site, r->kind, &r->v[x],
				       runs);
		}
		g_free(help);
		g_free(name);
	}
	if (o.om)
		fputs("# EOF\n", o.f);
	return fflush(o.f) || ferror(o.f) ? -1 : 0;
}

static int metrics_begin(struct sa_emit *e, const struct sa_report *rep)
{
	sa_openmetrics_emit(e, rep);
	return 0;
}

/* the call-site view only, written whole by begin */
const struct sa_format_ops sa_format_openmetrics = {
	.name = "openmetrics", .begin = metrics_begin,
};
const struct sa_format_ops sa_format_prometheus = {
	.name = "prometheus", .begin = metrics_begin,
};
