// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct record [-e GROUPS] [-o FILE] [-b KB] [--duration S]
 *		   [--follow | --cgroup PATH] [-- CMD...]
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gio/gio.h>

#include "cli/cmd.h"
#include "trace/events.h"
#include "symbols/kallsyms-range.h"
#include "symbols/wrappers.h"
#include "trace/record-advice.h"
#include "trace/recorder.h"
#include "snapshot/snapshot.h"

#define CMD "record"

static const char description[] =
	"Records the events of GROUPS (kmem, page, vmscan, compaction, oom,\n"
	"boot, vmalloc, percpu, all; kmem by default) into FILE, a trace.dat\n"
	"(version 6) that 'slabacct report', 'trace-cmd report' and KernelShark\n"
	"read. It holds the event formats, kallsyms, printk formats and saved\n"
	"cmdlines, so it decodes on another machine, and where it came from:\n"
	"kernel release, /proc/cmdline, /proc/meminfo at start and end, and\n"
	"per-CPU lost events.\n"
	"\n"
	"What is recorded: by default the WHOLE SYSTEM, every task's events,\n"
	"while CMD runs. --follow records CMD and its descendants only (the\n"
	"instance's set_event_pid with its event-fork option; CMD is held\n"
	"before its exec until the filter is in place, so no child escapes).\n"
	"--cgroup PATH records the tasks of a cgroup v2 (PATH in the cgroup2\n"
	"hierarchy, or under its mount point) and their descendants: no\n"
	"kernel filters trace events by cgroup, so its threads at the start\n"
	"go into set_event_pid, and a task moved into the cgroup later is not\n"
	"recorded; an empty cgroup is refused. The trace's origin says the\n"
	"scope, and keeps the tasks (thread, name, cgroup) at start and end,\n"
	"with every fork and exec, for 'slabacct report --by comm|pid|cgroup'.\n"
	"\n"
	"Recording runs in a private tracefs instance (instances/slabacct-PID-T,\n"
	"T the process's start time), removed at the end; the top-level buffer\n"
	"and other users' settings are not touched. It lasts while CMD runs,\n"
	"for S seconds, or until Ctrl-C or any other signal that would end the\n"
	"process (SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGPIPE, ...): FILE is\n"
	"then written and the instance removed; a signal before CMD or the\n"
	"S seconds ended marks FILE as truncated at T (its reports say so).\n"
	"Killed by SIGKILL or a crash signal, slabacct writes no FILE (an\n"
	"earlier one stays as it was) and leaves the instance to the next\n"
	"slabacct, which removes it; CMD gets SIGTERM; a crash signal stops\n"
	"the instance's tracing.\n"
	"\n"
	"The vmalloc group (alloc_vmap_area, free_vmap_area_noflush,\n"
	"purge_vmap_area_lazy: vmalloc, vmap, ioremap and module areas) and\n"
	"the percpu group (percpu_alloc_percpu, percpu_free_percpu,\n"
	"percpu_alloc_percpu_fail) give the report its vmalloc and percpu\n"
	"sections; not on by default, as the page group, and in 'all'. Both\n"
	"came with 5.19: an older kernel lacks them (a warning).\n"
	"The boot group (initcall levels, initcall ends, execs) gives the\n"
	"report of a boot trace its boot phases ('slabacct boot cmdline').\n"
	"Events missing on this kernel are skipped with a warning. --gfp and\n"
	"--call-site filter allocations (the events with gfp_flags, and with\n"
	"call_site and bytes_alloc): frees are all kept, since a free's\n"
	"call_site is the function that frees, and the report matches them to\n"
	"the allocations by pointer. --pid and --comm filter every event. The\n"
	"filters are kept in the trace's origin, and the report says what they\n"
	"imply. The events of slabacct's own threads (its splice reads) are\n"
	"left out, as trace-cmd does (set_event_notrace_pid, or an event filter\n"
	"on common_pid where the kernel lacks it), and the origin says so;\n"
	"--trace-self keeps them.\n"
	"\n"
	"--stacks records a kernel stack (an ftrace kernel_stack entry, which\n"
	"trace-cmd report and KernelShark show) after the allocations whose\n"
	"call site is an allocation wrapper (kvmalloc_node, kmemdup,\n"
	"kstrdup_const, kasprintf, mempool_alloc, krealloc, devm_kmalloc, ...,\n"
	"and their 6.10+ _noprof names; --wrapper SYM adds one): a stacktrace\n"
	"trigger on each allocation event, filtered on call_site within those\n"
	"functions' addresses, so other allocations cost nothing more; with the\n"
	"page group, after every mm_page_alloc too, and with the vmalloc group\n"
	"after every alloc_vmap_area (it has no call site: the report finds the\n"
	"caller past vmalloc's own functions in the stack); with the percpu\n"
	"group, percpu's entry points (__alloc_percpu_gfp, ...) count as\n"
	"wrappers, for kernels whose call site is one. --stacks=all sets the\n"
	"instance's stacktrace option: a stack after every event (as trace-cmd\n"
	"record -T), which costs far more. 'slabacct report' attributes a\n"
	"wrapper's allocations to their callers through the stacks.\n"
	"\n"
	"What FILE reveals: /proc/kallsyms (kernel addresses, which undo\n"
	"KASLR), the heap pointers of every allocation, the command line of\n"
	"the workload and of the kernel, process names and pids (saved\n"
	"cmdlines), and unless --no-snapshot /proc snapshots at start and end\n"
	"(meminfo, slabinfo, zones, every process's name and memory use).\n"
	"So FILE is created with mode 0600 (--mode widens it). It is written\n"
	"as a new file beside FILE and renamed over it only when complete: a\n"
	"failure leaves an earlier FILE as it was, and a reader of the old\n"
	"file keeps reading it. A symlink at FILE is refused unless\n"
	"--follow-symlinks, and a second recording into the same FILE is\n"
	"refused while the first runs (a lock, .FILE.lock beside it).\n"
	"\n"
	"Exit status: 0; CMD's own status when CMD fails (128 + N when signal\n"
	"N killed it; FILE is complete); 1 when recording failed or the disk\n"
	"filled (FILE then holds what was written, marked as truncated; a\n"
	"file system without room for FILE's header, kallsyms and the event\n"
	"formats, and 2 MB gets no FILE, and the message says so); 2 for bad\n"
	"usage, a missing requirement (root, tracefs) or a CMD that cannot be\n"
	"run; with --fail-on-lost, 4 when events were lost or FILE was\n"
	"truncated (FILE is written and says so; CMD's failure, a failed\n"
	"recording or a full disk come first).\n"
	"\n"
	"Examples:\n"
	"  slabacct record -o boot.dat --duration 10\n"
	"  slabacct record -e kmem,page -b 8192 -- make -j2\n"
	"  slabacct record --follow -o make.dat -- make -j2\n"
	"  slabacct record --cgroup /system.slice/nginx.service --duration 10\n"
	"  slabacct record --call-site kstrdup -- ls /\n"
	"  slabacct record --stacks -o w.dat -- ip link show\n"
	"";

