// SPDX-License-Identifier: GPL-2.0
/*
 * What a recording lets through (trace/recorder-filters.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <event-parse.h>

#include "trace/recorder-filters.h"
#include "trace/meta.h"
#include "trace/stack.h"
#include "trace/tracedat-format.h"

/* The kernel takes a trigger of less than a page. */
#define TRIGGER_MAX	4000

static int fail(GError **err, const char *what)
{
	int e = errno;

	g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e), "%s: %s", what,
		    g_strerror(e));
	return -1;
}

static gint cmp_int(gconstpointer a, gconstpointer b)
{
	return *(const int *)a - *(const int *)b;
}

/* The threads of this process now: the main thread and the readers. */
static GArray *own_threads(void)
{
	GArray *tids = g_array_new(FALSE, FALSE, sizeof(int));
	GDir *d = g_dir_open("/proc/self/task", 0, NULL);
	const char *n;
	int t;

	while (d && (n = g_dir_read_name(d))) {
		t = atoi(n);
		if (t > 0)
			g_array_append_val(tids, t);
	}
	if (d)
		g_dir_close(d);
	if (!tids->len) {
		t = gettid();
		g_array_append_val(tids, t);
	}
	g_array_sort(tids, cmp_int);
	return tids;
}

/*
 * Leave the recorder's own threads out of the trace (their splice reads
 * are events too), as trace-cmd does: by set_event_notrace_pid where
 * tracefs has it, else by an event filter on common_pid (*by_filter is
 * then set to the thread ids, for apply_filters). Said in the origin.
 */
static int leave_out_self(struct tracefs_instance *inst,
			  struct sa_tracedat *td,
			  const struct sa_record_opts *o, GArray **by_filter,
			  GError **err)
{
	GArray *tids;
	GString *list;
	bool notrace;
	char *text;
	guint i;
	int ret = 0;

	*by_filter = NULL;
	if (o->trace_self)
		return 0;
	tids = own_threads();
	list = g_string_new(NULL);
	for (i = 0; i < tids->len; i++)
		g_string_append_printf(list, "%s%d", i ? " " : "",
				       g_array_index(tids, int, i));
	notrace = !o->self_by_filter &&
		  tracefs_file_exists(inst, "set_event_notrace_pid");
	if (notrace && tracefs_instance_file_write(inst,
			"set_event_notrace_pid", list->str) < 0)
		ret = fail(err, "cannot write set_event_notrace_pid");
	text = g_strdup_printf("recorder threads, pids %s (%s)", list->str,
			       notrace ? "set_event_notrace_pid" :
			       "event filter on common_pid");
	sa_tracedat_set_origin(td, SA_ORIGIN_LEFT_OUT, text);
	g_free(text);
	g_string_free(list, TRUE);
	if (notrace || ret)
		g_array_unref(tids);
	else
		*by_filter = tids;
	return ret;
}

/*
 * The filter for one event: the conditions on fields it has, and
 * without the threads in self (NULL: none).
 */
static char *event_filter(const struct sa_record_opts *o,
			  struct tep_event *ev, GArray *self)
{
	GPtrArray *parts = g_ptr_array_new_with_free_func(g_free);
	char *expr;
	guint i;

	if (o->pid)
		g_ptr_array_add(parts, g_strdup_printf("common_pid == %d",
						       o->pid));
	if (o->comm)
		g_ptr_array_add(parts, g_strdup_printf("comm == \"%s\"",
						       o->comm));
	if (o->gfp_mask && ev && tep_find_any_field(ev, "gfp_flags"))
		g_ptr_array_add(parts, g_strdup_printf(
			"gfp_flags & 0x%" G_GINT64_MODIFIER "x", o->gfp_mask));
	/* an allocation, by its shape: a free's call_site is the freer's */
	if (o->site_hi && ev && tep_find_any_field(ev, "call_site") &&
	    tep_find_any_field(ev, "bytes_alloc"))
		g_ptr_array_add(parts, g_strdup_printf(
			"call_site >= 0x%" G_GINT64_MODIFIER "x && "
			"call_site < 0x%" G_GINT64_MODIFIER "x",
			o->site_lo, o->site_hi));
	for (i = 0; self && i < self->len; i++)
		g_ptr_array_add(parts, g_strdup_printf("common_pid != %d",
				g_array_index(self, int, i)));
	g_ptr_array_add(parts, NULL);
	expr = parts->len > 1 ? g_strjoinv(" && ", (char **)parts->pdata)
			      : NULL;
	g_ptr_array_unref(parts);
	return expr;
}

/* The filters, in the origin: in words, and each by its option */
static void filters_origin(struct sa_tracedat *td,
			   const struct sa_record_opts *o)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	char *s;

	if (o->pid) {
		s = g_strdup_printf("%d", o->pid);
		sa_tracedat_set_origin(td, SA_ORIGIN_FILTER_PID, s);
		g_ptr_array_add(words, g_strdup_printf("pid %s (every event)",
						       s));
		g_free(s);
	}
	if (o->comm) {
		sa_tracedat_set_origin(td, SA_ORIGIN_FILTER_COMM, o->comm);
		g_ptr_array_add(words, g_strdup_printf("comm %s (every event)",
						       o->comm));
	}
	if (o->gfp_mask) {
		s = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", o->gfp_mask);
		sa_tracedat_set_origin(td, SA_ORIGIN_FILTER_GFP, s);
		g_ptr_array_add(words, g_strdup_printf("gfp_flags & %s "
						       "(allocations)", s));
		g_free(s);
	}
	if (o->site_hi) {
		s = o->site_name ? g_strdup(o->site_name) :
		    g_strdup_printf("0x%" G_GINT64_MODIFIER "x", o->site_lo);
		sa_tracedat_set_origin(td, SA_ORIGIN_FILTER_CALL_SITE, s);
		g_ptr_array_add(words, g_strdup_printf("call site %s [0x%"
				G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
				"x) (allocations; frees unfiltered)", s,
				o->site_lo, o->site_hi));
		g_free(s);
	}
	g_ptr_array_add(words, NULL);
	if (words->len > 1) {
		s = g_strjoinv("; ", (char **)words->pdata);
		sa_tracedat_set_origin(td, SA_ORIGIN_FILTER, s);
		g_free(s);
	}
	g_ptr_array_unref(words);
}

