// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands share (cli/cmd.h): option parsing and --help, output
 * files, the tracefs check, a recording's result, the diff's output.
 * Commands call these, never each other.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gio/gio.h>
#include <tracefs.h>

#include "cli/cmd.h"
#include "emit/emit.h"
#include "util/outfile.h"
#include "util/progress.h"
#include "trace/instance.h"
#include "trace/origin.h"
#include "trace/recorder.h"
#include "util/escape.h"
#include "report/diff.h"
#include "report/diff-stacks.h"
#include "report/report.h"
#include "symbols/attrib.h"
#include "report/threshold.h"
#include "util/textfold.h"

/*
 * --help is ours, not GOption's, so that its text is folded to 80 columns
 * (GOption writes long option descriptions on one line), and so that an
 * optional argument (G_OPTION_FLAG_OPTIONAL_ARG, its placeholder written
 * "[ARG]") reads --long[=ARG], not GOption's --long=[ARG].
 */
static gboolean help_wanted;

void sa_options_help_init(GOptionContext *ctx)
{
	static const GOptionEntry help[] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help_wanted,
		  "show this help", NULL },
		{ NULL },
	};

	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, help, NULL);
}

/* "--long=[ARG]  " becomes "--long[=ARG]  ", in place (same length) */
static void optional_args(char *h)
{
	char *p = h;

	while ((p = strstr(p, "=["))) {
		if (p > h && p[-1] != ' ' && p[-1] != '\n') {
			p[0] = '[';
			p[1] = '=';
		}
		p += 2;
	}
}

void sa_options_help_done(GOptionContext *ctx)
{
	char *h, *f;

	if (!help_wanted)
		return;
	h = g_option_context_get_help(ctx, TRUE, NULL);
	optional_args(h);
	f = sa_text_fold(h, 80);
	fputs(f, stdout);
	g_free(f);
	g_free(h);
	exit(fflush(stdout) ? SA_EXIT_FAIL : SA_EXIT_OK);
}