/*
 * Every catchable signal whose default would end the process
 * (sa_end_signals) ends the recording cleanly instead: blocked in every
 * thread from the start (so even one ignored by the caller, as a shell
 * ignores SIGINT and SIGQUIT for background jobs, is queued), taken by
 * sigtimedwait. With SIGCHLD. SIGXFSZ is ignored (a file size limit is
 * an error, EFBIG).
 */
static void end_signals(sigset_t *set)
{
	sa_end_signals(set);
	sigaddset(set, SIGCHLD);
}

/*
 * The signals of a crash (or sent as one): no clean stop is possible,
 * but the instance must not go on tracing system-wide. The handler
 * writes 0 to its tracing_on and events/enable (async-signal-safe), then
 * dies of the signal; the next record removes the instance.
 */
static const int crash_signals[] = {
	SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
};
static char crash_tracing_on[PATH_MAX], crash_events_enable[PATH_MAX];

static void write_zero(const char *path)
{
	int fd = path[0] ? open(path, O_WRONLY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		ssize_t n = write(fd, "0", 1);

		(void)n;
		close(fd);
	}
}

static void crash_handler(int sig)
{
	write_zero(crash_tracing_on);
	write_zero(crash_events_enable);
	raise(sig);	/* SA_RESETHAND: the default action now */
}

