// SPDX-License-Identifier: GPL-2.0
/*
 * The live recorder: a private tracefs instance (trace/instance.h), read
 * per CPU as it fills (trace/cpu-readers.c: splice from trace_pipe_raw into a
 * temporary file in the output's directory), assembled into trace.dat at
 * the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <tracefs.h>
#include <event-parse.h>

#include "trace/cpu-readers.h"
#include "trace/events.h"
#include "trace/recorder-filters.h"
#include "trace/recorder.h"
#include "trace/instance.h"
#include "trace/meta.h"
#include "trace/tracedat-write.h"

/* Room kept in the output for what is only known at the end. */
#define RESERVE_SLACK	(2u << 20)

struct sa_recorder {
	struct tracefs_instance *inst;	/* NULL: the top level */
	struct sa_instance *own;	/* the private instance, if ours */
	GPtrArray *events;	/* struct sa_event_ref, enabled */
	struct sa_tracedat *td;
	char *output;
	struct sa_outfile *out;	/* the new file, renamed into place at the end */
	int out_fd;
	int nr_cpus;
	int page_size;
	sa_snapshot_fn snapshot;	/* system snapshots at start and end,
					 * or NULL */
	int *fds;		/* [nr_cpus] temporary files, or -1 */
	guint64 *lost_at_err;	/* [nr_cpus] lost events when a write failed */
	struct sa_cpu_readers *readers;
	gint64 started;		/* monotonic µs when tracing started */
	bool stacks;		/* kernel stacks recorded (--stacks) */
};

static void disable_events(struct sa_recorder *r);

static int set_error(GError **err, int code, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static int set_error(GError **err, int code, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(err, G_IO_ERROR, code, msg);
	g_free(msg);
	return -1;
}

static int errno_error(GError **err, const char *what)
{
	int e = errno;

	return set_error(err, g_io_error_from_errno(e), "%s: %s", what,
			 g_strerror(e));
}

static int enable_events(struct sa_recorder *r, unsigned int groups,
			 GPtrArray *missing, GError **err)
{
	const struct sa_event_desc *d;

	for (d = sa_event_table(); d->name; d++) {
		struct sa_event_ref *e;

		if (!(d->group & groups))
			continue;
		if (!tracefs_event_file_exists(r->inst, d->system, d->name,
					       "enable")) {
			/* normal where an event of its kind exists */
			if (!d->alt ||
			    !tracefs_event_file_exists(r->inst, d->system,
						       d->alt, "enable"))
				g_ptr_array_add(missing, g_strdup_printf(
						"%s:%s", d->system, d->name));
			continue;
		}
		if (tracefs_event_enable(r->inst, d->system, d->name))
			return errno_error(err, "cannot enable an event");
		e = g_new0(struct sa_event_ref, 1);
		e->system = g_strdup(d->system);
		e->name = g_strdup(d->name);
		g_ptr_array_add(r->events, e);
	}
	if (!r->events->len)
		return set_error(err, G_IO_ERROR_NOT_FOUND,
				 "none of the requested events exists on "
				 "this kernel");
	return 0;
}

/* A temporary file in dir that disappears with the process. */
static int temp_file(const char *dir)
{
	char *path;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	path = g_build_filename(dir, ".slabacct-cpu-XXXXXX", NULL);
	fd = g_mkstemp_full(path, O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		unlink(path);
	g_free(path);
	return fd;
}

/*
 * Cut a CPU's file to whole pages, after a failed write. If even that
 * fails, the write's error is still the one reported.
 */
static void trim_to_pages(struct sa_recorder *r, int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);
	int ret = 0;

	if (end > 0 && end % r->page_size)
		ret = ftruncate(fd, end - end % r->page_size);
	(void)ret;
}

/*
 * A CPU's write failed (a full disk). What it loses from now on is lost
 * because nobody reads, not because the buffer was small: note the
 * count so far.
 */
static void write_failed(struct sa_recorder *r, int cpu)
{
	char file[64], *text;
	int e = errno;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(r->inst, file, NULL);
	r->lost_at_err[cpu] = text ? sa_cpu_stats_lost(text) : 0;
	free(text);
	trim_to_pages(r, r->fds[cpu]);
	errno = e;
}

/*
 * Memory pressure (an OOM under way, or an output on tmpfs that cannot
 * grow) makes splice fail with ENOMEM for a while: wait for the kernel to
 * free memory, up to NOMEM_WAIT_MS, before calling it a failed write.
 * What the ring buffer overwrites meanwhile is counted as lost.
 */
#define NOMEM_WAIT_MS	5000
#define NOMEM_STEP_MS	10

static int splice_once(struct tracefs_cpu *tcpu, int fd, bool flush)
{
	int n, waited = 0;

	for (;;) {
		n = tracefs_cpu_write(tcpu, fd, true);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			n = 0;
		if (n == 0 && flush)
			n = tracefs_cpu_flush_write(tcpu, fd);
		if (n >= 0 || errno != ENOMEM || waited >= NOMEM_WAIT_MS)
			return n;
		g_usleep(NOMEM_STEP_MS * 1000);
		waited += NOMEM_STEP_MS;
	}
}

/*
 * The readers' sink: splice the full pages into the CPU's file, and with
 * flush the partly filled last one too.
 */
static int splice_pages(struct tracefs_cpu *tcpu, int cpu, bool flush,
			void *data)
{
	struct sa_recorder *r = data;
	int n = splice_once(tcpu, r->fds[cpu], flush);

	if (n >= 0)
		return n;
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	write_failed(r, cpu);
	return -1;
}

static int start_readers(struct sa_recorder *r, GError **err)
{
	const struct sa_cpu_sink sink = { .move = splice_pages, .data = r };
	const char *dir = sa_outfile_dir(r->out);
	int cpu;

	r->fds = g_new(int, r->nr_cpus);
	r->lost_at_err = g_new0(guint64, r->nr_cpus);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		r->fds[cpu] = -1;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		r->fds[cpu] = temp_file(dir);
		if (r->fds[cpu] < 0)
			return errno_error(err, "cannot create a temporary "
					   "file beside the output");
	}
	/* a CPU without a reader (offline) has no data */
	r->readers = sa_cpu_readers_start(r->inst, r->nr_cpus, r->page_size,
					  &sink, err);
	return r->readers ? 0 : -1;
}

