// SPDX-License-Identifier: GPL-2.0
/*
 * The report: its model (notes, failure), the pipeline that feeds the
 * aggregators of the selected sections, and a trace.dat read into it
 * (trace/reader.h hands the records over in timestamp order).
 */
#include <stdarg.h>
#include <string.h>

#include <trace-cmd.h>

#include "procfs/allocinfo.h"
#include "procfs/hist.h"
#include "trace/kallsyms.h"
#include "util/notes.h"
#include "report/report.h"
#include "report/pipeline.h"
#include "report/vmlinux.h"
#include "symbols/symbols.h"
#include "trace/reader.h"

void sa_pipeline_init(struct sa_pipeline *p, struct sa_report *rep)
{
	int i, e;

	memset(p, 0, sizeof(*p));
	p->rep = rep;
	for (i = 0; i < SA_SEC_NR; i++) {
		const struct sa_agg *agg = sa_report_table[i].agg;

		/* the callsite row (0) feeds the others: always run it;
		 * coverage too where the trace has its end's slabinfo, for
		 * the header's line */
		if (!(rep->sections & (1u << i)) && i != 0 &&
		    !(i == SA_SEC_COVERAGE && rep->origin.snapshot_end))
			continue;
		p->state[i] = agg->create(rep->opts, p);
		for (e = 0; e < SA_EV_NR; e++)
			if (agg->events & SA_EVBIT(e)) {
				int n = p->nr_disp[e]++;

				p->disp[e][n].agg = agg;
				p->disp[e][n].state = p->state[i];
			}
	}
}

void sa_pipeline_feed(struct sa_pipeline *p, struct sa_rec *r)
{
	int i;

	p->rep->ev_count[r->ev]++;
	for (i = 0; i < p->nr_disp[r->ev]; i++)
		p->disp[r->ev][i].agg->event(p->disp[r->ev][i].state, r);
}

void sa_pipeline_abort(struct sa_pipeline *p)
{
	int i;

	for (i = 0; i < SA_SEC_NR; i++)
		if (p->state[i])
			sa_report_table[i].agg->destroy(p->state[i]);
}

void sa_pipeline_finish(struct sa_pipeline *p)
{
	struct sa_report *rep = p->rep;
	int i;

	for (i = 0; i < SA_SEC_NR; i++) {
		const struct sa_agg *agg = sa_report_table[i].agg;

		if (!p->state[i])
			continue;
		if (i == 0 || i == SA_SEC_COVERAGE ||
		    (rep->sections & (1u << i)))
			rep->result[i] = agg->finish(p->state[i], rep);
	}
	sa_pipeline_abort(p);
}

static void origin_fill(struct sa_report *rep, struct tep_handle *tep)
{
	struct sa_trace_origin *o = &rep->origin;

	if (!o->nr_cpus)
		o->nr_cpus = tep_get_cpus(tep);
	if (!o->start_ns)
		o->start_ns = rep->first_ts;
	if (!o->end_ns)
		o->end_ns = rep->last_ts;
}

static void notes_fill(struct sa_report *rep)
{
	GPtrArray *filter_notes = sa_trace_origin_notes(&rep->origin);
	guint i;
	int e;

	for (i = 0; i < filter_notes->len; i++)
		sa_report_note(rep, "%s", (char *)filter_notes->pdata[i]);
	g_ptr_array_unref(filter_notes);
	if (!rep->ev_present[SA_EV_KMALLOC] &&
	    !rep->ev_present[SA_EV_CACHE_ALLOC] &&
	    !rep->ev_present[SA_EV_KFREE] &&
	    !rep->ev_present[SA_EV_CACHE_FREE]) {
		const char *areas = sa_report_area_records(rep);

		guint32 area_secs = SA_SECBIT(SA_SEC_VMALLOC) |
				    SA_SECBIT(SA_SEC_PERCPU);

		if (areas)
			sa_report_note(rep, "the trace has no kmem events "
				       "(record with -e kmem), only %s ones%s",
				       areas, rep->sections & ~area_secs ?
				       " (report --what vmalloc,percpu)" : "");
		else
			sa_report_note(rep, "the trace has no kmem events "
				       "(record with -e kmem)");
		return;
	}
	for (e = 0; e <= SA_EV_CACHE_FREE; e++)	/* the kmem ids */
		if (!rep->ev_present[e])
			sa_report_note(rep, "the trace has no kmem:%s events"
				       "%s", sa_ev_name(e),
				       e == SA_EV_KFREE || e == SA_EV_CACHE_FREE ?
				       ": objects freed by it look live" : "");
	if (sa_report_no_kmem(rep))
		sa_report_note(rep, "the trace has kmem event formats but "
			       "no kmem records");
}

static bool same_alloc_name(const char *name, void *data)
{
	char a[128], b[128];

	return !strcmp(sa_sym_alloc_name(name, a, sizeof(a)),
		       sa_sym_alloc_name(data, b, sizeof(b)));
}

