// SPDX-License-Identifier: GPL-2.0
/*
 * The last of the checks before a trace.dat is read: libtracecmd opens
 * it in a child process (a crash there is the file's), and everything is
 * checked in order (sa_tracedat_check_all).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "trace/kallsyms.h"
#include "trace/check.h"
#include "trace/raw.h"
#include "trace/tracecmd-private.h"

/* The probe's time limit; opening a trace does not read its events. */
#define PROBE_SECONDS	20

/* Present only in sanitizer builds (the fuzz targets). */
extern void __sanitizer_set_death_callback(void (*cb)(void))
	__attribute__((weak));

/*
 * In the probe child: read the headers, tell on fd how libtracecmd will
 * read the pages, then read its first pages as the open does.
 */
static struct tracecmd_input *probe_view(const char *path, int fd,
					 const struct sa_tracedat_layout *lay)
{
	struct sa_tracedat_view v = { 0 };
	struct tracecmd_input *h;
	struct tep_handle *tep;

	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return NULL;
	tep = tracecmd_get_tep(h);
	v.long_size = tracecmd_long_size(h);
	v.page_size = tracecmd_page_size(h);
	v.big_endian = tep_is_file_bigendian(tep);
	v.old_format = tep_is_old_format(tep);
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(4);
	close(fd);
	/* kbuffer reads the first pages next: not if one is damaged */
	if (lay && sa_tracedat_check_pages(path, lay, &v, false, NULL))
		_exit(5);
	if (tracecmd_init_data(h) < 0)
		return NULL;
	return h;
}

int sa_tracedat_probe_open(const char *path,
			   const struct sa_tracedat_layout *lay,
			   struct sa_tracedat_view *view, GError **err)
{
	struct sa_tracedat_view v;
	struct tracecmd_input *h;
	int status, fds[2];
	ssize_t n;
	pid_t pid;

	if (view)
		memset(view, 0, sizeof(*view));
	if (pipe2(fds, O_CLOEXEC))
		return 0;	/* no probe: let the real open try */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (!pid) {
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL,
					    SIGFPE };
		int null = open("/dev/null", O_WRONLY);
		unsigned int i;

		/*
		 * A crash here is the probe's answer: die of it quietly, with
		 * no handler of a sanitizer or fuzzer taking it for a finding.
		 */
		for (i = 0; i < G_N_ELEMENTS(sigs); i++)
			signal(sigs[i], SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		alarm(PROBE_SECONDS);	/* a hang is an answer too */
		if (__sanitizer_set_death_callback)
			__sanitizer_set_death_callback(NULL);

		if (null >= 0)
			dup2(null, 2);	/* libtracecmd's own complaints */
		close(fds[0]);
		tracecmd_set_loglevel(TEP_LOG_NONE);
		tep_set_loglevel(TEP_LOG_NONE);
		sa_kallsyms_skip(true);
		/* the headers alone first: they say how pages are read */
		h = probe_view(path, fds[1], lay);
		if (!h)
			_exit(3);
		/* what the origin reader does next: the first timestamp */
		tracecmd_get_first_ts(h);
		_exit(0);
	}
	close(fds[1]);
	do
		n = read(fds[0], &v, sizeof(v));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (view && n == sizeof(v))
		*view = v;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
		    "%s: corrupt trace.dat: its headers or CPU data could not "
		    "be read%s", path, !WIFSIGNALED(status) ? "" :
		    WTERMSIG(status) == SIGALRM ? " (libtracecmd hung on them)" :
		    " (libtracecmd crashed on them)");
	return -1;
}

/*
 * Everything libtracecmd and kbuffer will read, checked before they do:
 * the structure (trace/check.c), an open in a child process, and the
 * ring-buffer pages as libtracecmd will read them. *raw: whether the fast
 * path will read the file, which checks each page as it reads it (the
 * others are checked here).
 */
int sa_tracedat_check_all(const char *path, struct sa_tracedat_layout *lay,
			  struct sa_tracedat_view *view, bool no_raw,
			  bool *raw, GError **err)
{
	GError *probe_err = NULL;
	int probe;

	if (sa_tracedat_check_file(path, lay, err))
		return -1;
	probe = sa_tracedat_probe_open(path, lay, view, &probe_err);
	if (!view->page_size || view->page_size != lay->page_size) {
		/* the headers did not read: the probe's error says more */
		if (probe)
			g_propagate_error(err, probe_err);
		else
			g_set_error(err, SA_TRACE_ERROR,
				    SA_TRACE_ERROR_FORMAT, "%s: corrupt "
				    "trace.dat: its headers could not be read",
				    path);
		goto fail;
	}
	lay->long_size = view->long_size == 8 ? 8 : 4;
	*raw = sa_raw_usable(lay) && !no_raw;
	/* a damaged page first: it may be why the probe failed */
	if (sa_tracedat_check_pages(path, lay, view, !*raw, err)) {
		g_clear_error(&probe_err);
		goto fail;
	}
	if (probe) {
		g_propagate_error(err, probe_err);
		goto fail;
	}
	return 0;
fail:
	sa_tracedat_layout_clear(lay);
	return -1;
}
