// SPDX-License-Identifier: GPL-2.0
/*
 * Reading where a trace.dat came from: trace-cmd's standard options
 * (UNAME, CPUSTAT, TRACECLOCK, VERSION) through libtracecmd, which reads
 * both file versions and compressed sections, and slabacct's origin
 * section (trace/tracedat-format.h) from the end of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/origin.h"
#include "trace/tracecmd-private.h"
#include "trace/tracedat-format.h"

#define ORIGIN_MAX	(256u << 20)	/* a sanity limit on the section */
/* CPUs, as the structural check allows */
#define SA_MAX_CPUS	8192

static guint64 get_le(const guint8 *p, int size)
{
	guint64 v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static int damaged(GError **err, const char *path, guint64 off,
		   const char *what)
{
	g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "%s: slabacct origin section damaged at offset %"
		    G_GUINT64_FORMAT ": %s", path, off, what);
	return -1;
}

static int io_error(GError **err, const char *path, int e)
{
	g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s",
		    path, g_strerror(e));
	return -1;
}

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Parse the origin section, if the file has one, into *table. */
static int read_origin_section(const char *path, GHashTable **table,
			       GError **err)
{
	guint8 foot[16], *sec = NULL, *p, *end;
	off_t size;
	guint64 at, count, i;
	int fd, ret = -1;

	*table = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return io_error(err, path, errno);
	size = lseek(fd, 0, SEEK_END);
	if (size < 16) {
		ret = 0;
		goto out;
	}
	if (pread_full(fd, foot, 16, size - 16)) {
		io_error(err, path, errno);
		goto out;
	}
	if (memcmp(foot + 8, SA_ORIGIN_MAGIC, SA_ORIGIN_MAGIC_LEN)) {
		ret = 0;	/* not one of ours, or cut short */
		goto out;
	}
	at = get_le(foot, 8);
	if (at + 16 + 16 > (guint64)size || size - 16 - at > ORIGIN_MAX) {
		damaged(err, path, size - 16, "bad section offset");
		goto out;
	}
	sec = g_malloc(size - 16 - at);
	if (pread_full(fd, sec, size - 16 - at, at)) {
		io_error(err, path, errno);
		goto out;
	}
	end = sec + (size - 16 - at);
	if (memcmp(sec, SA_ORIGIN_MAGIC, SA_ORIGIN_MAGIC_LEN) ||
	    get_le(sec + 8, 4) != SA_ORIGIN_VERSION) {
		damaged(err, path, at, "bad magic or version");
		goto out;
	}
	count = get_le(sec + 12, 4);
	p = sec + 16;
	*table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       g_free);
	for (i = 0; i < count; i++) {
		guint8 *nul = memchr(p, '\0', end - p);
		guint64 len;

		if (!nul || end - nul - 1 < 8) {
			damaged(err, path, at + (p - sec), "truncated key");
			goto bad;
		}
		len = get_le(nul + 1, 8);
		if (len > (guint64)(end - nul - 9)) {
			damaged(err, path, at + (p - sec), "truncated value");
			goto bad;
		}
		g_hash_table_insert(*table, g_strdup((char *)p),
				    g_strndup((char *)nul + 9, len));
		p = nul + 9 + len;
	}
	ret = 0;
	goto out;
bad:
	g_clear_pointer(table, g_hash_table_unref);
out:
	g_free(sec);
	close(fd);
	return ret;
}

static void ensure_cpus(struct sa_trace_origin *o, int cpu)
{
	if (cpu < o->nr_cpus)
		return;
	o->lost = g_renew(guint64, o->lost, cpu + 1);
	memset(o->lost + o->nr_cpus, 0,
	       (cpu + 1 - o->nr_cpus) * sizeof(guint64));
	o->nr_cpus = cpu + 1;
}

/*
 * CPUSTAT options are "CPU: N\n" followed by per_cpu/cpuN/stats. Events
 * are lost by overwriting (overrun), by commit overruns, and when the
 * buffer is full and not overwriting (dropped events).
 */
