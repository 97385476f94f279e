// SPDX-License-Identifier: GPL-2.0
/*
 * The run of a BPF tool: the -c child (forked, held before exec until the
 * probes are attached, and held again at its exit so the last report can
 * still read its memory map), and the report loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf-tool.h"
#include "util/msg.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

bool sa_bpf_stopping(void)
{
	return stop_signal != 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

int sa_bpf_run_init(struct sa_bpf_run *run, const struct sa_bpf_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int go[2];
	pid_t pid;

	memset(run, 0, sizeof(*run));
	run->opts = o;
	run->child_fd = -1;
	run->target = o->pid;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o->cmd_argv)
		return 0;

	if (pipe2(go, O_CLOEXEC) != 0) {
		sa_err(o->tool, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sa_err(o->tool, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		char c;

		close(go[1]);
		/* wait for the probes; EOF means the parent gave up */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(o->cmd_argv[0], o->cmd_argv);
		fprintf(stderr, "slabacct %s: cannot run '%s': %s\n", o->tool,
			o->cmd_argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	run->child = run->target = pid;
	run->child_fd = go[1];
	/*
	 * Trace the child only to be told of its exit before its memory is
	 * torn down; everything else passes through.
	 */
	if (ptrace(PTRACE_SEIZE, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)))
		sa_warn(o->tool, "cannot hold '%s' at its exit (ptrace: %s); "
			"its last report may lack symbols", o->cmd_argv[0],
			strerror(errno));
	return 0;
}

int sa_bpf_run_start(struct sa_bpf_run *run)
{
	const struct sa_bpf_opts *o = run->opts;

	/* on stderr, also with --json: a script can wait for this line */
	if (o->cmd_argv)
		fprintf(stderr, "slabacct %s: probes attached, running '%s'\n",
			o->tool, o->cmd_argv[0]);
	else
		fprintf(stderr, "slabacct %s: probes attached; Ctrl-C ends\n",
			o->tool);
	if (run->child_fd < 0)
		return 0;
	if (write(run->child_fd, "g", 1) != 1) {
		sa_err(run->opts->tool, "cannot start the command: %s",
		       strerror(errno));
		return -1;
	}
	close(run->child_fd);
	run->child_fd = -1;
	return 0;
}

/* Check the child without blocking; true once it has exited or is held. */
static bool child_done(struct sa_bpf_run *run)
{
	int st, sig;
	pid_t r;

	for (;;) {
		r = waitpid(run->child, &st, WNOHANG);
		if (r == 0)
			return false;
		if (r < 0)
			return true;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			run->child_status = st;
			run->child = 0;
			return true;
		}
		if (!WIFSTOPPED(st))
			continue;
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			run->child_held = true;
			return true;
		}
		/* a signal or a group stop: let it through */
		sig = WSTOPSIG(st);
		if (st >> 16 == PTRACE_EVENT_STOP)
			sig = 0;
		ptrace(PTRACE_CONT, run->child, NULL, (void *)(long)sig);
	}
}

/*
 * Let a child held at its exit finish; kill one the run ended early
 * (Ctrl-C, COUNT reached) and reap it.
 */
static void child_release(struct sa_bpf_run *run)
{
	int st = 0;
	pid_t r;

	if (!run->child)
		return;
	if (run->child_held)
		ptrace(PTRACE_DETACH, run->child, NULL, NULL);
	else
		kill(run->child, SIGKILL);
	run->child_held = false;
	for (;;) {
		r = waitpid(run->child, &st, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || WIFEXITED(st) || WIFSIGNALED(st))
			break;
		/* a stop on the way out: let it go on */
		ptrace(PTRACE_CONT, run->child, NULL, NULL);
	}
	run->child_status = st;
	run->child = 0;
}

int sa_bpf_run_loop(struct sa_bpf_run *run, struct ring_buffer *rb,
		    int (*report)(void *arg, bool final), void *arg)
{
	const struct sa_bpf_opts *o = run->opts;
	uint64_t interval = o->interval * 1000ULL;
	uint64_t next = now_ms() + interval;
	int err = 0;

	while (!stop_signal) {
		if (rb) {
			err = ring_buffer__poll(rb, 100);
			if (err == -EINTR)
				err = 0;
			if (err < 0) {
				sa_bpf_err(o->tool, err, "reading events");
				break;
			}
			err = 0;
		} else {
			poll(NULL, 0, 100);
		}
		if (run->child && child_done(run))
			break;
		if (o->cmd_argv && !run->child)
			break;
		if (o->pid && kill(o->pid, 0) != 0 && errno == ESRCH)
			break;
		if (interval && now_ms() >= next) {
			if (o->count && run->reports + 1 >= o->count)
				break;
			err = report(arg, false);
			run->reports++;
			if (err)
				break;
			next += interval;
		}
	}
	if (rb)
		ring_buffer__consume(rb);
	if (!err) {
		err = report(arg, true);
		run->reports++;
	}
	child_release(run);
	return err;
}

void sa_bpf_run_cleanup(struct sa_bpf_run *run)
{
	if (run->child_fd >= 0) {
		close(run->child_fd);
		run->child_fd = -1;
	}
	child_release(run);
}
