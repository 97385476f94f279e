// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every BPF tool shares: libbpf's messages, the environment check,
 * whether a probe point exists, and JSON output.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "bpf-tool.h"
#include "util/msg.h"

static bool print_verbose, print_quiet;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG && !print_verbose)
		return 0;
	if (level == LIBBPF_INFO && !print_verbose)
		return 0;
	if (print_quiet && !print_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void sa_bpf_set_print(bool verbose)
{
	print_verbose = verbose;
	libbpf_set_print(libbpf_print);
}

void sa_bpf_quiet(bool quiet)
{
	print_quiet = quiet;
}

void sa_bpf_err(const char *tool, int err, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (err < 0)
		err = -err;
	sa_err(tool, "%s: %s", msg, strerror(err));
	g_free(msg);
}

int sa_bpf_check_env(const char *tool)
{
	struct stat st;
	long r;

	if (geteuid() != 0) {
		sa_err(tool, "BPF tools need root (run as root, or with sudo)");
		return -1;
	}
	/* An invalid command: EINVAL if bpf() exists, ENOSYS if not. */
	r = syscall(__NR_bpf, -1, NULL, 0);
	if (r < 0 && errno == ENOSYS) {
		sa_err(tool, "this kernel has no bpf() system call "
		       "(CONFIG_BPF_SYSCALL is off)");
		return -1;
	}
	if (r < 0 && errno == EPERM) {
		sa_err(tool, "bpf() is not permitted here (a seccomp filter, "
		       "a container, or kernel.unprivileged_bpf_disabled)");
		return -1;
	}
	if (stat("/sys/kernel/btf/vmlinux", &st) != 0) {
		sa_err(tool, "the kernel has no BTF (/sys/kernel/btf/vmlinux: "
		       "%s); the BPF tools are CO-RE and need a kernel built "
		       "with CONFIG_DEBUG_INFO_BTF=y", strerror(errno));
		return -1;
	}
	return 0;
}

static bool file_has_func(const char *path, const char *func, int col)
{
	size_t flen = strlen(func);
	char line[512];
	bool found = false;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = line;
		int i;

		/* kallsyms: "addr type name [mod]"; the filter list: "name" */
		for (i = 0; i < col && name; i++) {
			name = strchr(name, ' ');
			if (name)
				name++;
		}
		if (name && !strncmp(name, func, flen) &&
		    (name[flen] == '\n' || name[flen] == ' ' ||
		     name[flen] == '\t' || name[flen] == '\0'))
			found = true;
	}
	fclose(f);
	return found;
}

bool sa_kprobes_available(void)
{
	const char *dir = tracefs_tracing_dir();
	char *path;
	bool ok;

	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0)
		return true;
	if (!dir)
		return false;
	path = g_strdup_printf("%s/kprobe_events", dir);
	ok = access(path, W_OK) == 0;
	g_free(path);
	return ok;
}

bool sa_kprobe_exists(const char *func)
{
	const char *dir = tracefs_tracing_dir();
	char *path;
	FILE *f;

	/*
	 * The list of traceable functions is authoritative; some systems
	 * refuse to let it be read, and then kallsyms says what exists.
	 */
	if (dir) {
		path = g_strdup_printf("%s/available_filter_functions", dir);
		f = fopen(path, "r");
		if (f) {
			bool have;

			fclose(f);
			have = file_has_func(path, func, 0);
			g_free(path);
			return have;
		}
		g_free(path);
	}
	return file_has_func("/proc/kallsyms", func, 2);
}

int sa_require_kprobe(const char *tool, const char *func)
{
	if (!sa_kprobes_available()) {
		sa_err(tool, "this kernel has no kprobes (no kprobe PMU and no "
		       "kprobe_events: CONFIG_KPROBES or CONFIG_KPROBE_EVENTS "
		       "is off), and this tool probes %s()", func);
		return -1;
	}
	if (!sa_kprobe_exists(func)) {
		sa_err(tool, "the kernel has no %s() to probe", func);
		return -1;
	}
	return 0;
}

const char *sa_kprobe_first(const char *const *funcs)
{
	for (; *funcs; funcs++)
		if (sa_kprobe_exists(*funcs))
			return *funcs;
	return NULL;
}

bool sa_tracepoint_exists(const char *category, const char *event)
{
	return tracefs_event_file_exists(NULL, category, event, "format");
}

char *sa_find_libc(pid_t pid)
{
	char path[64], line[1024];
	char *found = NULL;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		char *base;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = '\0';
		base = strrchr(p, '/') + 1;
		if (g_str_has_prefix(base, "libc.so") ||
		    g_str_has_prefix(base, "libc-"))
			found = g_strdup(p);
	}
	fclose(f);
	if (!found)
		errno = ENOENT;
	return found;
}

const char *sa_pid_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, len, f)) {
		if (f)
			fclose(f);
		snprintf(buf, len, "?");
		return buf;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

JsonBuilder *sa_json_report_begin(const char *tool)
{
	JsonBuilder *b = json_builder_new();
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	json_builder_set_member_name(b, "tool");
	json_builder_add_string_value(b, tool);
	json_builder_set_member_name(b, "time");
	json_builder_add_double_value(b, ts.tv_sec + ts.tv_nsec / 1e9);
	return b;
}

JsonBuilder *sa_json_event_begin(const char *tool, __u32 pid, __u32 tid,
				 const char *comm)
{
	JsonBuilder *b = sa_json_report_begin(tool);

	sa_json_put_int(b, "pid", pid);
	sa_json_put_int(b, "tid", tid);
	sa_json_put_str(b, "comm", comm);
	return b;
}

void sa_bpf_json_print(JsonBuilder *b)
{
	sa_json_print(b, stdout, false);
	fflush(stdout);
	g_object_unref(b);
}

static void link_destroy(gpointer l)
{
	bpf_link__destroy(l);
}

GPtrArray *sa_links_new(void)
{
	return g_ptr_array_new_with_free_func(link_destroy);
}

int sa_attach_all(struct bpf_object *obj, const char *tool, GPtrArray *links)
{
	struct bpf_program *prog;
	struct bpf_link *l;
	int err;

	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		l = bpf_program__attach(prog);
		if (!l) {
			err = -errno;
			sa_bpf_err(tool, err, "attaching %s (%s)",
				   bpf_program__name(prog),
				   bpf_program__section_name(prog));
			return err;
		}
		g_ptr_array_add(links, l);
	}
	return 0;
}

int sa_bpf_load_err(const char *tool, int err)
{
	sa_bpf_err(tool, err, "loading the BPF programs (-v shows the "
		   "verifier's log)");
	return SA_EXIT_FAIL;
}

void sa_autoload_tracepoints(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);
		gchar **parts;

		if (!g_str_has_prefix(sec, "tracepoint/"))
			continue;
		parts = g_strsplit(sec, "/", 3);
		if (g_strv_length(parts) == 3 &&
		    !sa_tracepoint_exists(parts[1], parts[2]))
			bpf_program__set_autoload(prog, false);
		g_strfreev(parts);
	}
}