static void parse_cpustats(struct sa_trace_origin *o, const char *stats)
{
	gchar **lines = g_strsplit(stats, "\n", -1);
	int cpu = -1, i;

	for (i = 0; lines[i]; i++) {
		const char *l = lines[i];
		const char *colon = strchr(l, ':');
		guint64 v;

		if (!colon)
			continue;
		v = g_ascii_strtoull(colon + 1, NULL, 10);
		if (g_str_has_prefix(l, "CPU:")) {
			/* the file's number: a CPU the kernel can have */
			cpu = v < SA_MAX_CPUS ? (int)v : -1;
			if (cpu < 0)
				continue;
			ensure_cpus(o, cpu);
			o->lost_known = true;
		} else if (cpu >= 0 && (g_str_has_prefix(l, "overrun:") ||
				      g_str_has_prefix(l, "commit overrun:") ||
				      g_str_has_prefix(l, "dropped events:"))) {
			o->lost[cpu] += v;
			o->lost_total += v;
		}
	}
	g_strfreev(lines);
}

static char *release_of(const char *uname)
{
	gchar **w = g_strsplit(uname, " ", 4);
	char *r = g_strv_length(w) >= 3 ? g_strdup(w[2]) : NULL;

	g_strfreev(w);
	return r;
}

/* uname -v out of "sysname nodename release version... machine". */
static char *version_of(const char *uname)
{
	gchar **w = g_strsplit(uname, " ", 4);
	const char *end = g_strv_length(w) >= 4 ? strrchr(w[3], ' ') : NULL;
	char *v = end ? g_strndup(w[3], end - w[3]) : NULL;

	g_strfreev(w);
	return v;
}

/*
 * SA_ORIGIN_TRUNCATED: "AT_NS WHY" or "- WHY" (taken). A value of
 * another shape still marks the trace, with the whole text as why.
 */
static void parse_truncated(struct sa_trace_origin *o, char *text)
{
	char *sp, *end;
	guint64 ns;

	if (!text)
		return;
	sp = strchr(text, ' ');
	if (sp && sp > text && sp[1]) {
		if (sp - text == 1 && text[0] == '-') {
			o->truncated = g_strdup(sp + 1);
			g_free(text);
			return;
		}
		errno = 0;
		ns = g_ascii_strtoull(text, &end, 10);
		if (!errno && end == sp && g_ascii_isdigit(text[0])) {
			o->truncated = g_strdup(sp + 1);
			o->truncated_ns = ns;
			o->truncated_at_known = true;
			g_free(text);
			return;
		}
	}
	o->truncated = text[0] ? text : g_strdup("unknown reason");
	if (!text[0])
		g_free(text);
}

/*
 * The first timestamp only. The last comes from the records the report
 * reads: libtracecmd's tracecmd_read_cpu_last() dies on a CPU whose data
 * is not a whole number of pages, as trace-cmd 3.1 itself writes them.
 */
static void first_ts(struct tracecmd_input *h, struct sa_trace_origin *o)
{
	o->start_ns = tracecmd_get_first_ts(h);
}

static char *take(GHashTable *t, const char *key)
{
	const char *v = t ? g_hash_table_lookup(t, key) : NULL;

	return v ? g_strdup(v) : NULL;
}

int sa_trace_origin_read(const char *path, struct sa_trace_origin *o,
			 GError **err)
{
	struct tracecmd_input *h;
	const char *s;
	int ncpu;

	memset(o, 0, sizeof(*o));
	if (access(path, R_OK))
		return io_error(err, path, errno);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
			  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not a readable trace.dat file", path);
		return -1;
	}
	if (read_origin_section(path, &o->extra, err)) {
		tracecmd_close(h);
		return -1;
	}
	o->file_version = tracecmd_get_in_file_version(h);
	if ((s = tracecmd_get_uname(h)))
		o->uname = g_strdup(s);
	if ((s = tracecmd_get_version(h)))
		o->tracer_version = g_strdup(s);
	if ((s = tracecmd_get_trace_clock(h)))
		o->clock = g_strdup(s);
	ncpu = tracecmd_cpus(h);
	if (ncpu > 0 && ncpu <= SA_MAX_CPUS)
		ensure_cpus(o, ncpu - 1);
	if ((s = tracecmd_get_cpustats(h)))
		parse_cpustats(o, s);
	first_ts(h, o);
	tracecmd_close(h);

	o->kernel_release = take(o->extra, SA_ORIGIN_KERNEL_RELEASE);
	if (!o->kernel_release && o->uname)
		o->kernel_release = release_of(o->uname);
	if (o->uname)
		o->kernel_version = version_of(o->uname);
	o->kernel_build_id = take(o->extra, SA_ORIGIN_KERNEL_BUILD_ID);
	o->cmdline = take(o->extra, SA_ORIGIN_CMDLINE);
	o->recorder = take(o->extra, SA_ORIGIN_RECORDER);
	if (!o->recorder && o->tracer_version)
		o->recorder = g_strdup_printf("trace-cmd %s",
					      o->tracer_version);
	o->command = take(o->extra, SA_ORIGIN_COMMAND);
	o->left_out = take(o->extra, SA_ORIGIN_LEFT_OUT);
	o->filter = take(o->extra, SA_ORIGIN_FILTER);
	o->scope = take(o->extra, SA_ORIGIN_SCOPE);
	o->meminfo_start = take(o->extra, SA_ORIGIN_MEMINFO_START);
	o->meminfo_end = take(o->extra, SA_ORIGIN_MEMINFO_END);
	o->snapshot_start = take(o->extra, SA_ORIGIN_SNAPSHOT_START);
	o->snapshot_end = take(o->extra, SA_ORIGIN_SNAPSHOT_END);
	parse_truncated(o, take(o->extra, SA_ORIGIN_TRUNCATED));
	return 0;
}

