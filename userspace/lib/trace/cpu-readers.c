// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU readers of a tracefs instance (see trace/cpu-readers.h). Each
 * reader sleeps in poll() on its trace_pipe_raw and on an eventfd that
 * wakes it to stop or after its sink made room; then, under its lock,
 * it calls the sink until the buffer is empty. The descriptors are
 * non-blocking, so a drain from another thread, under the same lock,
 * never waits for data.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <gio/gio.h>

#include "trace/cpu-readers.h"
#include "util/sigstack.h"

struct cpu_reader {
	struct sa_cpu_readers *r;
	int cpu;
	struct tracefs_cpu *tcpu;	/* NULL: no reader (offline CPU) */
	int fd;				/* its trace_pipe_raw */
	int wake;			/* eventfd: stop, or room again */
	GThread *thread;
	GMutex lock;			/* around the sink's calls */
	bool full;			/* the sink had no room (lock) */
	gint stopping;
	int err;			/* errno that stopped it (lock) */
};

struct sa_cpu_readers {
	struct sa_cpu_sink sink;
	int nr_cpus;
	struct cpu_reader *cpus;
	gint failed;
	bool stopped;
};

int sa_trace_subbuf_size(struct tracefs_instance *inst)
{
	long long kb;

	if (tracefs_instance_file_read_number(inst, "buffer_subbuf_size_kb",
					      &kb) == 0 && kb > 0)
		return (int)(kb * 1024);
	return getpagesize();
}

/*
 * Call the sink until the buffer is empty; 0, or -1 with errno. A CPU
 * with no ring buffer (offline, or its allocation failed: reads fail with
 * ENODEV) is empty, not failed: sa_cpu_readers_error says ENODEV.
 */
static int move_all(struct cpu_reader *c, bool flush)
{
	const struct sa_cpu_sink *s = &c->r->sink;
	int n;

	if (c->err == ENODEV)
		return 0;
	if (c->err) {
		errno = c->err;
		return -1;
	}
	while ((n = s->move(c->tcpu, c->cpu, flush, s->data)) > 0)
		;
	if (n == SA_CPU_SINK_FULL) {
		c->full = true;
		return 0;
	}
	if (n < 0 && errno == ENODEV) {
		c->err = ENODEV;
		return 0;
	}
	if (n < 0) {
		c->err = errno ? errno : EIO;
		g_atomic_int_set(&c->r->failed, 1);
		errno = c->err;
		return -1;
	}
	return 0;
}

static gpointer reader_thread(gpointer data)
{
	struct cpu_reader *c = data;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = c->wake, .events = POLLIN },
			{ .fd = c->fd, .events = POLLIN },
		};
		eventfd_t v;
		bool full, stopping;
		int ret;

		g_mutex_lock(&c->lock);
		full = c->full;
		g_mutex_unlock(&c->lock);
		/* with a full sink, only a kick or a stop will do */
		if (poll(pfd, full ? 1 : 2, -1) < 0 && errno != EINTR) {
			g_mutex_lock(&c->lock);
			c->err = errno;
			g_mutex_unlock(&c->lock);
			g_atomic_int_set(&c->r->failed, 1);
			break;
		}
		if (pfd[0].revents & POLLIN)
			eventfd_read(c->wake, &v);
		stopping = g_atomic_int_get(&c->stopping);
		g_mutex_lock(&c->lock);
		ret = move_all(c, stopping);
		if (c->err == ENODEV)
			ret = -1;	/* no buffer: nothing more to wait for */
		g_mutex_unlock(&c->lock);
		if (ret < 0 || stopping)
			break;
	}
	return NULL;
}

/* Open cpu's trace_pipe_raw; false when the CPU has none (offline). */
static bool reader_open(struct cpu_reader *c, struct tracefs_instance *inst,
			int page_size)
{
	char path[64];

	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", c->cpu);
	c->fd = tracefs_instance_file_open(inst, path,
					   O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0)
		return false;
	c->tcpu = tracefs_cpu_alloc_fd(c->fd, page_size, true);
	if (!c->tcpu) {
		close(c->fd);
		c->fd = -1;
		return false;
	}
	return true;
}

