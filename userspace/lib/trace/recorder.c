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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <gio/gio.h>
#include <tracefs.h>
#include <event-parse.h>

#include "util/cpu-online.h"
#include "trace/fail.h"
#include "trace/boot-log.h"
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
	gint failed_ms;		/* ms from started to the first failed
				 * write, or -1 (atomic: the readers') */
	gint64 early_at;	/* µs from started to an early stop */
	char *early_why;	/* why it stopped early, or NULL */
	bool stacks;		/* kernel stacks recorded (--stacks) */
	bool whole_only;	/* a file cut short by a full disk is not
				 * kept (boot collect) */
	bool boot_triggers;	/* boot: by stacktrace triggers */
};

static void disable_events(struct sa_recorder *r);

static int errno_error(GError **err, const char *what)
{
	int e = errno;

	return sa_trace_fail(err, g_io_error_from_errno(e), "%s: %s", what,
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
		return sa_trace_fail(err, G_IO_ERROR_NOT_FOUND,
				 "none of the requested events exists on "
				 "this kernel");
	return 0;
}

static bool disk_full_errno(int e)
{
	return e == ENOSPC || e == EFBIG || e == EDQUOT;
}

/*
 * Who forked whom, and who exec'd what: the report's tasks
 * (report/tasks.h), whatever the groups; not warned about if missing.
 */
static int enable_task_events(struct sa_recorder *r, GError **err)
{
	static const char *const names[] = {
		"sched_process_fork", "sched_process_exec",
	};
	unsigned int i, j;

	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		struct sa_event_ref *e;
		bool have = false;

		for (j = 0; j < r->events->len && !have; j++) {
			e = r->events->pdata[j];
			have = !strcmp(e->system, "sched") &&
			       !strcmp(e->name, names[i]);
		}
		if (have || !tracefs_event_file_exists(r->inst, "sched",
						       names[i], "enable"))
			continue;
		if (tracefs_event_enable(r->inst, "sched", names[i]))
			return errno_error(err, "cannot enable an event");
		e = g_new0(struct sa_event_ref, 1);
		e->system = g_strdup("sched");
		e->name = g_strdup(names[i]);
		g_ptr_array_add(r->events, e);
	}
	return 0;
}

/* The task table now, into the origin under key. */
static void store_tasks(struct sa_recorder *r, const char *key)
{
	char *text = sa_scope_tasks();

	sa_tracedat_set_origin(r->td, key, text);
	g_free(text);
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
	if (r->started)
		g_atomic_int_compare_and_exchange(&r->failed_ms, -1,
			(gint)MIN((g_get_monotonic_time() - r->started) / 1000,
				  G_MAXINT));
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
	g_free(r->early_why);
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
	int e;

	if (!fallocate(r->out_fd, 0, 0, reserve) || errno == EOPNOTSUPP)
		return 0;
	e = errno;
	if (!disk_full_errno(e))
		return errno_error(err, r->output);
	/* no file can be readable without its header: record nothing */
	return sa_trace_fail(err, g_io_error_from_errno(e), "%s: %s: %s "
			 "cannot hold the %.1f MB a trace.dat needs "
			 "before its first event (kallsyms, event formats) "
			 "and the %u MB kept for its end; nothing was "
			 "recorded", r->output, g_strerror(e),
			 e == EFBIG ? "the file size limit (ulimit -f)" :
			 "its file system",
			 (double)(reserve - RESERVE_SLACK) / (1 << 20),
			 RESERVE_SLACK >> 20);
}

