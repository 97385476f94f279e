/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF tools' shared front-end interface. Each tool is X.bpf.c (the BPF
 * program, compiled to build/bpf/X.skel.h), X.c (its front end, which
 * defines one struct sa_bpf_tool) and an optional X.h with the types both
 * sides share. cmd-bpf.c parses the options every tool has and runs it.
 */
#ifndef SLABACCT_BPF_TOOL_H
#define SLABACCT_BPF_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "util/json.h"


/* The options every tool takes. */
struct sa_bpf_opts {
	const char *tool;	/* the tool's name, for messages */
	pid_t pid;		/* -p: trace this process only (0: all) */
	char **cmd_argv;	/* -c: run this command and trace it */
	int interval;		/* seconds between reports (0: at the end) */
	int count;		/* number of reports (0: until stopped) */
	bool json;		/* --json: JSON, one document per report */
	bool verbose;		/* -v: libbpf's own messages */
};

/*
 * The state of a run: the target process (if -p or -c) and the stop
 * condition. Tools only read it; the loop in bpf-run.c drives it.
 */
struct sa_bpf_run {
	const struct sa_bpf_opts *opts;
	pid_t target;		/* -p PID or the -c child, 0 for all */
	pid_t child;		/* the -c child, 0 if none */
	int child_fd;		/* the -c child's go pipe, -1 once started */
	bool child_held;	/* the child is stopped at its exit */
	int child_status;	/* wait status once it has exited */
	int reports;		/* reports printed so far */
};

struct sa_bpf_tool {
	const char *name;
	const char *params;	/* the usage line's parameters */
	const char *line;	/* its line in `slabacct --help` */
	const char *summary;
	const char *description;	/* help text, with EXAMPLES */
	/* tool-specific options, NULL-terminated; may be NULL */
	const GOptionEntry *entries;
	/* run the tool; returns an SA_EXIT_* code */
	int (*run)(struct sa_bpf_run *run);
};

/*
 * The one registry of the tools (registry.c), in the order `slabacct
 * --help` lists them, NULL-terminated: a new tool is X.bpf.c, X.c and
 * one line there.
 */
extern const struct sa_bpf_tool *const sa_bpf_tools[];
/* Why this build has no BPF tools (sa_bpf_tools is empty), or NULL. */
extern const char *const sa_bpf_absent;
/* The tool of that name, or NULL. */
const struct sa_bpf_tool *sa_bpf_tool_find(const char *name);

/* --- bpf-helpers.c: environment checks, probe points ---------------- */

/* Route libbpf's messages to stderr (all if verbose, else warnings). */
void sa_bpf_set_print(bool verbose);

/*
 * Check root, the bpf() syscall and the kernel's BTF. Prints what is
 * missing (as "slabacct TOOL: ...") and returns -1 if BPF cannot work.
 */
int sa_bpf_check_env(const char *tool);

/* Whether the kernel has kprobes at all (a kprobe PMU or kprobe_events). */
bool sa_kprobes_available(void);

/*
 * Print why a tool that needs a kprobe on func cannot run, and return
 * -1; 0 if it can (kprobes work and func exists).
 */
int sa_require_kprobe(const char *tool, const char *func);

/* Whether a kernel function can take a kprobe / a tracepoint exists. */
bool sa_kprobe_exists(const char *func);
bool sa_tracepoint_exists(const char *category, const char *event);

/* The first of a NULL-terminated list of functions that exists, or NULL. */
const char *sa_kprobe_first(const char *const *funcs);

/* The path of the libc that PID (0: this process) has mapped. g_free it. */
char *sa_find_libc(pid_t pid);

/* Hold back libbpf's warnings (not with -v) while trying optional probes. */
void sa_bpf_quiet(bool quiet);

/* Print a libbpf failure with the tool's name: "what: strerror(-err)". */
void sa_bpf_err(const char *tool, int err, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/*
 * Attach every program that is set to load, at its SEC() target; the
 * links go into links. Prints and returns -errno on failure.
 */
struct bpf_object;
int sa_attach_all(struct bpf_object *obj, const char *tool, GPtrArray *links);

/* Do not load the programs whose SEC("tracepoint/C/E") does not exist. */
void sa_autoload_tracepoints(struct bpf_object *obj);

/* Print a load failure; returns SA_EXIT_FAIL. */
int sa_bpf_load_err(const char *tool, int err);

/* An array of struct bpf_link *, destroyed with it. */
GPtrArray *sa_links_new(void);

/* Print a JsonBuilder's root as one line on stdout, and free it. */
void sa_bpf_json_print(JsonBuilder *b);

/* Begin a JSON event: a report with the task's pid, tid and comm. */
JsonBuilder *sa_json_event_begin(const char *tool, __u32 pid, __u32 tid,
				 const char *comm);

/* Begin a JSON report: {"schema_version", "tool", "time"}; caller ends. */
JsonBuilder *sa_json_report_begin(const char *tool);

/* The comm of a running process, in buf; "?" if it is gone. */
const char *sa_pid_comm(pid_t pid, char *buf, size_t len);

/* --- bpf-run.c: the target process and the report loop -------------- */

/*
 * Prepare the run: for -c, fork the command, held before exec until
 * sa_bpf_run_start(). Returns -1 (printed) on failure.
 */
int sa_bpf_run_init(struct sa_bpf_run *run, const struct sa_bpf_opts *o);

/* Let the -c child exec, once the probes are attached. */
int sa_bpf_run_start(struct sa_bpf_run *run);

/*
 * The loop: poll the ring buffer (if rb is not NULL) or sleep, call
 * report(arg, final) each interval and once at the end. The run ends on
 * SIGINT/SIGTERM, after COUNT reports, or when the -c child or -p
 * process exits; a -c child is held at its exit while the last report
 * reads its memory map. Returns 0, or report's first non-zero return.
 */
struct ring_buffer;
int sa_bpf_run_loop(struct sa_bpf_run *run, struct ring_buffer *rb,
		    int (*report)(void *arg, bool final), void *arg);

/* Kill and reap a -c child that is still there. */
void sa_bpf_run_cleanup(struct sa_bpf_run *run);

/* Whether SIGINT/SIGTERM arrived. */
bool sa_bpf_stopping(void);

#endif /* SLABACCT_BPF_TOOL_H */