/* Free r; its new file, if not put in place yet, is discarded. */
static void free_recorder(struct sa_recorder *r)
{
	int cpu;

	if (r->own)
		tracefs_trace_off(r->inst);
	/* an instance with open trace_pipe_raw files cannot be removed */
	sa_cpu_readers_free(r->readers);
	for (cpu = 0; r->fds && cpu < r->nr_cpus; cpu++)
		if (r->fds[cpu] >= 0)
			close(r->fds[cpu]);
	sa_instance_destroy(r->own);
	g_free(r->fds);
	g_free(r->lost_at_err);
	sa_outfile_abort(r->out);
	sa_tracedat_free(r->td);
	g_ptr_array_unref(r->events);
	g_free(r->output);
	g_free(r);
}

/*
 * The new file beside the output; trace.dat is written with seeks, so
 * only a regular file (or a new one) will do, never /dev/null. Opened
 * before anything in tracefs is touched.
 */
static int open_output(struct sa_recorder *r, const char *path,
		       const struct sa_outfile_opts *o, GError **err)
{
	struct sa_outfile_opts seek = *o;

	seek.regular_only = true;
	r->out = sa_outfile_open(path, &seek, err);
	if (!r->out)
		return -1;
	r->out_fd = sa_outfile_fd(r->out);
	return 0;
}

/* Reserve room for the header, so a full disk cannot make it unwritable. */
static int reserve_header(struct sa_recorder *r, GError **err)
{
	off_t reserve = sa_tracedat_header_size(r->td) + RESERVE_SLACK;

	if (fallocate(r->out_fd, 0, 0, reserve) && errno != EOPNOTSUPP)
		return errno_error(err, r->output);
	return 0;
}