/* "call_site >= 0x.. && call_site < 0x.. || ..." for the ranges. */
static char *ranges_expr(GArray *ranges)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < ranges->len; i++) {
		const struct sa_addr_range *r =
			&g_array_index(ranges, struct sa_addr_range, i);

		g_string_append_printf(s, "%s(call_site >= 0x%" G_GINT64_MODIFIER
				       "x && call_site < 0x%" G_GINT64_MODIFIER
				       "x)", i ? " || " : "", r->lo, r->hi);
	}
	return g_string_free(s, FALSE);
}

/*
 * Kernel stacks (trace/recorder.h, enum sa_stacks): the stacktrace
 * option, or a stacktrace trigger on each allocation event whose filter
 * is the wrappers' ranges and the event's own filter (filter; a trigger
 * runs on events the filter drops). Said in the origin.
 */
static int set_stacks(struct tracefs_instance *inst,
		      const struct sa_record_opts *o, const char *system,
		      const char *name, struct tep_event *ev,
		      const char *filter, GError **err)
{
	/* the allocations with no call site: a stack after each */
	bool page = ev && (!strcmp(name, "mm_page_alloc") ||
			   !strcmp(name, "alloc_vmap_area"));
	char *cond = NULL, *trig;
	int ret = 0;

	if (o->stacks != SA_STACKS_WRAPPERS || !ev)
		return 0;
	if (!page && !(tep_find_any_field(ev, "call_site") &&
		       tep_find_any_field(ev, "bytes_alloc")))
		return 0;
	if (!page && (!o->stack_ranges || !o->stack_ranges->len))
		return 0;
	if (!page)
		cond = ranges_expr(o->stack_ranges);
	if (cond && filter)
		trig = g_strdup_printf("stacktrace if (%s) && (%s)", cond,
				       filter);
	else if (cond || filter)
		trig = g_strdup_printf("stacktrace if %s", cond ? cond : filter);
	else
		trig = g_strdup("stacktrace");
	if (strlen(trig) >= TRIGGER_MAX) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "the stack trigger for %s:%s is %zu bytes, more than "
			    "the kernel takes (fewer --wrapper, or --stacks=all)",
			    system, name, strlen(trig));
		ret = -1;
	} else if (tracefs_event_file_write(inst, system, name, "trigger",
					    trig) < 0) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "the kernel refused the trigger '%s' for %s:%s",
			    trig, system, name);
		ret = -1;
	}
	g_free(cond);
	g_free(trig);
	return ret;
}

static void stacks_origin(struct sa_tracedat *td,
			  const struct sa_record_opts *o)
{
	char *s;

	if (o->stacks == SA_STACKS_ALL) {
		sa_tracedat_set_origin(td, SA_ORIGIN_STACKS, "all");
	} else if (o->stacks == SA_STACKS_WRAPPERS) {
		s = g_strdup_printf("wrappers (%u address ranges)",
				    o->stack_ranges ? o->stack_ranges->len : 0);
		sa_tracedat_set_origin(td, SA_ORIGIN_STACKS, s);
		g_free(s);
	}
}

static int apply_filters(struct tracefs_instance *inst,
			 struct sa_tracedat *td, GPtrArray *events,
			 const struct sa_record_opts *o, GArray *self,
			 GError **err)
{
	struct tep_handle *tep;
	guint i;
	int ret = 0;

	filters_origin(td, o);
	stacks_origin(td, o);
	if (o->stacks == SA_STACKS_ALL &&
	    tracefs_option_enable(inst, TRACEFS_OPTION_STACKTRACE)) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "cannot set the stacktrace option of the instance");
		return -1;
	}
	if (!o->pid && !o->comm && !o->gfp_mask && !o->site_hi && !self &&
	    o->stacks != SA_STACKS_WRAPPERS)
		return 0;
	tep = sa_trace_meta_tep(events);
	for (i = 0; i < events->len && !ret; i++) {
		struct sa_event_ref *e = events->pdata[i];
		struct tep_event *ev = tep ? tep_find_event_by_name(tep,
						e->system, e->name) : NULL;
		char *expr = event_filter(o, ev, self);

		if (expr && tracefs_event_file_write(inst, e->system,
						     e->name, "filter",
						     expr) < 0) {
			g_set_error(err, G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the kernel refused the filter '%s' for "
				    "%s:%s", expr, e->system, e->name);
			ret = -1;
		}
		if (!ret)
			ret = set_stacks(inst, o, e->system, e->name, ev, expr,
					 err);
		g_free(expr);
	}
	tep_free(tep);
	return ret;
}

int sa_recorder_filters_set(struct tracefs_instance *inst,
			    struct sa_tracedat *td, GPtrArray *events,
			    const struct sa_record_opts *o, GError **err)
{
	GArray *self = NULL;
	int ret;

	ret = leave_out_self(inst, td, o, &self, err);
	if (!ret)
		ret = apply_filters(inst, td, events, o, self, err);
	if (self)
		g_array_unref(self);
	return ret;
}