/*
 * libtracefs sizes its reads from the top level's header_page: make sure
 * it agrees with page_size, as reads of the wrong size split events.
 */
static int check_page_size(struct tracefs_instance *inst, int cpu,
			   int page_size, GError **err)
{
	struct tracefs_cpu *probe = tracefs_cpu_open(inst, cpu, true);
	int size;

	if (!probe)
		return 0;
	size = tracefs_cpu_read_size(probe);
	tracefs_cpu_close(probe);
	if (size == page_size)
		return 0;
	g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED, "the ring buffer's "
		    "pages are not %d bytes (%d)", page_size, size);
	return -1;
}

struct sa_cpu_readers *sa_cpu_readers_start(struct tracefs_instance *inst,
					    int nr_cpus, int page_size,
					    const struct sa_cpu_sink *sink,
					    GError **err)
{
	struct sa_cpu_readers *r = g_new0(struct sa_cpu_readers, 1);
	bool checked = false;
	int cpu;

	r->sink = *sink;
	r->nr_cpus = nr_cpus;
	r->cpus = g_new0(struct cpu_reader, nr_cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		c->r = r;
		c->cpu = cpu;
		c->fd = c->wake = -1;
		g_mutex_init(&c->lock);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		if (!reader_open(c, inst, page_size))
			continue;
		if (!checked) {
			if (check_page_size(inst, cpu, page_size, err))
				goto fail;
			checked = true;
		}
		c->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (c->wake < 0) {
			int e = errno;

			g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e),
				    "eventfd: %s", g_strerror(e));
			goto fail;
		}
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		if (c->tcpu)
			c->thread = sa_thread_new("slabacct-cpu", reader_thread,
						 c);
	}
	return r;
fail:
	sa_cpu_readers_free(r);
	return NULL;
}

int sa_cpu_readers_drain(struct sa_cpu_readers *r, int cpu,
			 void (*fn)(int cpu, void *data), void *data)
{
	struct cpu_reader *c = &r->cpus[cpu];
	int ret = 0;

	g_mutex_lock(&c->lock);
	if (c->tcpu)
		ret = move_all(c, true);
	if (fn)
		fn(cpu, data);
	g_mutex_unlock(&c->lock);
	return ret;
}

void sa_cpu_readers_kick(struct sa_cpu_readers *r, int cpu)
{
	struct cpu_reader *c = &r->cpus[cpu];

	g_mutex_lock(&c->lock);
	c->full = false;
	g_mutex_unlock(&c->lock);
	if (c->wake >= 0)
		eventfd_write(c->wake, 1);
}

void sa_cpu_readers_stop(struct sa_cpu_readers *r)
{
	int cpu;

	if (!r || r->stopped)
		return;
	r->stopped = true;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		if (!c->thread)
			continue;
		g_atomic_int_set(&c->stopping, 1);
		eventfd_write(c->wake, 1);
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		if (c->thread)
			g_thread_join(c->thread);
		c->thread = NULL;
	}
}

int sa_cpu_readers_error(const struct sa_cpu_readers *r, int cpu)
{
	return r->cpus[cpu].err;
}

bool sa_cpu_readers_failed(struct sa_cpu_readers *r)
{
	return g_atomic_int_get(&r->failed);
}

void sa_cpu_readers_free(struct sa_cpu_readers *r)
{
	int cpu;

	if (!r)
		return;
	sa_cpu_readers_stop(r);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct cpu_reader *c = &r->cpus[cpu];

		if (c->tcpu)
			tracefs_cpu_close(c->tcpu);	/* closes c->fd */
		else if (c->fd >= 0)
			close(c->fd);
		if (c->wake >= 0)
			close(c->wake);
		g_mutex_clear(&c->lock);
	}
	g_free(r->cpus);
	g_free(r);
}
