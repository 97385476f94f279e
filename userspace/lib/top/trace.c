// SPDX-License-Identifier: GPL-2.0
/*
 * The live tracefs source of slabacct top: a private instance
 * (trace/instance.h: the next slabacct process removes it if we are
 * killed) with the kmem events of the dispatch table on, on the "mono"
 * trace clock where the kernel has it. Its ring buffers are read as they
 * fill (top/stream.c: a reader per CPU), decoded by the report's decoder
 * and fed to the call-site aggregator as they come; each sample first
 * feeds everything up to then, and the aggregator's cumulative rows are
 * the sample. Call sites are named through /proc/kallsyms. Lost: the
 * instance's per-CPU overruns (events the kernel overwrote before a
 * reader took them).
 */
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "report/agg/callsite.h"
#include "report/agg/callsite.h"
#include "util/units.h"
#include "report/pipeline.h"
#include "symbols/symbols.h"
#include "top/top.h"
#include "trace/instance.h"
#include "top/stream.h"
#include "trace/meta.h"

struct trace_src {
	struct sa_instance *own;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct sa_decode *dec;
	struct sa_report_opts opts;
	void *cs;			/* the call-site aggregator's state */
	struct sa_top_stream *stream;	/* feeds cs */
	struct sa_symbols *syms;
	GHashTable *names;		/* call_site -> char * */
	int nr_cpus;
	int enabled;			/* events */
	GPtrArray *rows;		/* of the sample being taken */
};

static void feed(struct sa_rec *r, void *data)
{
	struct trace_src *t = data;

	sa_agg_callsite.event(t->cs, r);
}

static const char *site_name(struct trace_src *t, const struct sa_site *s)
{
	char *name = g_hash_table_lookup(t->names,
					 (gpointer)(uintptr_t)s->call_site);
	struct sa_sym sym = { 0 };

	if (name)
		return name;
	if (s->call_site && t->syms)
		sa_symbols_lookup(t->syms, s->call_site, &sym);
	name = sa_sym_format(&sym, s->call_site);
	g_hash_table_insert(t->names, (gpointer)(uintptr_t)s->call_site,
			    name);
	return name;
}

/* The aggregator's rows now (no record is fed meanwhile). */
static void take_rows(void *data)
{
	struct trace_src *t = data;
	struct sa_site *s;
	guint32 i;

	for (i = 0; (s = sa_callsite_site(t->cs, i)); i++) {
		if (!s->allocs)
			continue;
		sa_site_derive(s);
		sa_top_row_add(t->rows, &(struct sa_top_row){
			.site = (char *)site_name(t, s),
			.kind = sa_kind_name(s->kind), .allocs = s->allocs,
			.frees = s->frees, .bytes_alloc = s->bytes_alloc,
			.bytes_req = s->bytes_req, .slack = s->slack,
			.live = s->live, .live_bytes = s->live_alloc });
	}
}

static int trace_sample(struct sa_top_source *src, GPtrArray *rows,
			guint64 *lost, GError **err)
{
	struct trace_src *t = src->priv;
	int c, ret;

	/* every event up to now, then the rows */
	t->rows = rows;
	ret = sa_top_stream_sync(t->stream, take_rows, t, err);
	t->rows = NULL;
	if (ret)
		return -1;
	*lost = 0;
	for (c = 0; c < t->nr_cpus; c++) {
		char *f = g_strdup_printf("per_cpu/cpu%d/stats", c);
		char *text = tracefs_instance_file_read(t->inst, f, NULL);

		if (text)
			*lost += sa_cpu_stats_lost(text);
		free(text);
		g_free(f);
	}
	return 0;
}

static void trace_close(struct sa_top_source *src)
{
	struct trace_src *t = src->priv;

	if (t->inst)
		tracefs_trace_off(t->inst);
	/* its readers keep the instance busy */
	sa_top_stream_free(t->stream);
	sa_instance_destroy(t->own);
	if (t->cs)
		sa_agg_callsite.destroy(t->cs);
	if (t->names)
		g_hash_table_destroy(t->names);
	sa_symbols_free(t->syms);
	sa_decode_free(t->dec);
	if (t->tep) {
		sa_kallsyms_forget(t->tep);
		tep_free(t->tep);
	}
	g_free(t);
	g_free(src->desc);
	g_free(src);
}

