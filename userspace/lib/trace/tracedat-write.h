/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of trace.dat files, version 6 (trace-cmd.dat.v6(5)).
 *
 * It knows nothing of tracefs: the caller hands it the header files, the
 * event formats, kallsyms, printk formats, saved cmdlines, options and,
 * per CPU, the raw ring-buffer pages (a buffer or a file descriptor), and
 * sa_tracedat_write() lays them out. What trace.dat has no option for goes
 * into slabacct's origin section (see trace/tracedat-format.h), one
 * sa_tracedat_set_origin() call per text blob.
 */
#ifndef SLABACCT_TRACEDAT_WRITE_H
#define SLABACCT_TRACEDAT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

#include "trace/tracedat-format.h"

struct sa_tracedat;

/* A file for nr_cpus CPUs whose ring-buffer pages are page_size bytes. */
struct sa_tracedat *sa_tracedat_new(int nr_cpus, int page_size);
void sa_tracedat_free(struct sa_tracedat *td);

/*
 * The contents of events/header_page and events/header_event. The file's
 * long size is the width of the commit field header_page describes (the
 * kernel's long), never this program's; sa_tracedat_write fails with
 * EINVAL if header_page does not describe it.
 */
void sa_tracedat_set_headers(struct sa_tracedat *td,
			     const char *header_page, size_t page_len,
			     const char *header_event, size_t event_len);
/* events/ftrace/NAME/format */
void sa_tracedat_add_ftrace_format(struct sa_tracedat *td, const char *fmt,
				   size_t len);
/* events/SYSTEM/NAME/format; systems are kept in the order first seen */
void sa_tracedat_add_event_format(struct sa_tracedat *td, const char *system,
				  const char *fmt, size_t len);
void sa_tracedat_set_kallsyms(struct sa_tracedat *td, const char *data,
			      size_t len);
/* The same, taking data (g_malloc'd), with no copy */
void sa_tracedat_take_kallsyms(struct sa_tracedat *td, char *data,
			       size_t len);
void sa_tracedat_set_printk(struct sa_tracedat *td, const char *data,
			    size_t len);
void sa_tracedat_set_cmdlines(struct sa_tracedat *td, const char *data,
			      size_t len);

/* A trace-cmd option (SA_OPT_*); a string option includes its '\0'. */
void sa_tracedat_add_option(struct sa_tracedat *td, unsigned int id,
			    const void *data, size_t len);
void sa_tracedat_add_option_string(struct sa_tracedat *td, unsigned int id,
				   const char *s);

/*
 * Store a text blob under key in the origin section (SA_ORIGIN_* keys, or
 * any other); setting a key again replaces it. NULL text removes it.
 */
void sa_tracedat_set_origin(struct sa_tracedat *td, const char *key,
			    const char *text);

/* CPU cpu's raw pages, copied from memory. */
void sa_tracedat_set_cpu_data(struct sa_tracedat *td, int cpu,
			      const void *data, size_t len);
/*
 * CPU cpu's raw pages, read from fd (from offset 0 to its end) when the
 * file is written. With consume, the space of what was copied is given
 * back to the file system as it goes (hole punching), so assembling the
 * file does not need twice the space.
 */
void sa_tracedat_set_cpu_fd(struct sa_tracedat *td, int cpu, int fd,
			    bool consume);

/* Bytes sa_tracedat_write will put before the first CPU's data. */
size_t sa_tracedat_header_size(struct sa_tracedat *td);

/*
 * Write the file to out_fd from offset 0 (the file is truncated to what
 * was written). If the disk fills while the CPU data are copied, the file
 * is left readable with the pages copied so far (the flyrecord table is
 * rewritten to match), *truncated is set, and -1 is returned with errno
 * ENOSPC. Otherwise returns 0, or -1 with errno set.
 */
int sa_tracedat_write(struct sa_tracedat *td, int out_fd, bool *truncated);

#endif /* SLABACCT_TRACEDAT_WRITE_H */
