// SPDX-License-Identifier: GPL-2.0
/*
 * Safe output files: a new file beside the output, renamed into place
 * when complete, under a lock (util/outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "util/outfile.h"

#define MAX_LINKS	40	/* as the kernel's MAXSYMLINKS */
#define MAX_TRIES	100	/* names to try for a temporary file */

struct sa_outfile {
	char *path;		/* the final path (a followed link's target) */
	char *dir;		/* its directory and name */
	char *base;
	int dir_fd;		/* O_PATH of dir: every name is looked up in it */
	int fd;			/* the new file, or the file written in place */
	int lock_fd;		/* flock held on lock_name, or -1 */
	char *lock_name;
	char *tmp_name;		/* the new file's name in dir, once it has one */
	bool in_place;		/* an existing non-regular file */
	bool replaces;		/* a regular file exists at the final path */
};

static int fail(GError **err, const char *path, int e, const char *what)
{
	g_set_error(err, G_IO_ERROR, g_io_error_from_errno(e), "%s: %s%s%s",
		    path, what ? what : "", what ? ": " : "", g_strerror(e));
	return -1;
}

/* path with the symlinks at its last component followed; NULL on error */
static char *resolve(const char *path, GError **err)
{
	char *p = g_strdup(path);
	int i;

	for (i = 0; i < MAX_LINKS; i++) {
		struct stat st;
		char *target, *dir;

		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			return p;	/* an error shows when it is opened */
		target = g_file_read_link(p, NULL);
		if (!target) {
			fail(err, path, errno, "reading the symbolic link");
			g_free(p);
			return NULL;
		}
		if (!g_path_is_absolute(target)) {
			dir = g_path_get_dirname(p);
			g_free(p);
			p = g_build_filename(dir, target, NULL);
			g_free(dir);
			g_free(target);
		} else {
			g_free(p);
			p = target;
		}
	}
	fail(err, path, ELOOP, NULL);
	g_free(p);
	return NULL;
}

static int symlink_refused(GError **err, const char *path)
{
	g_set_error(err, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
		    "%s is a symbolic link: not followed, nothing written",
		    path);
	return -1;
}

static int lock(struct sa_outfile *f, GError **err)
{
	int tries;

	f->lock_name = g_strconcat(".", f->base, ".lock", NULL);
	for (tries = 0; tries < MAX_TRIES; tries++) {
		struct stat a, b;
		int fd = openat(f->dir_fd, f->lock_name, O_RDONLY | O_CREAT |
				O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			return fail(err, f->path, errno,
				    "cannot create its lock file");
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			close(fd);
			if (e != EWOULDBLOCK)
				return fail(err, f->path, e, "cannot lock it");
			g_set_error(err, G_IO_ERROR, G_IO_ERROR_BUSY,
				    "%s: another process is writing it (it "
				    "holds the lock %s/%s)", f->path, f->dir,
				    f->lock_name);
			return -1;
		}
		/* the last holder removes the file: is ours still there? */
		if (!fstat(fd, &a) &&
		    !fstatat(f->dir_fd, f->lock_name, &b,
			     AT_SYMLINK_NOFOLLOW) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			f->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	return fail(err, f->path, EAGAIN, "cannot lock it");
}

static void unlock(struct sa_outfile *f)
{
	if (f->lock_fd < 0)
		return;
	unlinkat(f->dir_fd, f->lock_name, 0);
	close(f->lock_fd);
	f->lock_fd = -1;
}

/* A hidden name for the new file: ".NAME.xxxxxx" */
static char *temp_name(const struct sa_outfile *f)
{
	return g_strdup_printf(".%s.%06x", f->base,
			       g_random_int() & 0xffffff);
}

static int create(struct sa_outfile *f, unsigned int mode, GError **err)
{
	int i;

	f->fd = openat(f->dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC,
		       0600);
	if (f->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
			  errno == EINVAL)) {
		/* no O_TMPFILE here: a hidden name, removed on failure */
		for (i = 0; i < MAX_TRIES && f->fd < 0; i++) {
			g_free(f->tmp_name);
			f->tmp_name = temp_name(f);
			f->fd = openat(f->dir_fd, f->tmp_name, O_RDWR |
				       O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_CLOEXEC, 0600);
			if (f->fd < 0 && errno != EEXIST)
				break;
		}
		if (f->fd < 0)
			g_clear_pointer(&f->tmp_name, g_free);
	}
	if (f->fd < 0)
		return fail(err, f->path, errno,
			    "cannot create a file beside it");
	/* exactly the mode asked for, whatever the umask */
	if (fchmod(f->fd, mode))
		return fail(err, f->path, errno, "cannot set its mode");
	return 0;
}

static void outfile_free(struct sa_outfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp_name)
		unlinkat(f->dir_fd, f->tmp_name, 0);
	unlock(f);
	if (f->dir_fd >= 0)
		close(f->dir_fd);
	g_free(f->path);
	g_free(f->dir);
	g_free(f->base);
	g_free(f->lock_name);
	g_free(f->tmp_name);
	g_free(f);
}

