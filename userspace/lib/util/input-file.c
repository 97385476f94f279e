// SPDX-License-Identifier: GPL-2.0
/* Input files: regular files only, bounded reads, watched mappings. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input-file.h"

#define WATCHES	4

static const char *kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" :
	       "not a file";
}

int sa_input_open(const char *path, GError **err)
{
	struct stat st;
	int fd, e;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		e = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, g_strerror(e));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		g_set_error(err, G_FILE_ERROR,
			    S_ISDIR(st.st_mode) ? G_FILE_ERROR_ISDIR :
			    G_FILE_ERROR_INVAL, "%s: is %s, not a regular "
			    "file: only files are read", path,
			    kind(st.st_mode));
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

char *sa_input_read(const char *path, gsize max, gsize *len, GError **err)
{
	GString *s;
	int fd = sa_input_open(path, err);

	if (fd < 0)
		return NULL;
	s = g_string_sized_new(4096);
	for (;;) {
		gsize room = MIN(max + 1 - s->len, (gsize)65536);
		ssize_t n;

		g_string_set_size(s, s->len + room);
		n = read(fd, s->str + s->len - room, room);
		g_string_set_size(s, s->len - room + MAX(n, 0));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			g_set_error(err, G_FILE_ERROR,
				    g_file_error_from_errno(e), "%s: %s",
				    path, g_strerror(e));
			goto fail;
		}
		if (!n)
			break;
		if (s->len > max) {
			g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED,
				    "%s: larger than %" G_GSIZE_FORMAT
				    " bytes, more than its format allows",
				    path, max);
			goto fail;
		}
	}
	close(fd);
	*len = s->len;
	return g_string_free(s, FALSE);
fail:
	close(fd);
	g_string_free(s, TRUE);
	return NULL;
}

gboolean sa_input_lines(const char *path, size_t max_line,
			sa_input_line_fn fn, void *data, GError **err)
{
	size_t have = 0, room = max_line + 65536;
	char *buf;
	gboolean ok = TRUE;
	int fd = sa_input_open(path, err);

	if (fd < 0)
		return FALSE;
	buf = g_malloc(room);
	while (ok) {
		ssize_t n = read(fd, buf + have, room - have);
		char *p = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			g_set_error(err, G_FILE_ERROR,
				    g_file_error_from_errno(e), "%s: %s",
				    path, g_strerror(e));
			ok = FALSE;
			break;
		}
		have += n;
		while (ok && (nl = memchr(p, '\n', buf + have - p))) {
			ok = fn(data, p, nl - p, err);
			p = nl + 1;
		}
		memmove(buf, p, buf + have - p);
		have = buf + have - p;
		if (!n) {		/* the end: a last line without '\n' */
			if (ok && have)
				ok = fn(data, buf, have, err);
			break;
		}
		if (ok && have == room) {	/* one line fills the buffer */
			ok = fn(data, buf, have, err);
			have = 0;
		}
	}
	close(fd);
	g_free(buf);
	return ok;
}

gssize sa_input_head(const char *path, char *buf, size_t max)
{
	size_t have = 0;
	int fd = sa_input_open(path, NULL);

	if (fd < 0)
		return -1;
	while (have < max) {
		ssize_t n = read(fd, buf + have, max - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (!n)
			break;
		have += n;
	}
	close(fd);
	return have;
}

/* Read from a signal handler: plain words, written before the reads. */
static struct {
	volatile sig_atomic_t fd;	/* -1: free */
	const char *volatile path;
	volatile guint64 size;
} watches[WATCHES] = {
	[0 ... WATCHES - 1] = { .fd = -1 },
};
static GMutex watch_lock;

void sa_input_watch(const char *path, int fd, guint64 size)
{
	int i;

	g_mutex_lock(&watch_lock);
	for (i = 0; i < WATCHES; i++)
		if (watches[i].fd < 0) {
			watches[i].path = path;
			watches[i].size = size;
			__atomic_store_n(&watches[i].fd, fd, __ATOMIC_RELEASE);
			break;
		}
	g_mutex_unlock(&watch_lock);
}

void sa_input_unwatch(int fd)
{
	int i;

	g_mutex_lock(&watch_lock);
	for (i = 0; i < WATCHES; i++)
		if (watches[i].fd == fd)
			__atomic_store_n(&watches[i].fd, -1, __ATOMIC_RELEASE);
	g_mutex_unlock(&watch_lock);
}

bool sa_input_shrunk(const char **path, guint64 *was, guint64 *now)
{
	struct stat st;
	int i;

	for (i = 0; i < WATCHES; i++) {
		int fd = __atomic_load_n(&watches[i].fd, __ATOMIC_ACQUIRE);

		if (fd < 0 || fstat(fd, &st) ||
		    (guint64)st.st_size >= watches[i].size)
			continue;
		*path = watches[i].path;
		*was = watches[i].size;
		*now = st.st_size;
		return true;
	}
	return false;
}

void sa_input_test_stop(void)
{
	if (getenv("SLABACCT_TEST_STOP_MAPPED"))
		raise(SIGSTOP);
}