/* The --wrapper names the trace's kernel does not have, as notes. */
static void wrappers_check(struct sa_report *rep, struct tep_handle *tep)
{
	const char *const *n;

	for (n = rep->opts ? rep->opts->wrapper_names : NULL; n && *n; n++)
		if (!sa_kallsyms_any(tep, same_alloc_name, (void *)*n))
			sa_report_note(rep, "--wrapper %s: the trace's kallsyms "
				       "has no such function", *n);
}

struct read_ctx {
	struct sa_report *rep;
	struct sa_pipeline p;
	bool started;
};

static int on_opened(void *data, struct tep_handle *tep, GError **err)
{
	struct read_ctx *c = data;
	struct sa_report *rep = c->rep;
	const struct sa_report_opts *opts = rep->opts;
	int ret;

	sa_kallsyms_skip(true);		/* the origin needs no symbols */
	ret = sa_trace_origin_read(rep->file, &rep->origin, err);
	sa_kallsyms_skip(false);
	if (ret)
		return -1;
	if (opts && opts->vmlinux &&
	    sa_report_vmlinux_check(rep, opts->vmlinux, opts->force_vmlinux,
				    err))
		return -1;
	rep->origin_known = true;
	/*
	 * Symbols now: the call-site aggregator attributes allocations
	 * through wrappers by their stacks while the trace is read.
	 */
	rep->syms = sa_symbols_new(tep, opts ? opts->vmlinux : NULL,
				   opts ? opts->build_tree : NULL, err);
	if (!rep->syms)
		return -1;
	/* and the formats: what a kmalloc's gfp_flags say of memcg charges */
	rep->tep = tep;
	wrappers_check(rep, tep);
	return 0;
}

static void on_record(void *data, struct sa_rec *r)
{
	struct read_ctx *c = data;

	if (!c->started) {
		sa_pipeline_init(&c->p, c->rep);
		c->started = true;
	}
	sa_pipeline_feed(&c->p, r);
}

static bool on_stopped(void *data)
{
	struct read_ctx *c = data;

	return c->rep->error != NULL;
}

static int on_done(void *data, struct tep_handle *tep,
		   const struct sa_read_counts *rc, GError **err)
{
	struct read_ctx *c = data;
	struct sa_report *rep = c->rep;
	const struct sa_report_opts *opts = rep->opts;

	rep->nr_records = rc->nr_records;
	rep->nr_used = rc->nr_used;
	rep->missed_events = rc->missed_events;
	rep->missed_pages_unknown = rc->missed_pages_unknown;
	rep->first_ts = rc->first_ts;
	rep->last_ts = rc->last_ts;
	rep->stacks = rc->stacks;
	rep->stacks_lost = rc->stacks_lost;
	if (!c->started) {
		sa_pipeline_init(&c->p, rep);
		c->started = true;
	}
	notes_fill(rep);
	origin_fill(rep, tep);
	rep->tep = tep;
	if (!rep->syms)
		rep->syms = sa_symbols_new(tep, opts ? opts->vmlinux : NULL,
					   opts ? opts->build_tree : NULL, err);
	if (!rep->syms)
		return -1;
	sa_pipeline_finish(&c->p);
	c->started = false;
	rep->tep = NULL;
	sa_symbols_free(rep->syms);
	rep->syms = NULL;
	return 0;
}

struct sa_report *sa_report_read(const char *path, guint32 sections,
				 const struct sa_report_opts *opts,
				 GError **err)
{
	struct read_ctx c = { 0 };
	struct sa_read_opts ro = { 0 };
	struct sa_read_sink sink = {
		.opened = on_opened, .record = on_record,
		.stopped = on_stopped, .done = on_done,
	};
	int ret;

	c.rep = sa_report_new(path, sections, opts);
	if (opts) {
		ro.threads = opts->threads;
		ro.no_raw = opts->no_raw;
		ro.progress = opts->progress;
		ro.progress_data = opts->progress_data;
	}
	sink.ev_present = c.rep->ev_present;
	sink.notes = c.rep->notes;
	sink.data = &c;
	ret = sa_trace_read(path, &ro, &sink, err);
	if (c.started)
		sa_pipeline_abort(&c.p);
	sa_symbols_free(c.rep->syms);
	c.rep->syms = NULL;
	c.rep->tep = NULL;
	if (ret > 0 && c.rep->error) {
		g_propagate_error(err, c.rep->error);
		c.rep->error = NULL;
	}
	if (ret) {
		sa_report_free(c.rep);
		return NULL;
	}
	return c.rep;
}

void sa_report_free(struct sa_report *rep)
{
	int i;

	if (!rep)
		return;
	for (i = 0; i < SA_SEC_NR; i++)
		if (rep->result[i] && sa_report_table[i].agg->free_result)
			sa_report_table[i].agg->free_result(rep->result[i]);
	g_ptr_array_free(rep->notes, TRUE);
	g_free(rep->account);
	sa_allocinfo_free(rep->allocinfo);
	sa_hist_free(rep->hist);
	g_free(rep->allocinfo_head);
	g_clear_error(&rep->error);
	sa_trace_origin_clear(&rep->origin);
	g_free(rep->file);
	g_free(rep);
}