struct sa_outfile *sa_outfile_open(const char *path,
				   const struct sa_outfile_opts *opts,
				   GError **err)
{
	struct sa_outfile *f;
	struct stat st;

	if (!path || !*path) {
		fail(err, "(no name)", ENOENT, NULL);
		return NULL;
	}
	f = g_new0(struct sa_outfile, 1);
	f->dir_fd = f->fd = f->lock_fd = -1;
	f->path = opts->follow_symlink ? resolve(path, err) : g_strdup(path);
	if (!f->path)
		goto fail;
	f->dir = g_path_get_dirname(f->path);
	f->base = g_path_get_basename(f->path);
	if (!strcmp(f->base, ".") || !strcmp(f->base, "..") ||
	    !strcmp(f->base, G_DIR_SEPARATOR_S) ||
	    g_str_has_suffix(f->path, G_DIR_SEPARATOR_S)) {
		fail(err, path, EISDIR, NULL);
		goto fail;
	}
	f->dir_fd = open(f->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (f->dir_fd < 0) {
		fail(err, path, errno, NULL);
		goto fail;
	}
	if (!fstatat(f->dir_fd, f->base, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISLNK(st.st_mode)) {
			symlink_refused(err, path);
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			fail(err, path, EISDIR, NULL);
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			if (opts->regular_only) {
				g_set_error(err, G_IO_ERROR,
					    G_IO_ERROR_NOT_REGULAR_FILE,
					    "%s: not a regular file (this "
					    "output is written with seeks)",
					    path);
				goto fail;
			}
			/* /dev/null, a FIFO: written in place */
			f->in_place = true;
			f->fd = openat(f->dir_fd, f->base, O_WRONLY |
				       O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			if (f->fd < 0) {
				if (errno == ELOOP)
					symlink_refused(err, path);
				else
					fail(err, path, errno, NULL);
				goto fail;
			}
			return f;
		}
		f->replaces = true;
	} else if (errno != ENOENT) {
		fail(err, path, errno, NULL);
		goto fail;
	}
	if (lock(f, err) ||
	    create(f, opts->mode ? opts->mode : SA_OUTFILE_MODE, err))
		goto fail;
	return f;
fail:
	outfile_free(f);
	return NULL;
}

int sa_outfile_fd(const struct sa_outfile *f)
{
	return f->fd;
}

const char *sa_outfile_dir(const struct sa_outfile *f)
{
	return f->dir;
}

/* Give an O_TMPFILE file the hidden name tmp_name. */
static int link_tmpfile(struct sa_outfile *f)
{
	char proc[64];
	int i;

	for (i = 0; i < MAX_TRIES; i++) {
		g_free(f->tmp_name);
		f->tmp_name = temp_name(f);
		if (!linkat(f->fd, "", f->dir_fd, f->tmp_name, AT_EMPTY_PATH))
			return 0;
		if (errno == ENOENT || errno == EPERM) {
			/* AT_EMPTY_PATH wants CAP_DAC_READ_SEARCH */
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
			if (!linkat(AT_FDCWD, proc, f->dir_fd, f->tmp_name,
				    AT_SYMLINK_FOLLOW))
				return 0;
		}
		if (errno != EEXIST)
			break;
	}
	g_clear_pointer(&f->tmp_name, g_free);
	return -1;
}

int sa_outfile_commit(struct sa_outfile *f, GError **err)
{
	int ret = 0;

	if (f->in_place) {
		if (close(f->fd))
			ret = fail(err, f->path, errno, NULL);
		f->fd = -1;
		outfile_free(f);
		return ret;
	}
	/* replacing a file: its new contents first, then the name */
	if (f->replaces && fdatasync(f->fd) && errno != EINVAL)
		ret = fail(err, f->path, errno, NULL);
	else if (!f->tmp_name && link_tmpfile(f))
		ret = fail(err, f->path, errno, "cannot name the new file");
	else if (renameat(f->dir_fd, f->tmp_name, f->dir_fd, f->base))
		ret = fail(err, f->path, errno, "cannot put it in place");
	else
		g_clear_pointer(&f->tmp_name, g_free);	/* it is in place */
	if (close(f->fd) && !ret)
		ret = fail(err, f->path, errno, NULL);
	f->fd = -1;
	outfile_free(f);
	return ret;
}

void sa_outfile_abort(struct sa_outfile *f)
{
	if (f)
		outfile_free(f);
}

int sa_outfile_mode_parse(const char *s, unsigned int *mode)
{
	guint64 v;

	if (!s || !*s || strspn(s, "01234567") != strlen(s) ||
	    strlen(s) > 4)
		return -1;
	v = g_ascii_strtoull(s, NULL, 8);
	if (!v || v > 0777)
		return -1;
	*mode = (unsigned int)v;
	return 0;
}

char *sa_outfile_lock_path(const struct sa_outfile *f)
{
	char *p, *abs;

	if (!f || f->lock_fd < 0)
		return NULL;
	p = g_build_filename(f->dir, f->lock_name, NULL);
	abs = g_canonicalize_filename(p, NULL);
	g_free(p);
	return abs;
}

int sa_outfile_remove_stale_lock(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat a, b;
	int ret = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	/*
	 * Held by us, the file at path is ours to remove (as unlock does):
	 * a writer that opened it meanwhile finds it gone once it locks it,
	 * and makes a new one.
	 */
	if (!flock(fd, LOCK_EX | LOCK_NB) && !fstat(fd, &a) &&
	    !lstat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    S_ISREG(a.st_mode) && !unlink(path))
		ret = 1;
	close(fd);
	return ret;
}
