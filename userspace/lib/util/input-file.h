/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening the files a command reads (a trace.dat, a /proc/slab_account
 * snapshot, a snapshot's files). Only regular files are read, /proc's
 * included (regular files of size 0, read to their end): a FIFO or a
 * device such as /dev/zero or /dev/urandom has no end that a format could
 * bound, so it is refused before anything is read, and each reader bounds
 * what it reads by what its format allows.
 *
 * A file mapped into memory and cut short by another program meanwhile
 * (a new recording written over it in place) makes the next read of the
 * mapping raise SIGBUS. A reader that maps a file watches it here while
 * it reads, so that the command's crash handler can tell that the file
 * shrank (sa_input_shrunk, async-signal-safe) from a bug of its own.
 */
#ifndef SLABACCT_INPUT_FILE_H
#define SLABACCT_INPUT_FILE_H

#include <stdbool.h>
#include <sys/types.h>

#include <glib.h>

/*
 * Open path for reading if it is a regular file (never blocking on a
 * FIFO). Returns the descriptor (close-on-exec), or -1 with *err set
 * (G_FILE_ERROR) naming the file and what it is instead.
 */
int sa_input_open(const char *path, GError **err);

/*
 * The whole regular file at path, at most max bytes (a longer one is an
 * error naming the limit), NUL-terminated; its length in *len.
 */
char *sa_input_read(const char *path, gsize max, gsize *len, GError **err);

/*
 * Read path line by line: fn gets each line (without its '\n'; the last
 * one also when it has none), len bytes at s, until it returns FALSE (its
 * error set) or the file ends. A line longer than max_line is handed over
 * cut, at more than max_line bytes, for fn to refuse: whatever the file
 * holds, no more than max_line + 64 KB is buffered. Returns TRUE at the
 * end of the file; FALSE with *err set by fn, or for an I/O error (as
 * G_FILE_ERROR naming the file).
 */
typedef gboolean (*sa_input_line_fn)(void *data, const char *s, size_t len,
				     GError **err);
gboolean sa_input_lines(const char *path, size_t max_line,
			sa_input_line_fn fn, void *data, GError **err);

/*
 * The first bytes of a regular file, at most max (into buf; not
 * NUL-terminated): how many, or -1 (not a regular file, unreadable).
 */
gssize sa_input_head(const char *path, char *buf, size_t max);

/*
 * While fd (path, size bytes when mapped) is read through a mapping.
 * A few files at a time; path must outlive the watch.
 */
void sa_input_watch(const char *path, int fd, guint64 size);
void sa_input_unwatch(int fd);

/*
 * From a signal handler: whether a watched file is now shorter than when
 * it was mapped. Then *path, *was and *now say which, and the sizes.
 */
bool sa_input_shrunk(const char **path, guint64 *was, guint64 *now);

/*
 * A test hook: with SLABACCT_TEST_STOP_MAPPED in the environment, the
 * process stops itself (SIGSTOP) once the report has mapped its input,
 * before it reads the mapping, so that a test can cut the file there.
 */
void sa_input_test_stop(void);

#endif /* SLABACCT_INPUT_FILE_H */
