// SPDX-License-Identifier: GPL-2.0
/*
 * Collecting a trace.dat's decoding information from the live machine.
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace/meta.h"
#include "trace/tracedat-format.h"

void sa_event_ref_free(gpointer p)
{
	struct sa_event_ref *e = p;

	g_free(e->system);
	g_free(e->name);
	g_free(e);
}

int sa_trace_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

static int missing(GError **err, const char *what)
{
	int e = errno ? errno : EIO;

	g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
		    "cannot read %s: %s", what, g_strerror(e));
	return -1;
}

/* The ftrace system's formats, as trace-cmd saves them. */
static void add_ftrace_formats(struct sa_tracedat *td)
{
	char **names = tracefs_system_events(NULL, "ftrace");
	int i, len;

	for (i = 0; names && names[i]; i++) {
		char *f = tracefs_event_file_read(NULL, "ftrace", names[i],
						  "format", &len);

		if (f && len > 0)
			sa_tracedat_add_ftrace_format(td, f, len);
		free(f);
	}
	tracefs_list_free(names);
}

static char *proc_text(const char *path)
{
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

/* /proc/meminfo, and the system snapshot if asked, as origin blobs */
static void store_state(struct sa_tracedat *td, const char *meminfo_key,
			const char *snapshot_key, sa_snapshot_fn snapshot)
{
	char *text = proc_text("/proc/meminfo");

	sa_tracedat_set_origin(td, meminfo_key, text);
	g_free(text);
	text = snapshot ? snapshot() : NULL;
	sa_tracedat_set_origin(td, snapshot_key, text);
	g_free(text);
}

/*
 * The running kernel's GNU build ID, from the ELF notes it shows in
 * /sys/kernel/notes (namesz, descsz, type, then name and desc, each
 * padded to 4 bytes), as lowercase hex; NULL if it has none.
 */
static char *kernel_build_id(void)
{
	enum { NT_BUILD_ID = 3, NOTES_MAX = 65536, ID_MAX = 64 };
	char *notes = NULL, *id = NULL;
	gsize len = 0, at = 0;

	if (!g_file_get_contents("/sys/kernel/notes", &notes, &len, NULL))
		return NULL;
	while (len <= NOTES_MAX && at + 12 <= len) {
		guint32 h[3];
		gsize name, desc;

		memcpy(h, notes + at, sizeof(h));
		name = ((gsize)h[0] + 3) & ~(gsize)3;
		desc = ((gsize)h[1] + 3) & ~(gsize)3;
		if (name > len - at - 12 || desc > len - at - 12 - name)
			break;
		if (h[2] == NT_BUILD_ID && h[0] == 4 && h[1] && h[1] <= ID_MAX &&
		    !memcmp(notes + at + 12, "GNU", 4)) {
			const guint8 *d = (const guint8 *)notes + at + 12 +
					  name;
			GString *s = g_string_sized_new(2 * h[1]);
			guint32 i;

			for (i = 0; i < h[1]; i++)
				g_string_append_printf(s, "%02x", d[i]);
			id = g_string_free(s, FALSE);
			break;
		}
		at += 12 + name + desc;
	}
	g_free(notes);
	return id;
}

int sa_trace_meta_begin(struct sa_tracedat *td, GPtrArray *events,
			const char *recorder, const char *command,
			sa_snapshot_fn snapshot, GError **err)
{
	char *hp, *he, *text;
	int hp_len, he_len, len;
	gsize glen;
	struct utsname u;
	guint i;

	hp = tracefs_instance_file_read(NULL, "events/header_page", &hp_len);
	he = tracefs_instance_file_read(NULL, "events/header_event", &he_len);
	if (!hp || !he) {
		free(hp);
		free(he);
		return missing(err, "events/header_page");
	}
	sa_tracedat_set_headers(td, hp, hp_len, he, he_len);
	free(hp);
	free(he);
	add_ftrace_formats(td);
	for (i = 0; i < events->len; i++) {
		struct sa_event_ref *e = events->pdata[i];

		text = tracefs_event_file_read(NULL, e->system, e->name,
					       "format", &len);
		if (!text)
			return missing(err, "an event format");
		sa_tracedat_add_event_format(td, e->system, text, len);
		free(text);
	}
	/* megabytes: handed over to the writer, not copied */
	if (!g_file_get_contents("/proc/kallsyms", &text, &glen, NULL))
		return missing(err, "/proc/kallsyms");
	sa_tracedat_take_kallsyms(td, text, glen);
	text = tracefs_instance_file_read(NULL, "printk_formats", &len);
	sa_tracedat_set_printk(td, text ? text : "", text ? len : 0);
	free(text);

	if (uname(&u) == 0)
		sa_tracedat_set_origin(td, SA_ORIGIN_KERNEL_RELEASE, u.release);
	text = kernel_build_id();
	if (text)
		sa_tracedat_set_origin(td, SA_ORIGIN_KERNEL_BUILD_ID, text);
	g_free(text);
	text = proc_text("/proc/cmdline");
	if (text)
		sa_tracedat_set_origin(td, SA_ORIGIN_CMDLINE, g_strchomp(text));
	g_free(text);
	store_state(td, SA_ORIGIN_MEMINFO_START, SA_ORIGIN_SNAPSHOT_START,
		    snapshot);
	sa_tracedat_set_origin(td, SA_ORIGIN_RECORDER, recorder);
	sa_tracedat_set_origin(td, "recorder_version", SLABACCT_VERSION);
	sa_tracedat_set_origin(td, SA_ORIGIN_COMMAND, command);
	return 0;
}

guint64 sa_cpu_stats_value(const char *stats, const char *key)
{
	const char *p = stats;

	/* the key at the start of a line */
	while ((p = strstr(p, key))) {
		if ((p == stats || p[-1] == '\n') && p[strlen(key)] == ':')
			return g_ascii_strtoull(p + strlen(key) + 1, NULL, 10);
		p++;
	}
	return 0;
}

guint64 sa_cpu_stats_lost(const char *stats)
{
	return sa_cpu_stats_value(stats, "overrun") +
	       sa_cpu_stats_value(stats, "commit overrun") +
	       sa_cpu_stats_value(stats, "dropped events");
}

int sa_trace_meta_end(struct sa_tracedat *td,
		      struct tracefs_instance *instance, int nr_cpus,
		      guint64 *lost, sa_snapshot_fn snapshot, GError **err)
{
	struct utsname u;
	char *text, *s;
	int len, cpu;

	text = tracefs_instance_file_read(NULL, "saved_cmdlines", &len);
	sa_tracedat_set_cmdlines(td, text ? text : "", text ? len : 0);
	free(text);
	if (uname(&u) == 0) {
		s = g_strdup_printf("%s %s %s %s %s", u.sysname, u.nodename,
				    u.release, u.version, u.machine);
		sa_tracedat_add_option_string(td, SA_OPT_UNAME, s);
		g_free(s);
	}
	text = tracefs_instance_file_read(instance, "trace_clock", &len);
	if (text) {
		sa_tracedat_add_option_string(td, SA_OPT_TRACECLOCK, text);
		free(text);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		char file[64];

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(instance, file, &len);
		if (lost)
			lost[cpu] = text ? sa_cpu_stats_lost(text) : 0;
		if (!text)
			continue;
		s = g_strdup_printf("CPU: %d\n%s", cpu, text);
		sa_tracedat_add_option_string(td, SA_OPT_CPUSTAT, s);
		g_free(s);
		free(text);
	}
	store_state(td, SA_ORIGIN_MEMINFO_END, SA_ORIGIN_SNAPSHOT_END,
		    snapshot);
	return 0;
}

struct tep_handle *sa_trace_meta_tep(GPtrArray *events)
{
	struct tep_handle *tep = tep_alloc();
	char *text;
	int len;
	guint i;

	if (!tep)
		return NULL;
	text = tracefs_instance_file_read(NULL, "events/header_page", &len);
	if (text)
		tep_parse_header_page(tep, text, len, sizeof(long));
	free(text);
	for (i = 0; i < events->len; i++) {
		struct sa_event_ref *e = events->pdata[i];

		text = tracefs_event_file_read(NULL, e->system, e->name,
					       "format", &len);
		if (text)
			tep_parse_event(tep, text, len, e->system);
		free(text);
	}
	return tep;
}