int sa_text_width_default(bool to_file)
{
	struct winsize ws;

	if (!to_file && isatty(STDOUT_FILENO) &&
	    !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 0;
}

/* The numeric options' values before parsing: to tell those given. */
struct sa_opt_values {
	const GOptionEntry *entries;
	gint64 *v;
};

struct sa_opt_values *sa_options_save(const GOptionEntry *entries)
{
	struct sa_opt_values *s = g_new0(struct sa_opt_values, 1);
	const GOptionEntry *e;
	int n = 0;

	for (e = entries; e->long_name; e++)
		n++;
	s->entries = entries;
	s->v = g_new0(gint64, n ? n : 1);
	for (e = entries, n = 0; e->long_name; e++, n++) {
		if (e->arg == G_OPTION_ARG_INT)
			s->v[n] = *(gint *)e->arg_data;
		else if (e->arg == G_OPTION_ARG_INT64 ||
			 e->arg == G_OPTION_ARG_DOUBLE)
			memcpy(&s->v[n], e->arg_data, 8);
	}
	return s;
}

/*
 * Every number an option takes is a count, a size or a time: given, it
 * must be >= 0, and a real number finite (GLib refuses what overflows
 * an int or a double, but takes "nan" and "inf"). Frees s.
 */
int sa_options_check(const char *cmd, struct sa_opt_values *s)
{
	const GOptionEntry *e;
	int n, ret = 0;

	for (e = s->entries, n = 0; e->long_name && !ret; e++, n++) {
		gint64 now = 0;
		gdouble d;

		if (e->arg == G_OPTION_ARG_INT)
			now = *(gint *)e->arg_data;
		else if (e->arg == G_OPTION_ARG_INT64 ||
			 e->arg == G_OPTION_ARG_DOUBLE)
			memcpy(&now, e->arg_data, 8);
		else
			continue;
		if (now == s->v[n])
			continue;	/* not given, or the default again */
		if (e->arg != G_OPTION_ARG_DOUBLE && now < 0) {
			sa_err(cmd, "--%s takes a number >= 0, not %"
			       G_GINT64_FORMAT, e->long_name, now);
			ret = -1;
		}
		memcpy(&d, &now, 8);
		if (e->arg == G_OPTION_ARG_DOUBLE && (!isfinite(d) || d < 0)) {
			sa_err(cmd, "--%s takes a finite number >= 0, not %g",
			       e->long_name, d);
			ret = -1;
		}
	}
	g_free(s->v);
	g_free(s);
	return ret;
}

int sa_parse_options(int *argc, char ***argv, const char *cmd,
		     const char *params, const char *summary,
		     const char *description, const GOptionEntry *entries)
{
	GOptionContext *ctx = g_option_context_new(params);
	struct sa_opt_values *before = sa_options_save(entries);
	GError *error = NULL;
	gchar *prg = g_strdup_printf("slabacct %s", cmd);
	int ret = 0;

	g_set_prgname(prg);
	g_option_context_set_summary(ctx, summary);
	if (description)
		g_option_context_set_description(ctx, description);
	g_option_context_add_main_entries(ctx, entries, NULL);
	sa_options_help_init(ctx);
	if (!g_option_context_parse(ctx, argc, argv, &error)) {
		sa_err(cmd, "%s (see --help)", error->message);
		g_error_free(error);
		ret = -1;
	} else {
		sa_options_help_done(ctx);
	}
	if (sa_options_check(cmd, before))
		ret = -1;
	g_option_context_free(ctx);
	g_free(prg);
	return ret;
}

int sa_output_opts_get(const char *cmd, const struct sa_output_opts *o,
		       struct sa_outfile_opts *of)
{
	memset(of, 0, sizeof(*of));
	of->mode = SA_OUTFILE_MODE;
	of->follow_symlink = o->follow;
	if (o->mode && sa_outfile_mode_parse(o->mode, &of->mode)) {
		sa_err(cmd, "bad --mode '%s' (octal permission bits, like "
		       "0600 or 0644)", o->mode);
		return -1;
	}
	return 0;
}

void sa_output_opts_clear(struct sa_output_opts *o)
{
	g_free(o->mode);
	o->mode = NULL;
}

void sa_output_error(const char *cmd, const GError *err)
{
	sa_err(cmd, "%s%s", err->message,
	       g_error_matches(err, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS) ?
	       " (--follow-symlinks writes to the file it points to)" : "");
}

int sa_output_open(const char *cmd, const char *path,
		   const struct sa_outfile_opts *o, struct sa_output *out)
{
	GError *err = NULL;
	int fd;

	memset(out, 0, sizeof(*out));
	out->f = stdout;
	if (!path || !strcmp(path, "-"))
		return 0;
	out->path = g_strdup(path);
	out->file = sa_outfile_open(path, o, &err);
	if (!out->file) {
		sa_output_error(cmd, err);
		g_error_free(err);
		out->f = NULL;
		return -1;
	}
	fd = dup(sa_outfile_fd(out->file));
	out->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out->f) {
		sa_err(cmd, "%s: %s", path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		sa_outfile_abort(out->file);
		out->file = NULL;
		return -1;
	}
	return 0;
}

int sa_output_close(const char *cmd, struct sa_output *out, bool ok)
{
	GError *err = NULL;
	int ret = 0;

	if (!out->file) {
		if (out->f == stdout)
			fflush(stdout);
		out->f = NULL;
		goto done;
	}
	if (fclose(out->f) && ok) {
		sa_err(cmd, "%s: %s", out->path, g_strerror(errno));
		ok = false;
		ret = -1;
	}
	out->f = NULL;
	if (!ok) {
		sa_outfile_abort(out->file);
	} else if (sa_outfile_commit(out->file, &err)) {
		sa_output_error(cmd, err);
		g_error_free(err);
		ret = -1;
	}
	out->file = NULL;
done:
	g_free(out->path);
	out->path = NULL;
	return ret;
}

int sa_require_tracefs(const char *cmd)
{
	if (geteuid() != 0) {
		sa_err(cmd, "tracing needs root (run as root, or with sudo)");
		return -1;
	}
	if (!tracefs_tracing_dir()) {
		sa_err(cmd, "tracefs is not available: mount it with "
		       "'mount -t tracefs nodev /sys/kernel/tracing' "
		       "(kernel needs CONFIG_FTRACE)");
		return -1;
	}
	return 0;
}

void sa_end_signals(sigset_t *set)
{
	static const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
		SIGTERM, SIGSTKFLT, SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
	};
	unsigned int i;
	int sig;

	sigemptyset(set);
	for (i = 0; i < G_N_ELEMENTS(sigs); i++)
		sigaddset(set, sigs[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

void sa_stale_instances(const char *cmd, bool remove)
{
	GPtrArray *found = sa_instance_stale(remove);
	guint i;

	for (i = 0; i < found->len; i++) {
		const struct sa_stale_instance *s = found->pdata[i];

		if (s->removed)
			sa_warn(cmd, "removed the tracing instance %s, left by "
				"slabacct process %ld, which was killed before "
				"it could remove it", s->dir, s->pid);
		else
			sa_warn(cmd, "the tracing instance %s was left by "
				"slabacct process %ld, which was killed before "
				"it could remove it: it keeps its ring buffers "
				"(and traces, if it was recording). Remove it "
				"with 'rmdir %s' (slabacct record and top "
				"remove it too)", s->dir, s->pid, s->dir);
		if (s->lock && s->lock_removed)
			sa_warn(cmd, "removed %s, the lock file of the output "
				"that process %ld was writing", s->lock,
				s->pid);
		else if (s->lock)
			sa_warn(cmd, "process %ld left the lock file %s of the "
				"output it was writing: remove it with 'rm %s' "
				"if no process writes that output", s->pid,
				s->lock, s->lock);
	}
	g_ptr_array_unref(found);
}

void sa_print_lost(const char *cmd, const struct sa_record_result *res,
		   const char *advice)
{
	GString *s;
	int cpu;

	/* without its origin section, the file cannot say so */
	if (res->truncated && res->truncated_at_known)
		sa_warn(cmd, "truncated at %.3f s (%s): the recording stopped "
			"early%s", res->truncated_ns / 1e9, res->truncated,
			res->no_origin ? "" : ", and the file says so");
	else if (res->truncated)
		sa_warn(cmd, "truncated (%s): the recording stopped early%s",
			res->truncated,
			res->no_origin ? "" : ", and the file says so");
	if (res->no_buffer)
		sa_warn(cmd, "CPU %s had no ring buffer (the kernel could not "
			"allocate it: at boot, a trace_buf_size too large for "
			"the memory; see dmesg): none of its events were "
			"recorded", res->no_buffer);
	if (res->buffer_failed)
		sa_warn(cmd, "CPU %s did not come up: the kernel could not "
			"allocate its ring buffer (dmesg: \"failed to allocate "
			"ring buffer on CPU %s\"): trace_buf_size was too large "
			"for the memory at its bringup", res->buffer_failed,
			res->buffer_failed);
	if (res->offline)
		fprintf(stderr, "slabacct %s: CPU %s offline (no ring buffer, "
			"nothing to record)\n", cmd, res->offline);
	if (!res->lost_total) {
		fprintf(stderr, "slabacct %s: no events lost%s\n", cmd,
			res->no_buffer ? " on the CPUs with a ring buffer" : "");
		return;
	}
	s = g_string_new(NULL);
	for (cpu = 0; cpu < res->nr_cpus; cpu++)
		if (res->lost[cpu])
			g_string_append_printf(s, "%scpu%d %" G_GUINT64_FORMAT,
					       s->len ? ", " : "", cpu,
					       res->lost[cpu]);
	g_string_append(s, ")");
	/* not the buffer's fault: nobody read it any more */
	if (res->lost_stopped_total)
		g_string_append_printf(s, ", %" G_GUINT64_FORMAT " of them "
				       "after %s and the readers stopped",
				       res->lost_stopped_total,
				       res->disk_full ? "the disk filled" :
				       "a write error");
	sa_warn(cmd, "%" G_GUINT64_FORMAT " events lost (ring buffer "
		"overrun: %s%s%s", res->lost_total, s->str,
		advice ? "; " : "", advice ? advice : "");
	g_string_free(s, TRUE);
}

bool sa_fail_on_trace_loss(const char *cmd, const char *file,
			   const struct sa_trace_origin *o, guint64 missed)
{
	if (o->truncated && o->truncated_at_known)
		sa_err(cmd, "--fail-on-lost: %s was truncated at %.6f s (%s): "
		       "the measurement is incomplete (exit %d)", sa_esc(file),
		       o->truncated_ns / 1e9, sa_esc(o->truncated),
		       SA_EXIT_LOST);
	else if (o->truncated)
		sa_err(cmd, "--fail-on-lost: %s was truncated (%s): the "
		       "measurement is incomplete (exit %d)", sa_esc(file),
		       sa_esc(o->truncated), SA_EXIT_LOST);
	else if (o->lost_known && o->lost_total)
		sa_err(cmd, "--fail-on-lost: %s lost %" G_GUINT64_FORMAT
		       " events: the measurement is incomplete (exit %d)",
		       sa_esc(file), o->lost_total, SA_EXIT_LOST);
	else if (missed)
		sa_err(cmd, "--fail-on-lost: %s: the ring buffer flags %"
		       G_GUINT64_FORMAT " events missed: the measurement is "
		       "incomplete (exit %d)", sa_esc(file), missed,
		       SA_EXIT_LOST);
	else
		return false;
	return true;
}

void sa_fail_on_lost(const char *cmd, const struct sa_record_result *res)
{
	if (res->truncated) {
		sa_err(cmd, "--fail-on-lost: the recording was truncated (%s): "
		       "the measurement is incomplete (exit %d)",
		       res->truncated, SA_EXIT_LOST);
		return;
	}
	if (res->buffer_failed && !res->no_buffer && !res->lost_total) {
		sa_err(cmd, "--fail-on-lost: CPU %s did not come up, its ring "
		       "buffer not allocated: the measurement is incomplete "
		       "(exit %d)", res->buffer_failed, SA_EXIT_LOST);
		return;
	}
	if (res->no_buffer && !res->lost_total) {
		sa_err(cmd, "--fail-on-lost: CPU %s had no ring buffer: the "
		       "measurement is incomplete (exit %d)", res->no_buffer,
		       SA_EXIT_LOST);
		return;
	}
	sa_err(cmd, "--fail-on-lost: %" G_GUINT64_FORMAT " events lost: the "
	       "measurement is incomplete (exit %d)", res->lost_total,
	       SA_EXIT_LOST);
}

void sa_print_record_result(const char *cmd, const char *output,
			    const struct sa_record_result *res,
			    const char *advice)
{
	guint i;

	printf("%s: %" G_GUINT64_FORMAT " events, %.1f MB, %d CPUs\n", output,
	       res->events, res->file_bytes / 1048576.0, res->nr_cpus);
	for (i = 0; i < res->counts->len; i++) {
		struct sa_record_event_count *n = res->counts->pdata[i];

		printf("  %s:%-32s %" G_GUINT64_FORMAT "\n", n->system, n->name,
		       n->count);
	}
	sa_print_lost(cmd, res, res->lost_total ? advice : NULL);
}

int sa_diff_read_stacks(const char *a, const char *b,
			struct sa_report *rep[2])
{
	const char *path[2] = { a, b };
	struct sa_report_opts opts = { 0 };
	int i;

	opts.by = SA_BY_STACK;
	opts.stack_depth = SA_ATTRIB_MAX_DEPTH;
	for (i = 0; i < 2; i++) {
		char *label = g_strdup_printf("slabacct diff: reading %s",
					      path[i]);
		GError *err = NULL;

		opts.progress = sa_progress_cb;
		opts.progress_data = sa_progress_new(stderr, label);
		sa_crash_guard("diff", path[i]);
		rep[i] = sa_report_read(path[i], 1u << SA_SEC_CALLSITE, &opts,
					&err);
		sa_progress_done(opts.progress_data);
		g_free(label);
		if (!rep[i]) {
			sa_err("diff", "%s", err->message);
			g_error_free(err);
			return -1;
		}
	}
	return 0;
}

GPtrArray *sa_diff_load_stacks(const char *a, const char *b)
{
	struct sa_report *rep[2] = { NULL, NULL };
	GPtrArray *st = NULL;

	if (!sa_diff_read_stacks(a, b, rep))
		st = sa_diff_stacks(rep[0], rep[1]);
	sa_report_free(rep[0]);
	sa_report_free(rep[1]);
	return st;
}

int sa_diff_write(const char *cmd, const char *a, const char *b,
		  struct sa_diff_opts *o, struct sa_emit *e,
		  const char *output, const struct sa_outfile_opts *of)
{
	const char *path[2] = { a, b };
	struct sa_output out = { 0 };
	struct sa_diff d = { 0 };
	struct sa_threshold_result limits = { 0 };
	GError *err = NULL;
	int i, ret = SA_EXIT_FAIL;
	guint crossed = 0;

	for (i = 0; i < 2; i++) {
		/* a bar on a terminal's stderr when reading takes over 2 s */
		char *label = g_strdup_printf("slabacct %s: reading %s", cmd,
					      path[i]);
		int bad;

		o->progress = sa_progress_cb;
		o->progress_data = sa_progress_new(stderr, label);
		sa_crash_guard(cmd, path[i]);
		bad = sa_diff_side_load(&d.side[i], path[i], o, &err);
		sa_progress_done(o->progress_data);
		g_free(label);
		if (bad) {
			sa_err(cmd, "%s", err->message);
			g_error_free(err);
			goto out;
		}
	}
	if (sa_diff_check_sides(&d, &err)) {
		sa_err(cmd, "%s", err->message);
		g_error_free(err);
		goto out;
	}
	/* the limits judge every row, before the view leaves some out */
	sa_diff_compute_rows(&d, o);
	if (o->fail_on && sa_thresholds_judgeable(o->fail_on, &d, &err)) {
		sa_err(cmd, "%s", err->message);
		g_error_free(err);
		goto out;
	}
	if (o->fail_on)
		crossed = sa_thresholds_check(o->fail_on, &d, &limits);
	sa_diff_view(&d, o);
	/* the page's differential flame graph: two recordings' stacks */
	if (e->fmt == SA_FMT_HTML && !strcmp(d.side[0].source, "trace") &&
	    !strcmp(d.side[1].source, "trace") &&
	    !(d.stacks = sa_diff_load_stacks(a, b)))
		goto out;
	if (sa_output_open(cmd, output, of, &out))
		goto out;
	e->out = out.f;
	if (sa_emit_diff(e, &d)) {
		sa_err(cmd, "writing: %s", g_strerror(errno));
		sa_output_close(cmd, &out, false);
		goto out;
	}
	if (sa_output_close(cmd, &out, true))
		goto out;
	ret = SA_EXIT_OK;
	/* a cut trace's figures are not a shrink: never judged as one */
	for (i = 0; i < 2; i++) {
		const struct sa_diff_side *s = &d.side[i];

		if (!s->truncated)
			continue;
		if (o->fail_on) {
			sa_err(cmd, "--fail-on: %s was truncated (%s): its "
			       "figures are incomplete, so no limit is judged "
			       "(exit %d)", sa_esc(s->file),
			       sa_esc(s->truncated), SA_EXIT_LOST);
			ret = SA_EXIT_LOST;
		} else {
			sa_warn(cmd, "%s was truncated (%s): its figures are "
				"incomplete", sa_esc(s->file),
				sa_esc(s->truncated));
		}
	}
	if (o->fail_on && ret == SA_EXIT_OK) {
		sa_print_limits(cmd, o->fail_on, &limits);
		if (crossed)
			ret = SA_EXIT_THRESHOLD;
	}
out:
	sa_threshold_result_clear(&limits);
	if (d.stacks)
		g_ptr_array_free(d.stacks, TRUE);
	sa_diff_clear(&d);
	return ret;
}

/* "+80.0K" for a size, "+1234" for a count */
static void put_change(GString *s, enum sa_diff_sort m, struct sa_delta d)
{
	char h[16];

	if (m == SA_DIFF_SORT_ALLOCS)
		g_string_append_printf(s, "%c%" G_GUINT64_FORMAT,
				       d.neg ? '-' : '+', d.mag);
	else
		g_string_append_printf(s, "%c%s", d.neg ? '-' : '+',
				       sa_human(h, d.mag));
}

void sa_print_limits(const char *cmd, const struct sa_thresholds *t,
		     const struct sa_threshold_result *res)
{
	GString *s = g_string_new(NULL);
	guint i;

	if (!res->crossed) {
		for (i = 0; i < t->n; i++)
			g_string_append_printf(s, "%s%s", i ? "," : "",
					       t->rule[i].text);
		sa_err(cmd, "--fail-on: within every limit (%s)", s->str);
		g_string_free(s, TRUE);
		return;
	}
	for (i = 0; i < t->n; i++) {
		const struct sa_threshold *r = &t->rule[i];
		const struct sa_threshold_hit *h = &res->hit[i];

		if (!h->count)
			continue;
		g_string_append_printf(s, "%s%s (", s->len ? "; " : "",
				       r->text);
		if (!sa_threshold_is_total(r->scope))
			g_string_append_printf(s, "%" G_GUINT64_FORMAT
					       " site%s%s %s %s ", h->count,
					       h->count > 1 ? "s" : "",
					       h->count > 1 ? ", most" : ":",
					       sa_diff_kind_name(h->kind),
					       h->site);
		else
			g_string_append_printf(s, "%s %s ",
				sa_threshold_scope_name(r->scope),
				sa_threshold_measure_name(r->measure));
		put_change(s, r->measure, h->change);
		if (r->scope != SA_THRESHOLD_NEW_SITE && h->base)
			g_string_append_printf(s, ", %+.1f%%",
					       100.0 * h->change.mag / h->base);
		else if (r->scope != SA_THRESHOLD_NEW_SITE)
			g_string_append(s, " from 0");
		g_string_append_c(s, ')');
	}
	sa_err(cmd, "--fail-on: %u of %u limits crossed: %s", res->crossed,
	       t->n, s->str);
	g_string_free(s, TRUE);
}

int sa_plain_format(const char *cmd, const char *s, gboolean json,
		    gboolean csv, enum sa_format *f)
{
	if (json + csv > 1 || (s && (json || csv))) {
		sa_err(cmd, "choose one of --format, --json, --csv");
		return -1;
	}
	*f = json ? SA_FMT_JSON : csv ? SA_FMT_CSV : SA_FMT_TEXT;
	if (!s || !strcmp(s, "text"))
		return 0;
	if (!strcmp(s, "json"))
		*f = SA_FMT_JSON;
	else if (!strcmp(s, "csv"))
		*f = SA_FMT_CSV;
	else {
		sa_err(cmd, "unknown format '%s' (text, json, csv)", s);
		return -1;
	}
	return 0;
}

int sa_output_write(const char *cmd, const char *path,
		    const struct sa_outfile_opts *of, const char *s, size_t len)
{
	struct sa_output out;
	bool bad;

	if (sa_output_open(cmd, path, of, &out))
		return -1;
	bad = fwrite(s, 1, len, out.f) != len || fflush(out.f) != 0;
	if (bad)
		sa_err(cmd, "%s: %s", path ? path : "stdout",
		       g_strerror(errno));
	return sa_output_close(cmd, &out, !bad) || bad ? -1 : 0;
}