GPtrArray *sa_trace_origin_notes(const struct sa_trace_origin *o)
{
	GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
	const char *v;

#define KEY(k) (o->extra ? (const char *)g_hash_table_lookup(o->extra, k) \
			 : NULL)
	if ((v = KEY(SA_ORIGIN_FILTER_CALL_SITE)))
		g_ptr_array_add(notes, g_strdup_printf(
			"recorded with --call-site %s: the trace has that "
			"function's allocations and every free (a free carries "
			"the freeing function's call site), matched by "
			"pointer: its frees and live figures are exact, and "
			"'unmatched frees' also counts other sites' objects",
			v));
	if ((v = KEY(SA_ORIGIN_FILTER_GFP)))
		g_ptr_array_add(notes, g_strdup_printf(
			"recorded with --gfp %s: only allocations with one of "
			"these flags are in the trace, but every free: "
			"'unmatched frees' counts the objects of the others",
			v));
	if ((v = KEY(SA_ORIGIN_FILTER_PID)) ||
	    (v = KEY(SA_ORIGIN_FILTER_COMM)))
		g_ptr_array_add(notes, g_strdup_printf(
			"recorded with --%s %s: only that task's events, frees "
			"included: an object another task freed looks live",
			KEY(SA_ORIGIN_FILTER_PID) ? "pid" : "comm", v));
	if ((v = KEY(SA_ORIGIN_SCOPE)) && !g_str_has_prefix(v, "system"))
		g_ptr_array_add(notes, g_strdup(
			"recorded for some tasks only (scope): the kernel's "
			"work for them in its own threads (kworkers, "
			"writeback, ksoftirqd, kswapd) is not in the trace, "
			"and interrupts are only where they hit those tasks; "
			"record the system and read report --by comm for "
			"them, shown apart"));
	if ((v = KEY(SA_ORIGIN_NO_BUFFER)))
		g_ptr_array_add(notes, g_strdup_printf(
			"CPU %s had no ring buffer (the kernel could not "
			"allocate it: at boot, a trace_buf_size too large for "
			"the memory): none of its events were recorded, and "
			"every figure misses them", v));
	if ((v = KEY(SA_ORIGIN_BUFFER_FAILED)))
		g_ptr_array_add(notes, g_strdup_printf(
			"CPU %s did not come up: the kernel could not allocate "
			"its ring buffer as it came up (dmesg: \"failed to "
			"allocate ring buffer on CPU %s\"; a trace_buf_size "
			"too large for the memory then): the boot ran without "
			"it, unlike the board's own", v, v));
	if ((v = KEY(SA_ORIGIN_OFFLINE)))
		g_ptr_array_add(notes, g_strdup_printf(
			"CPU %s was offline: it had no ring buffer, and no "
			"events to record", v));
#undef KEY
	return notes;
}

void sa_trace_origin_clear(struct sa_trace_origin *o)
{
	g_free(o->uname);
	g_free(o->kernel_release);
	g_free(o->kernel_version);
	g_free(o->kernel_build_id);
	g_free(o->cmdline);
	g_free(o->recorder);
	g_free(o->command);
	g_free(o->left_out);
	g_free(o->filter);
	g_free(o->scope);
	g_free(o->clock);
	g_free(o->lost);
	g_free(o->meminfo_start);
	g_free(o->meminfo_end);
	g_free(o->snapshot_start);
	g_free(o->snapshot_end);
	g_free(o->truncated);
	g_free(o->tracer_version);
	if (o->extra)
		g_hash_table_unref(o->extra);
	memset(o, 0, sizeof(*o));
}