static void crash_guard(const char *instance_dir)
{
	struct sigaction sa;
	unsigned int i;

	snprintf(crash_tracing_on, sizeof(crash_tracing_on), "%s/tracing_on",
		 instance_dir);
	snprintf(crash_events_enable, sizeof(crash_events_enable),
		 "%s/events/enable", instance_dir);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = crash_handler;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (i = 0; i < G_N_ELEMENTS(crash_signals); i++)
		sigaction(crash_signals[i], &sa, NULL);
}

/* What the workload gets back: the caller's mask and dispositions. */
static sigset_t caller_mask;
static pid_t recorder_pid;

static void child_setup(gpointer data)
{
	signal(SIGXFSZ, SIG_DFL);
	sigprocmask(SIG_SETMASK, &caller_mask, NULL);
	/* the workload ends with us, even when we are killed (SIGKILL) */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != recorder_pid)
		_exit(127);	/* we died before the prctl */
}

/*
 * The workload, forked before the recording starts and held before its
 * exec until tracing is on (so that --follow can list it in
 * set_event_pid before it runs, and no fork of it escapes): it waits
 * for a byte on go; exec's failure comes back on the err pipe, which
 * exec closes.
 */
struct workload {
	pid_t pid;
	int go;		/* write end: a byte releases it, closing ends it */
	int err;	/* read end: exec's errno, or EOF once exec'd */
};