struct sa_recorder *sa_recorder_start(const struct sa_record_opts *o,
				      GPtrArray **missing, GError **err)
{
	struct sa_recorder *r;
	char buf[32], *lock;

	*missing = g_ptr_array_new_with_free_func(g_free);
	r = g_new0(struct sa_recorder, 1);
	r->out_fd = -1;
	r->output = g_strdup(o->output);
	r->events = g_ptr_array_new_with_free_func(sa_event_ref_free);
	r->nr_cpus = sa_trace_nr_cpus();
	if (open_output(r, o->output, &o->out, err)) {
		free_recorder(r);
		return NULL;
	}
	r->own = sa_instance_create(err);
	if (!r->own)
		goto fail;
	lock = sa_outfile_lock_path(r->out);
	sa_instance_note_lock(r->own, lock);
	g_free(lock);
	r->inst = r->own->inst;
	if (o->buffer_kb > 0) {
		snprintf(buf, sizeof(buf), "%d", o->buffer_kb);
		if (tracefs_instance_file_write(r->inst, "buffer_size_kb",
						buf) < 0) {
			errno_error(err, "cannot set the buffer size");
			goto fail;
		}
	}
	if (enable_events(r, o->groups, *missing, err))
		goto fail;

	r->page_size = sa_trace_subbuf_size(r->inst);
	r->snapshot = o->no_snapshot ? NULL : o->snapshot;
	r->stacks = o->stacks != SA_STACKS_NONE;
	r->td = sa_tracedat_new(r->nr_cpus, r->page_size);
	if (sa_trace_meta_begin(r->td, r->events, o->recorder, o->command,
				r->snapshot, err) ||
	    reserve_header(r, err) || start_readers(r, err))
		goto fail;
	/* every thread of ours exists now: they can be left out */
	if (sa_recorder_filters_set(r->inst, r->td, r->events, o, err))
		goto fail;
	r->started = g_get_monotonic_time();
	if (tracefs_trace_on(r->inst)) {
		errno_error(err, "cannot start tracing");
		goto fail;
	}
	return r;
fail:
	free_recorder(r);
	return NULL;
}

const char *sa_recorder_instance(struct sa_recorder *r)
{
	return r->own->name;
}

const char *sa_recorder_instance_dir(struct sa_recorder *r)
{
	return r->own->dir;
}

bool sa_recorder_failed(struct sa_recorder *r)
{
	return sa_cpu_readers_failed(r->readers);
}

void sa_recorder_abort(struct sa_recorder *r)
{
	free_recorder(r);
}

/* The kernel_stack entries recorded (--stacks), as one more count. */
static void count_stacks(struct sa_record_result *res,
			 const struct sa_ringbuf_counts *c)
{
	char *text = tracefs_event_file_read(NULL, "ftrace", "kernel_stack",
					     "format", NULL);
	const char *id = text ? strstr(text, "\nID: ") : NULL;
	struct sa_record_event_count *n;

	if (id) {
		n = g_new0(struct sa_record_event_count, 1);
		n->system = g_strdup("ftrace");
		n->name = g_strdup("kernel_stack");
		n->count = sa_ringbuf_count_of(c, atoi(id + 5));
		g_ptr_array_add(res->counts, n);
	}
	free(text);
}

static void count_events(struct sa_recorder *r, struct sa_record_result *res)
{
	struct tep_handle *tep = sa_trace_meta_tep(r->events);
	struct sa_ringbuf_counts c = { 0 };
	guint i;
	int cpu;

	res->counts = g_ptr_array_new();
	res->cpu_bytes = g_new0(guint64, r->nr_cpus);
	res->cpu_events = g_new0(guint64, r->nr_cpus);
	if (!tep)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		guint64 before = c.events;
		off_t end = lseek(r->fds[cpu], 0, SEEK_END);

		sa_ringbuf_count_fd(tep, r->fds[cpu], r->page_size, &c);
		res->cpu_events[cpu] = c.events - before;
		res->cpu_bytes[cpu] = end > 0 ? end : 0;
	}
	res->events = c.events;
	for (i = 0; i < r->events->len; i++) {
		struct sa_event_ref *e = r->events->pdata[i];
		struct tep_event *ev = tep_find_event_by_name(tep, e->system,
							      e->name);
		struct sa_record_event_count *n;

		n = g_new0(struct sa_record_event_count, 1);
		n->system = g_strdup(e->system);
		n->name = g_strdup(e->name);
		n->count = ev ? sa_ringbuf_count_of(&c, ev->id) : 0;
		g_ptr_array_add(res->counts, n);
	}
	if (r->stacks)
		count_stacks(res, &c);
	sa_ringbuf_counts_clear(&c);
	tep_free(tep);
}

