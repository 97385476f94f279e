/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a tracefs instance's ring buffers as they fill: one thread per
 * CPU waits on its trace_pipe_raw (poll, which wakes at the instance's
 * buffer_percent watermark) and hands what the buffer holds to a sink:
 * the recorder splices pages into a file, top copies them to memory.
 * The caller can drain a CPU at any moment (sa_cpu_readers_drain), which
 * moves what its buffer holds then, partly filled page included.
 *
 *	struct sa_cpu_readers *r = sa_cpu_readers_start(inst, nr_cpus,
 *						page_size, &sink, &err);
 *	... trace ...
 *	sa_cpu_readers_stop(r);		(flushes the last pages)
 *	sa_cpu_readers_free(r);	(before removing the instance)
 */
#ifndef SLABACCT_CPU_READERS_H
#define SLABACCT_CPU_READERS_H

#include <stdbool.h>
#include <glib.h>
#include <tracefs.h>

/* sink->move: no room now; wait for sa_cpu_readers_kick */
#define SA_CPU_SINK_FULL	(-2)

struct sa_cpu_sink {
	/*
	 * Move some of what CPU cpu's buffer holds through tcpu (open
	 * non-blocking), with flush the partly filled page too. Returns
	 * > 0 when something was moved (it is called again), 0 when
	 * nothing is left, SA_CPU_SINK_FULL, or -1 with errno set: the
	 * reader then stops, its error kept. Called with the CPU's lock
	 * held, from its reader thread or from sa_cpu_readers_drain.
	 */
	int (*move)(struct tracefs_cpu *tcpu, int cpu, bool flush,
		    void *data);
	void *data;
};

struct sa_cpu_readers;

/*
 * Open each CPU's trace_pipe_raw of inst (NULL: the top level) and start
 * its reader. A CPU that cannot be opened (offline) has no reader. The
 * ring buffer's sub-buffers must be page_size bytes. NULL with *err on
 * error.
 */
struct sa_cpu_readers *sa_cpu_readers_start(struct tracefs_instance *inst,
					    int nr_cpus, int page_size,
					    const struct sa_cpu_sink *sink,
					    GError **err);

/*
 * Move what cpu's buffer holds now, the partly filled page included,
 * then call fn (if any) under the same lock, so that the reader adds
 * nothing in between. Returns 0, or -1 if the sink failed (errno).
 */
int sa_cpu_readers_drain(struct sa_cpu_readers *r, int cpu,
			 void (*fn)(int cpu, void *data), void *data);

/* The sink has room again for cpu: its reader may go on. */
void sa_cpu_readers_kick(struct sa_cpu_readers *r, int cpu);

/* Stop the readers after they flush what their buffers hold; idempotent. */
void sa_cpu_readers_stop(struct sa_cpu_readers *r);

/*
 * The errno that stopped cpu's reader, or 0. ENODEV: the CPU has no ring
 * buffer (offline, or its allocation failed); nothing was read from it,
 * and it is not a failure (sa_cpu_readers_failed).
 */
int sa_cpu_readers_error(const struct sa_cpu_readers *r, int cpu);

/* True once a reader stopped on an error. */
bool sa_cpu_readers_failed(struct sa_cpu_readers *r);

/* Stop, and close the files (an instance with them open stays busy). */
void sa_cpu_readers_free(struct sa_cpu_readers *r);

/* The ring buffer's sub-buffer (page) size of inst (NULL: top level). */
int sa_trace_subbuf_size(struct tracefs_instance *inst);

#endif /* SLABACCT_CPU_READERS_H */