struct sa_recorder *sa_recorder_start(const struct sa_record_opts *o,
				      GPtrArray **missing, GError **err)
{
	struct sa_recorder *r;
	char buf[32], *lock;

	*missing = g_ptr_array_new_with_free_func(g_free);
	r = g_new0(struct sa_recorder, 1);
	r->out_fd = -1;
	r->failed_ms = -1;
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
	if (enable_events(r, o->groups, *missing, err) ||
	    enable_task_events(r, err))
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
	if (sa_recorder_filters_set(r->inst, r->td, r->events, o, err) ||
	    sa_scope_set(r->inst, r->td, o->scope, o->follow_pid, o->cgroup,
			 err))
		goto fail;
	store_tasks(r, SA_ORIGIN_TASKS_START);
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

void sa_recorder_stopped_early(struct sa_recorder *r, const char *why)
{
	if (r->early_why)
		return;
	r->early_at = r->started ? g_get_monotonic_time() - r->started : -1;
	r->early_why = g_strdup(why);
}

/*
 * A file size limit (RLIMIT_FSIZE) stopped the readers: each CPU's file
 * reached it, so the whole file would pass it too, and be cut while it
 * is assembled, with no origin section and so no mark. Shorten each
 * CPU's data by the same share, in whole pages from its end, to what
 * fits with the header, the padding before each CPU's data and the room
 * kept for the end (RESERVE_SLACK, as reserve_header).
 */
static void fit_file_limit(struct sa_recorder *r)
{
	off_t *len = g_new0(off_t, r->nr_cpus);
	off_t total = 0, budget;
	struct rlimit rl;
	int cpu;

	if (getrlimit(RLIMIT_FSIZE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		goto out;
	budget = (off_t)MIN(rl.rlim_cur, (rlim_t)G_MAXINT64) -
		 (off_t)sa_tracedat_header_size(r->td) -
		 (off_t)r->nr_cpus * r->page_size - RESERVE_SLACK;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		len[cpu] = lseek(r->fds[cpu], 0, SEEK_END);
		if (len[cpu] > 0)
			total += len[cpu];
	}
	if (total <= budget)
		goto out;
	if (budget < 0)
		budget = 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		off_t keep;
		int ret;

		if (len[cpu] <= 0)
			continue;
		keep = (off_t)((double)len[cpu] * budget / total);
		keep -= keep % r->page_size;
		ret = ftruncate(r->fds[cpu], MIN(keep, len[cpu]));
		(void)ret;	/* if not, the writer cuts it */
	}
out:
	g_free(len);
}

/*
 * Mark the file as cut short (SA_ORIGIN_TRUNCATED) when a reader stopped
 * on a full disk, or the caller stopped the recording early; say so in
 * res too.
 */
static void mark_truncated(struct sa_recorder *r, int reader_err,
			   struct sa_record_result *res)
{
	gint ms = g_atomic_int_get(&r->failed_ms);
	char *text;

	if (disk_full_errno(reader_err)) {
		res->truncated_at_known = ms >= 0;
		res->truncated_ns = ms >= 0 ? (guint64)ms * 1000000 : 0;
		res->truncated = g_strdup_printf("%s while writing a CPU's "
			"pages: %s", reader_err == EFBIG ?
			"the file size limit was reached" : "the disk filled",
			g_strerror(reader_err));
	} else if (r->early_why) {
		res->truncated_at_known = r->early_at >= 0;
		res->truncated_ns = (guint64)MAX(r->early_at, 0) * 1000;
		res->truncated = g_strdup(r->early_why);
	} else {
		return;
	}
	if (res->truncated_at_known)
		text = g_strdup_printf("%" G_GUINT64_FORMAT " %s",
				       res->truncated_ns, res->truncated);
	else
		text = g_strdup_printf("- %s", res->truncated);
	sa_tracedat_set_origin(r->td, SA_ORIGIN_TRUNCATED, text);
	g_free(text);
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
	if (r->stacks || r->boot_triggers)
		count_stacks(res, &c);
	sa_ringbuf_counts_clear(&c);
	tep_free(tep);
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
	if (r->own)
		store_tasks(r, SA_ORIGIN_TASKS_END);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		int e = sa_cpu_readers_error(r->readers, cpu);

		if (e == ENODEV) {
			/*
			 * The CPU has no ring buffer: not an error of the
			 * recording. Offline, it ran nothing; online, none
			 * of its events are in the recording.
			 */
			if (!sa_cpu_offline(NULL, cpu))
				cpu_list_add(&res->no_buffer, cpu);
			else if (!r->own && sa_boot_log_buffer_failed(cpu))
				cpu_list_add(&res->buffer_failed, cpu);
			else
				cpu_list_add(&res->offline, cpu);
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
	mark_truncated(r, reader_err, res);
	if (reader_err == EFBIG)
		fit_file_limit(r);
	if (res->buffer_failed)
		sa_tracedat_set_origin(r->td, SA_ORIGIN_BUFFER_FAILED,
				       res->buffer_failed);
	count_events(r, res);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		sa_tracedat_set_cpu_fd(r->td, cpu, r->fds[cpu], true);
	ret = sa_tracedat_write(r->td, r->out_fd, &truncated);
	if (ret && !truncated)
		errno_error(err, r->output);
	/* cut while it was assembled: no origin section, no mark */
	res->no_origin = ret && truncated;
	if (fstat(r->out_fd, &st) == 0)
		res->file_bytes = st.st_size;
	if (!ret && reader_err) {
		errno = reader_err;
		truncated = disk_full_errno(reader_err);
		errno_error(err, "writing a CPU's pages");
		ret = -1;
	} else if (ret && truncated) {
		errno_error(err, r->output);
	}
	if (ret && r->whole_only)
		truncated = false;	/* nothing half-written is kept */
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
	g_free(res->truncated);
	g_free(res->buffer_failed);
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
		return sa_trace_fail(err, G_IO_ERROR_NOT_FOUND, "no trace event "
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
		/* the boot's stack triggers (trace_trigger=) go with it */
		if (r->boot_triggers)
			tracefs_event_file_write(r->inst, e->system, e->name,
						 "trigger", "!stacktrace");
	}
}

/* The bytes of data in the top-level buffer of cpu, not read yet. */
static guint64 cpu_buffer_bytes(int cpu)
{
	char file[64], *text;
	guint64 n;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(NULL, file, NULL);
	n = text ? sa_cpu_stats_value(text, "bytes") : 0;
	free(text);
	return n;
}

/*
 * Whether what the boot buffer holds fits in the output's file system:
 * each CPU's data in whole pages (a page header each, and two pages more
 * partly filled), the file's header and RESERVE_SLACK. The per-CPU files
 * are given back as the output is assembled, so that is the peak.
 * Checked before anything is read: when it does not fit, the buffer is
 * still whole, and can be collected somewhere else.
 */
static int check_room(struct sa_recorder *r, GError **err)
{
	guint64 need = sa_tracedat_header_size(r->td) + RESERVE_SLACK;
	guint64 data = 0, avail, per_page = r->page_size - 16;
	struct statvfs v;
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		guint64 b = cpu_buffer_bytes(cpu);

		data += b;
		need += ((b + per_page - 1) / per_page + 2) * r->page_size;
	}
	if (fstatvfs(r->out_fd, &v))
		return 0;	/* not known: a full disk fails the write */
	avail = (guint64)v.f_bavail * v.f_frsize;
	if (need <= avail)
		return 0;
	return sa_trace_fail(err, G_IO_ERROR_NO_SPACE, "%s would take about "
			 "%" G_GUINT64_FORMAT " KB (the boot buffer holds "
			 "%" G_GUINT64_FORMAT " KB of events), and its file "
			 "system has %" G_GUINT64_FORMAT " KB free: nothing "
			 "was written or read, and the buffer is kept (tracing "
			 "is off): collect it to a place with room",
			 r->output, need / 1024, data / 1024, avail / 1024);
}

/* Whether a top-level event has a stacktrace trigger (trace_trigger=). */
static bool has_boot_triggers(struct sa_recorder *r)
{
	bool found = false;
	guint i;

	for (i = 0; i < r->events->len && !found; i++) {
		struct sa_event_ref *e = r->events->pdata[i];
		char *t = tracefs_event_file_read(NULL, e->system, e->name,
						  "trigger", NULL);

		found = t && (g_str_has_prefix(t, "stacktrace") ||
			      strstr(t, "\nstacktrace"));
		free(t);
	}
	return found;
}

int sa_recorder_collect_boot(const char *output,
			     const struct sa_outfile_opts *out,
			     const char *recorder, char *(*snapshot)(void),
			     struct sa_record_result *res, GError **err)
{
	struct sa_recorder *r;
	bool was_on = tracefs_trace_is_on(NULL) > 0;

	/*
	 * First of all, so that what this process does (open files, read
	 * tracefs, start threads) is not recorded
	 */
	tracefs_trace_off(NULL);
	memset(res, 0, sizeof(*res));
	r = g_new0(struct sa_recorder, 1);
	r->whole_only = true;
	r->out_fd = -1;
	r->failed_ms = -1;
	r->output = g_strdup(output);
	r->events = g_ptr_array_new_with_free_func(sa_event_ref_free);
	r->nr_cpus = sa_trace_nr_cpus();
	r->page_size = sa_trace_subbuf_size(NULL);
	if (open_output(r, output, out, err) || top_events(r, err))
		goto fail;
	/*
	 * boot cmdline --stacks: trace_options=stacktrace, or triggers on
	 * the allocations at a wrapper's call site (trace_trigger=)
	 */
	r->stacks = tracefs_option_is_enabled(NULL, TRACEFS_OPTION_STACKTRACE);
	r->boot_triggers = !r->stacks && has_boot_triggers(r);
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
	else if (r->boot_triggers)
		sa_tracedat_set_origin(r->td, SA_ORIGIN_STACKS,
				       "wrappers (boot triggers)");
	if (check_room(r, err))
		goto fail_kept;
	if (reserve_header(r, err) || start_readers(r, err))
		goto fail;
	return sa_recorder_stop(r, res, err);
fail:
	/* nothing was read: tracing as it was (a refused output, ...) */
	if (was_on && !r->readers)
		tracefs_trace_on(NULL);
fail_kept:
	/* no room: tracing stays off, the buffer whole for another try */
	free_recorder(r);
	return -1;
}