static int workload_fork(char **argv, struct workload *w)
{
	int go[2], er[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -1;
	if (pipe2(er, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	w->pid = fork();
	if (w->pid < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		errno = e;
		return -1;
	}
	if (!w->pid) {
		close(go[1]);
		close(er[0]);
		child_setup(NULL);
		/* its work before the exec is the command's, by name too */
		prctl(PR_SET_NAME, g_path_get_basename(argv[0]));
		if (write(er[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(127);	/* the recording did not start */
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(er[1]);
	w->go = go[1];
	w->err = er[0];
	/* ready: named, and waiting (the task table shows it so) */
	while (read(w->err, &c, 1) < 0 && errno == EINTR)
		;
	return 0;
}

/* Let it exec; 0, or the errno of a failed exec (it is reaped). */
static int workload_release(struct workload *w)
{
	int e = 0, status;
	ssize_t n;

	n = write(w->go, "g", 1);
	(void)n;
	close(w->go);
	w->go = -1;
	do
		n = read(w->err, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err);
	w->err = -1;
	if (n != sizeof(e))
		return 0;
	waitpid(w->pid, &status, 0);
	w->pid = 0;
	return e ? e : ENOEXEC;
}

/* The recording did not start: it exits without running. */
static void workload_cancel(struct workload *w)
{
	int status;

	close(w->go);
	close(w->err);
	waitpid(w->pid, &status, 0);
	w->pid = 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "SIGTERM", or "signal 40" (a real-time one) */
static const char *signal_name(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

enum stop_reason { STOP_CHILD, STOP_TIME, STOP_SIGNAL, STOP_FAILED };

static enum stop_reason wait_for_end(struct sa_recorder *rec, GPid child,
				     double duration, int *status, int *signo)
{
	double deadline = duration > 0 ? now() + duration : 0;
	sigset_t set;

	end_signals(&set);
	for (;;) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		int sig = sigtimedwait(&set, NULL, &ts);

		if (sig > 0 && sig != SIGCHLD) {
			*signo = sig;
			return STOP_SIGNAL;
		}
		if (child > 0 && waitpid(child, status, WNOHANG) == child)
			return STOP_CHILD;
		if (deadline && now() >= deadline)
			return STOP_TIME;
		if (sa_recorder_failed(rec))
			return STOP_FAILED;
	}
}

/*
 * The -b that would have kept the events lost to the buffer (not those
 * lost after a full disk stopped the readers): trace/record-advice.h. NULL
 * when the buffer lost nothing.
 */
static char *buffer_advice(const struct sa_record_result *res,
			   int buffer_kb)
{
	guint64 *lost = g_new0(guint64, res->nr_cpus);
	struct sa_buffer_advice a;
	GString *s;
	int cpu;

	for (cpu = 0; cpu < res->nr_cpus; cpu++)
		lost[cpu] = res->lost[cpu] - res->lost_stopped[cpu];
	sa_buffer_advise(res->nr_cpus, res->cpu_bytes, res->cpu_events, lost,
			 res->buffer_kb ? res->buffer_kb : (guint64)buffer_kb,
			 res->seconds, &a);
	g_free(lost);
	if (!a.need_kb)
		return NULL;
	s = g_string_new(NULL);
	g_string_append_printf(s, "record with a larger buffer (-b %"
			       G_GUINT64_FORMAT ")", a.need_kb);
	if (a.over_max)
		g_string_append(s, ", the most -b takes, and record fewer "
				"events (-e, --pid, --comm, --call-site)");
	g_string_append_printf(s, ": cpu%d lost %" G_GUINT64_FORMAT
			       " events, about %.0f KB more than its %"
			       G_GUINT64_FORMAT " KB buffer held", a.cpu,
			       a.lost, a.lost_bytes / 1024.0,
			       res->buffer_kb ? res->buffer_kb :
			       (guint64)buffer_kb);
	if (a.read_kbps > 0)
		g_string_append_printf(s, " while its reader kept %.0f KB/s",
				       a.read_kbps);
	return g_string_free(s, FALSE);
}

static int parse_call_site(const char *arg, struct sa_record_opts *o)
{
	char *text = NULL, *end;

	if (g_str_has_prefix(arg, "0x")) {
		o->site_lo = g_ascii_strtoull(arg, &end, 16);
		o->site_hi = o->site_lo + 1;
		return *end ? -1 : 0;
	}
	if (!g_file_get_contents("/proc/kallsyms", &text, NULL, NULL))
		return -1;
	if (sa_kallsyms_range(text, arg, &o->site_lo, &o->site_hi)) {
		g_free(text);
		return -1;
	}
	g_free(text);
	return 0;
}

/* --stacks[=wrappers|all] */
static gchar *stacks_arg;

static gboolean parse_stacks(const gchar *name, const gchar *value,
			     gpointer data, GError **err)
{
	if (value && strcmp(value, "wrappers") && strcmp(value, "all")) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "%s takes wrappers or all, not '%s'", name, value);
		return FALSE;
	}
	g_free(stacks_arg);
	stacks_arg = g_strdup(value ? value : "wrappers");
	return TRUE;
}

/*
 * The address ranges of the wrappers (with the --wrapper names), from
 * /proc/kallsyms, for --stacks=wrappers. 0, or SA_EXIT_USAGE after
 * saying why.
 */
static int stack_ranges(struct sa_record_opts *o, gchar **names)
{
	struct sa_wrappers *w = sa_wrappers_new();
	char *text = NULL;
	int ret = 0;

	if (!g_file_get_contents("/proc/kallsyms", &text, NULL, NULL)) {
		sa_err(CMD, "--stacks: cannot read /proc/kallsyms");
		ret = SA_EXIT_USAGE;
		goto out;
	}
	for (; names && *names && !ret; names++) {
		if (!sa_kallsyms_has_func(text, *names)) {
			sa_err(CMD, "--wrapper: no kernel function '%s' in "
			       "/proc/kallsyms", *names);
			ret = SA_EXIT_USAGE;
		}
		sa_wrappers_add(w, *names);
	}
	if (ret)
		goto out;
	/* a percpu allocation whose call site is percpu's own entry point */
	if (o->groups & SA_GROUP_PERCPU)
		sa_wrappers_add_percpu(w);
	o->stack_ranges = sa_wrappers_ranges(w, text);
	if (!o->stack_ranges->len) {
		sa_err(CMD, "--stacks: no allocation wrapper in /proc/kallsyms "
		       "(are its addresses hidden? run as root)");
		ret = SA_EXIT_USAGE;
	}
out:
	g_free(text);
	sa_wrappers_free(w);
	return ret;
}

/* Check the arguments; 0, or SA_EXIT_USAGE after saying why. */
static int check_args(struct sa_record_opts *o, const char *groups,
		      double duration, const char *gfp)
{
	char *bad = NULL, *end;

	if (sa_groups_parse(groups ? groups : "kmem", &o->groups, &bad)) {
		sa_err(CMD, "unknown event group '%s' (kmem, page, vmscan, "
		       "compaction, oom, boot, vmalloc, percpu, all)",
		       bad);
		g_free(bad);
		return SA_EXIT_USAGE;
	}
	if (o->buffer_kb < 0 || o->buffer_kb > 16 * 1024 * 1024) {
		sa_err(CMD, "bad buffer size %d KB (1 to 16777216)",
		       o->buffer_kb);
		return SA_EXIT_USAGE;
	}
	if (duration < 0) {
		sa_err(CMD, "bad duration %g (seconds, more than 0)", duration);
		return SA_EXIT_USAGE;
	}
	if (o->pid < 0) {
		sa_err(CMD, "bad pid %d", o->pid);
		return SA_EXIT_USAGE;
	}
	if (gfp) {
		errno = 0;
		o->gfp_mask = g_ascii_strtoull(gfp, &end, 0);
		if (errno || *end || !o->gfp_mask) {
			sa_err(CMD, "bad GFP mask '%s' (a number, like 0xcc0)",
			       gfp);
			return SA_EXIT_USAGE;
		}
	}
	return 0;
}

/* The command line, as given */
struct record_args {
	gchar *groups, *output, *comm, *gfp, *site, *cgroup, *command;
	gchar **wrapper_names;
	gint buffer_kb, pid;
	gboolean no_snapshot, trace_self, self_filter, fail_on_lost, follow;
	gdouble duration;
	struct sa_output_opts oo;
	char **workload;	/* CMD and its arguments, or NULL */
};

/* What one recording did */
struct record_run {
	struct sa_record_result res;
	enum stop_reason why;
	int status, signo;
	GPid child;
	GError *error;
};

/*
 * The options that name what is recorded and of whom: the call site,
 * the stacks, the scope and the workload. 0, or SA_EXIT_USAGE after
 * saying why.
 */
static int record_scope(struct record_args *a, struct sa_record_opts *o)
{
	char *path;

	o->site_name = a->site;
	if (a->site && parse_call_site(a->site, o)) {
		sa_err(CMD, "unknown call site '%s' (a kernel function in "
		       "/proc/kallsyms, or 0xADDRESS)", a->site);
		return SA_EXIT_USAGE;
	}
	if (a->wrapper_names && !stacks_arg) {
		sa_err(CMD, "--wrapper goes with --stacks");
		return SA_EXIT_USAGE;
	}
	if (stacks_arg)
		o->stacks = strcmp(stacks_arg, "all") ? SA_STACKS_WRAPPERS :
			    SA_STACKS_ALL;
	if (o->stacks == SA_STACKS_WRAPPERS &&
	    stack_ranges(o, a->wrapper_names))
		return SA_EXIT_USAGE;
	if (a->follow && !a->workload) {
		sa_err(CMD, "--follow follows a command: give it after '--'");
		return SA_EXIT_USAGE;
	}
	if (a->follow && a->cgroup) {
		sa_err(CMD, "--follow and --cgroup are two scopes: give one");
		return SA_EXIT_USAGE;
	}
	o->scope = a->follow ? SA_SCOPE_FOLLOW : a->cgroup ? SA_SCOPE_CGROUP :
		   SA_SCOPE_SYSTEM;
	o->cgroup = a->cgroup;
	if (!a->workload)
		return 0;
	/* before anything is touched: an earlier FILE stays */
	if (!(path = g_find_program_in_path(a->workload[0]))) {
		sa_err(CMD, "cannot run '%s': not found, or not executable",
		       a->workload[0]);
		return SA_EXIT_USAGE;
	}
	g_free(path);
	a->command = g_strjoinv(" ", a->workload);
	o->command = a->command;
	return 0;
}

/* Parse and check the command line into a and o: 0, or the exit status */
static int record_parse(int argc, char **argv, struct record_args *a,
			struct sa_record_opts *o)
{
	const GOptionEntry entries[] = {
		{ "events", 'e', 0, G_OPTION_ARG_STRING, &a->groups,
		  "groups: kmem (default), page, vmscan, compaction, oom, "
		  "boot, vmalloc, percpu, all",
		  "GROUPS" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output,
		  "the trace.dat to write (default trace.dat)", "FILE" },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_INT, &a->buffer_kb,
		  "ring buffer per CPU, in KB (default: the kernel's)", "KB" },
		{ "duration", 0, 0, G_OPTION_ARG_DOUBLE, &a->duration,
		  "record for S seconds", "S" },
		{ "pid", 'p', 0, G_OPTION_ARG_INT, &a->pid,
		  "only events of this pid", "PID" },
		{ "comm", 'c', 0, G_OPTION_ARG_STRING, &a->comm,
		  "only events of tasks with this command name", "COMM" },
		{ "follow", 'F', 0, G_OPTION_ARG_NONE, &a->follow,
		  "only CMD and its descendants (default: the whole "
		  "system)", NULL },
		{ "cgroup", 0, 0, G_OPTION_ARG_FILENAME, &a->cgroup,
		  "only the tasks of this cgroup (v2) and their "
		  "descendants", "PATH" },
		{ "gfp", 0, 0, G_OPTION_ARG_STRING, &a->gfp,
		  "only allocations with one of these GFP bits", "MASK" },
		{ "call-site", 0, 0, G_OPTION_ARG_STRING, &a->site,
		  "only allocations from this function (or 0xADDRESS); "
		  "every free is kept", "SYM" },
		{ "stacks", 0, G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, parse_stacks,
		  "a kernel stack with the allocations at a wrapper's call "
		  "site, or with every event: wrappers (default) or all",
		  "[WHICH]" },
		{ "wrapper", 0, 0, G_OPTION_ARG_STRING_ARRAY,
		  &a->wrapper_names,
		  "--stacks: one more allocation wrapper (repeatable)",
		  "SYM" },
		{ "no-snapshot", 0, 0, G_OPTION_ARG_NONE, &a->no_snapshot,
		  "store no system snapshot at start and end (it reads "
		  "every process's smaps_rollup)", NULL },
		{ "trace-self", 0, 0, G_OPTION_ARG_NONE, &a->trace_self,
		  "keep the events of slabacct's own threads (left out by "
		  "default)", NULL },
		{ "self-filter", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
		  &a->self_filter, "leave them out by an event filter even "
		  "where set_event_notrace_pid exists (for tests)", NULL },
		{ "fail-on-lost", 0, 0, G_OPTION_ARG_NONE, &a->fail_on_lost,
		  "exit 4 if any event was lost or the recording was "
		  "truncated: an incomplete measurement fails (for CI)",
		  NULL },
		SA_OUTPUT_OPTION_ENTRIES(a->oo),
		{ NULL },
	};
	int ret;

	if (argc > 1 && !strcmp(argv[argc - 1], "--")) {
		sa_err(CMD, "no command after '--' (see --help)");
		return SA_EXIT_USAGE;
	}
	if (sa_parse_options(&argc, &argv, CMD,
			     "[--follow | --cgroup PATH] [-- CMD...]",
			     "Record kernel memory events into a trace.dat "
			     "file.", description, entries))
		return SA_EXIT_USAGE;
	o->buffer_kb = a->buffer_kb;
	o->pid = a->pid;
	o->comm = a->comm;
	o->output = a->output ? a->output : "trace.dat";
	o->recorder = "slabacct record";
	o->no_snapshot = a->no_snapshot;
	o->snapshot = sa_snapshot_capture_json;
	o->trace_self = a->trace_self;
	o->self_by_filter = a->self_filter;
	if ((ret = check_args(o, a->groups, a->duration, a->gfp)))
		return ret;
	if (sa_output_opts_get(CMD, &a->oo, &o->out))
		return SA_EXIT_USAGE;
	if (argc > 1 && !strcmp(argv[1], "--")) {
		argv++;
		argc--;
	}
	a->workload = argc > 1 ? argv + 1 : NULL;
	if (sa_require_tracefs(CMD))
		return SA_EXIT_USAGE;
	sa_stale_instances(CMD, true);
	return record_scope(a, o);
}

/*
 * Record until the workload ends, the duration passes or a signal comes:
 * 0 with r->res filled (also when the disk filled: r->res.disk_full), or
 * the exit status after saying why.
 */
static int record_run(const struct record_args *a, struct sa_record_opts *o,
		      struct record_run *r)
{
	struct workload wl = { 0, -1, -1 };
	GPtrArray *missing = NULL;
	struct sa_recorder *rec;
	sigset_t set;
	int ret, i;

	/* A file size limit is an error (EFBIG) like a full disk. */
	signal(SIGXFSZ, SIG_IGN);
	/* The readers inherit the mask; the end signals come to sigwait. */
	end_signals(&set);
	recorder_pid = getpid();
	pthread_sigmask(SIG_BLOCK, &set, &caller_mask);
	/* held before its exec until tracing is on */
	if (a->workload && workload_fork(a->workload, &wl)) {
		sa_err(CMD, "cannot run '%s': %s", a->workload[0],
		       g_strerror(errno));
		return SA_EXIT_FAIL;
	}
	o->follow_pid = wl.pid;
	rec = sa_recorder_start(o, &missing, &r->error);
	for (i = 0; missing && i < (int)missing->len; i++)
		sa_warn(CMD, "%s does not exist on this kernel; not recorded",
			(char *)missing->pdata[i]);
	if (missing)
		g_ptr_array_unref(missing);
	if (!rec) {
		if (wl.pid)
			workload_cancel(&wl);
		sa_output_error(CMD, r->error);
		return g_error_matches(r->error, G_IO_ERROR,
				       G_IO_ERROR_INVALID_ARGUMENT) ||
		       g_error_matches(r->error, G_IO_ERROR,
				       G_IO_ERROR_NOT_SUPPORTED)
			? SA_EXIT_USAGE : SA_EXIT_FAIL;
	}
	crash_guard(sa_recorder_instance_dir(rec));
	if (wl.pid) {
		int e = workload_release(&wl);

		if (e) {
			sa_err(CMD, "cannot run '%s': %s", a->workload[0],
			       g_strerror(e));
			sa_recorder_abort(rec);
			return SA_EXIT_USAGE;
		}
		r->child = wl.pid;
	}
	if (!a->workload)
		fprintf(stderr, "slabacct record: recording into %s (instance "
			"%s)%s\n", o->output, sa_recorder_instance(rec),
			a->duration > 0 ? "" : "; Ctrl-C stops");
	r->why = wait_for_end(rec, r->child, a->duration, &r->status,
			      &r->signo);
	/* the workload or the duration did not end: the trace is cut */
	if (r->why == STOP_SIGNAL && (r->child > 0 || a->duration > 0)) {
		char *early = g_strdup_printf("%s before the %s ended",
					      signal_name(r->signo),
					      r->child > 0 ? "workload" :
					      "duration");

		sa_recorder_stopped_early(rec, early);
		g_free(early);
	}
	ret = sa_recorder_stop(rec, &r->res, &r->error);
	if (r->child > 0 && r->why != STOP_CHILD) {
		kill(r->child, SIGTERM);
		waitpid(r->child, &r->status, 0);
	}
	if (ret && !r->res.disk_full) {
		sa_err(CMD, "%s", r->error->message);
		return SA_EXIT_FAIL;
	}
	return 0;
}

/* What was recorded, of whom, and the exit status it makes */
static int record_verdict(const struct record_args *a,
			  const struct sa_record_opts *o,
			  const struct record_run *r)
{
	const struct sa_record_result *res = &r->res;
	const char *cmd = a->workload ? a->workload[0] : NULL;
	char *advice = buffer_advice(res, o->buffer_kb);

	sa_print_record_result(CMD, o->output, res, advice);
	g_free(advice);
	if (o->scope == SA_SCOPE_FOLLOW)
		fprintf(stderr, "slabacct record: scope: '%s' and its "
			"descendants only\n", cmd);
	else if (o->scope == SA_SCOPE_CGROUP)
		fprintf(stderr, "slabacct record: scope: cgroup %s (its tasks "
			"at the start and their descendants)\n", o->cgroup);
	else
		fprintf(stderr, "slabacct record: scope: the whole system, "
			"every task%s\n", cmd ? " (--follow: CMD and its "
			"descendants only)" : "");
	if (res->disk_full && res->no_origin) {
		sa_err(CMD, "the disk filled while %s was assembled (%s): it "
		       "holds the events that fitted, but not the section "
		       "that ends a complete file; trace-cmd reads it, "
		       "slabacct report refuses it as cut short",
		       o->output, r->error->message);
		return SA_EXIT_FAIL;
	}
	if (res->disk_full) {
		sa_err(CMD, "the disk filled, so recording stopped early (%s); "
		       "%s is readable, holds the events written before and "
		       "is marked as truncated", r->error->message, o->output);
		return SA_EXIT_FAIL;
	}
	if (r->child > 0 && r->why == STOP_CHILD &&
	    !(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0)) {
		/* the workload's failure is ours, as with time(1) */
		sa_warn(CMD, "'%s' %s %d (the recording is complete)", cmd,
			WIFEXITED(r->status) ? "exited with status" :
			"was killed by signal",
			WIFEXITED(r->status) ? WEXITSTATUS(r->status) :
			WTERMSIG(r->status));
		return WIFEXITED(r->status) ? WEXITSTATUS(r->status) :
			128 + WTERMSIG(r->status);
	}
	if (a->fail_on_lost &&
	    (res->lost_total || res->no_buffer || res->truncated)) {
		sa_fail_on_lost(CMD, res);
		return SA_EXIT_LOST;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct sa_record_opts o = { 0 };
	struct record_run r = { 0 };
	int ret;

	ret = record_parse(argc, argv, &a, &o);
	if (!ret)
		ret = record_run(&a, &o, &r);
	if (!ret) {
		ret = record_verdict(&a, &o, &r);
		sa_record_result_clear(&r.res);
	}
	g_clear_error(&r.error);
	g_free(a.groups);
	g_free(a.output);
	g_free(a.comm);
	g_free(a.cgroup);
	g_free(a.gfp);
	g_free(a.site);
	g_free(a.command);
	g_strfreev(a.wrapper_names);
	g_clear_pointer(&stacks_arg, g_free);
	if (o.stack_ranges)
		g_array_unref(o.stack_ranges);
	sa_output_opts_clear(&a.oo);
	return ret;
}