static void fail(GError **err, int e, const char *what)
{
	g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s",
		    what, g_strerror(e));
}

/* The filter of -p/-c, or NULL for none. */
static char *filter_expr(const struct sa_top_trace_opts *o)
{
	if (o->pid && o->comm)
		return g_strdup_printf("common_pid == %d && comm == \"%s\"",
				       o->pid, o->comm);
	if (o->pid)
		return g_strdup_printf("common_pid == %d", o->pid);
	if (o->comm)
		return g_strdup_printf("comm == \"%s\"", o->comm);
	return NULL;
}

/* Enable row's event, with the filter if any; 0 or -1 with *err. */
static int enable(struct trace_src *t, const struct sa_event_desc *row,
		  const char *filter, GError **err)
{
	if (tracefs_event_enable(t->inst, row->system, row->name))
		return 0;	/* not here: a kernel without it */
	if (filter && tracefs_event_file_write(t->inst, row->system,
					       row->name, "filter",
					       filter) < 0) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "the kernel refused the filter '%s' for %s:%s",
			    filter, row->system, row->name);
		return -1;
	}
	t->enabled++;
	return 0;
}

struct sa_top_source *sa_top_source_trace(const struct sa_top_trace_opts *o,
					  GError **err)
{
	static const char *const systems[] = { "kmem", NULL };
	struct sa_top_source *src = g_new0(struct sa_top_source, 1);
	struct trace_src *t = g_new0(struct trace_src, 1);
	const struct sa_event_desc *row;
	char *kallsyms = NULL, *filter = filter_expr(o);
	bool mono;

	src->priv = t;
	src->sample = trace_sample;
	src->close = trace_close;
	t->nr_cpus = sa_trace_nr_cpus();
	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep) {
		fail(err, errno ? errno : ENOENT, "reading the kmem event "
		     "formats from tracefs");
		goto error;
	}
	if (g_file_get_contents("/proc/kallsyms", &kallsyms, NULL, NULL)) {
		tep_parse_kallsyms(t->tep, kallsyms);
		g_free(kallsyms);
	}
	t->syms = sa_symbols_new(t->tep, NULL, NULL, NULL);
	t->dec = sa_decode_new(t->tep, NULL, NULL);
	t->cs = sa_agg_callsite.create(&t->opts, NULL);
	t->names = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);

	t->own = sa_instance_create(err);
	if (!t->own)
		goto error;
	t->inst = t->own->inst;
	src->desc = g_strdup_printf("tracefs instance %s", t->own->name);
	src->instance = t->own->dir;
	tracefs_trace_off(t->inst);
	if (o->buffer_kb > 0)
		tracefs_instance_set_buffer_size(t->inst, o->buffer_kb, -1);
	/* stamps comparable with CLOCK_MONOTONIC, for the merge's rounds */
	mono = tracefs_instance_file_write(t->inst, "trace_clock", "mono") > 0;
	/*
	 * The readers wake when a CPU's buffer is this full (the kernel's
	 * default is 50): more room left for a reader that is slow to run.
	 */
	tracefs_instance_file_write(t->inst, "buffer_percent", "25");
	for (row = sa_event_table(); row->name; row++) {
		if (strcmp(row->system, "kmem") ||
		    !tep_find_event_by_name(t->tep, row->system, row->name))
			continue;
		if (row->ev != SA_EV_KMALLOC && row->ev != SA_EV_KFREE &&
		    row->ev != SA_EV_CACHE_ALLOC && row->ev != SA_EV_CACHE_FREE)
			continue;
		if (enable(t, row, filter, err))
			goto error;
	}
	if (!t->enabled) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "no kmem allocation event could be enabled");
		goto error;
	}
	t->stream = sa_top_stream_start(t->inst, t->nr_cpus, t->tep, t->dec,
					mono, feed, t, err);
	if (!t->stream)
		goto error;
	if (tracefs_trace_on(t->inst)) {
		fail(err, errno, "starting the trace");
		goto error;
	}
	g_free(filter);
	return src;
error:
	g_free(filter);
	trace_close(src);
	return NULL;
}