/* Whether cpu is offline now (sysfs; a CPU without the file is online). */
static bool cpu_offline(int cpu)
{
	char path[64], *text = NULL;
	bool off;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return false;
	off = text[0] == '0';
	g_free(text);
	return off;
}

/* Add cpu to the list *list ("1 3"). */
static void cpu_list_add(char **list, int cpu)
{
	char *s = *list ? g_strdup_printf("%s %d", *list, cpu) :
		  g_strdup_printf("%d", cpu);

	g_free(*list);
	*list = s;
}

int sa_recorder_stop(struct sa_recorder *r, struct sa_record_result *res,
		     GError **err)
{
	bool truncated = false;
	int cpu, ret, reader_err = 0;
	struct stat st;

	long long kb = 0;

	memset(res, 0, sizeof(*res));
	tracefs_trace_off(r->inst);
	if (r->started)
		res->seconds = (g_get_monotonic_time() - r->started) / 1e6;
	sa_cpu_readers_stop(r->readers);
	if (!r->own) {
		disable_events(r);
		/* the boot's stacktrace option goes with its events */
		if (r->stacks)
			tracefs_option_disable(NULL,
					       TRACEFS_OPTION_STACKTRACE);
	}
	res->nr_cpus = r->nr_cpus;
	res->lost = g_new0(guint64, r->nr_cpus);
	res->lost_stopped = g_new0(guint64, r->nr_cpus);
	if (!tracefs_instance_file_read_number(r->inst, "buffer_size_kb",
					       &kb) && kb > 0)
		res->buffer_kb = kb;
	sa_trace_meta_end(r->td, r->inst, r->nr_cpus, res->lost, r->snapshot,
			  NULL);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		int e = sa_cpu_readers_error(r->readers, cpu);

		if (e == ENODEV) {
			/*
			 * The CPU has no ring buffer: not an error of the
			 * recording. Offline, it ran nothing; online, none
			 * of its events are in the recording.
			 */
			cpu_list_add(cpu_offline(cpu) ? &res->offline :
				     &res->no_buffer, cpu);
			res->lost[cpu] = 0;
			continue;
		}
		res->lost_total += res->lost[cpu];
		if (e && !reader_err)
			reader_err = e;
		if (e && res->lost[cpu] > r->lost_at_err[cpu])
			res->lost_stopped[cpu] = res->lost[cpu] -
						 r->lost_at_err[cpu];
		res->lost_stopped_total += res->lost_stopped[cpu];
	}
	sa_cpu_readers_free(r->readers);
	r->readers = NULL;
	sa_instance_destroy(r->own);
	r->own = NULL;
	r->inst = NULL;

	if (res->no_buffer)
		sa_tracedat_set_origin(r->td, SA_ORIGIN_NO_BUFFER,
				       res->no_buffer);
	if (res->offline)
		sa_tracedat_set_origin(r->td, SA_ORIGIN_OFFLINE, res->offline);
	count_events(r, res);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		sa_tracedat_set_cpu_fd(r->td, cpu, r->fds[cpu], true);
	ret = sa_tracedat_write(r->td, r->out_fd, &truncated);
	if (ret && !truncated)
		errno_error(err, r->output);
	if (fstat(r->out_fd, &st) == 0)
		res->file_bytes = st.st_size;
	if (!ret && reader_err) {
		errno = reader_err;
		truncated = reader_err == ENOSPC || reader_err == EFBIG ||
			    reader_err == EDQUOT;
		errno_error(err, "writing a CPU's pages");
		ret = -1;
	} else if (ret && truncated) {
		errno_error(err, r->output);
	}
	res->disk_full = truncated;
	/* complete, or cut short by a full disk but readable: put in place */
	if (!ret || truncated) {
		struct sa_outfile *out = r->out;
		GError *e = NULL;

		r->out = NULL;
		if (sa_outfile_commit(out, &e)) {
			g_clear_error(err);
			g_propagate_error(err, e);
			res->disk_full = false;
			ret = -1;
		}
	}
	free_recorder(r);
	return ret;
}

void sa_record_result_clear(struct sa_record_result *res)
{
	guint i;

	g_free(res->lost);
	g_free(res->lost_stopped);
	g_free(res->cpu_bytes);
	g_free(res->cpu_events);
	g_free(res->no_buffer);
	g_free(res->offline);
	for (i = 0; res->counts && i < res->counts->len; i++) {
		struct sa_record_event_count *n = res->counts->pdata[i];

		g_free(n->system);
		g_free(n->name);
		g_free(n);
	}
	if (res->counts)
		g_ptr_array_unref(res->counts);
	memset(res, 0, sizeof(*res));
}

/* The events enabled in the top-level instance (its set_event file). */
static int top_events(struct sa_recorder *r, GError **err)
{
	char *text = tracefs_instance_file_read(NULL, "set_event", NULL);
	gchar **lines;
	int i;

	/* libtracefs reads an empty file as NULL */
	if (!text && !tracefs_file_exists(NULL, "set_event"))
		return errno_error(err, "cannot read set_event");
	lines = g_strsplit(text ? text : "", "\n", -1);
	for (i = 0; lines[i]; i++) {
		char *colon = strchr(lines[i], ':');
		struct sa_event_ref *e;

		if (!colon)
			continue;
		e = g_new0(struct sa_event_ref, 1);
		e->system = g_strndup(lines[i], colon - lines[i]);
		e->name = g_strdup(colon + 1);
		g_ptr_array_add(r->events, e);
	}
	g_strfreev(lines);
	free(text);
	if (!r->events->len)
		return set_error(err, G_IO_ERROR_NOT_FOUND, "no trace event "
				 "is enabled at the top level (boot with the "
				 "parameters of 'slabacct boot cmdline')");
	return 0;
}

static void disable_events(struct sa_recorder *r)
{
	guint i;

	for (i = 0; i < r->events->len; i++) {
		struct sa_event_ref *e = r->events->pdata[i];

		tracefs_event_disable(r->inst, e->system, e->name);
	}
}

int sa_recorder_collect_boot(const char *output,
			     const struct sa_outfile_opts *out,
			     const char *recorder, char *(*snapshot)(void),
			     struct sa_record_result *res, GError **err)
{
	struct sa_recorder *r;

	memset(res, 0, sizeof(*res));
	r = g_new0(struct sa_recorder, 1);
	r->out_fd = -1;
	r->output = g_strdup(output);
	r->events = g_ptr_array_new_with_free_func(sa_event_ref_free);
	r->nr_cpus = sa_trace_nr_cpus();
	r->page_size = sa_trace_subbuf_size(NULL);
	if (open_output(r, output, out, err) || top_events(r, err))
		goto fail;
	tracefs_trace_off(NULL);
	/* boot cmdline --stacks: trace_options=stacktrace */
	r->stacks = tracefs_option_is_enabled(NULL, TRACEFS_OPTION_STACKTRACE);
	r->snapshot = snapshot;	/* at the end: now */
	r->td = sa_tracedat_new(r->nr_cpus, r->page_size);
	/*
	 * The state at the start of the boot is not known: no /proc/meminfo
	 * and no snapshot "at start" (one taken now would be mislabelled).
	 */
	if (sa_trace_meta_begin(r->td, r->events, recorder, NULL, NULL, err))
		goto fail;
	sa_tracedat_set_origin(r->td, SA_ORIGIN_MEMINFO_START, NULL);
	if (r->stacks)
		sa_tracedat_set_origin(r->td, SA_ORIGIN_STACKS, "all");
	if (reserve_header(r, err) || start_readers(r, err))
		goto fail;
	return sa_recorder_stop(r, res, err);
fail:
	free_recorder(r);
	return -1;
}
