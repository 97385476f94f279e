/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing an output file safely, in a directory others may write to.
 *
 * The data goes to a new file in the output's directory (O_TMPFILE where
 * the file system has it, else a hidden name), created with a private
 * mode, and is renamed over the final path only when it is complete:
 * a failure leaves an earlier file as it was, and a process reading the
 * old file keeps reading the old file (it is never truncated or written
 * into). A symbolic link at the final path is refused unless asked for;
 * then the file it points to is replaced and the link stays. An existing
 * file that is not a regular file (/dev/null, a FIFO) is written in
 * place, where the output allows it.
 *
 * While it is written the output is locked: flock on ".NAME.lock" beside
 * it, created for the purpose and removed after the rename. A second
 * writer of the same path is refused (G_IO_ERROR_BUSY) instead of one
 * output silently replacing the other.
 */
#ifndef SLABACCT_OUTFILE_H
#define SLABACCT_OUTFILE_H

#include <stdbool.h>
#include <glib.h>

/* The mode of new outputs: they hold kernel addresses and command lines. */
#define SA_OUTFILE_MODE	0600

struct sa_outfile_opts {
	unsigned int mode;	/* permission bits; 0: SA_OUTFILE_MODE */
	bool follow_symlink;	/* write to a symlink's target, not refuse */
	bool regular_only;	/* refuse an existing non-regular file (an
				 * output written with seeks) */
};

struct sa_outfile;

/*
 * Lock the output, check its path and create the new file. Nothing at
 * path is changed until sa_outfile_commit(). Returns NULL with *err set
 * (G_IO_ERROR; BUSY when another process writes the same path).
 */
struct sa_outfile *sa_outfile_open(const char *path,
				   const struct sa_outfile_opts *opts,
				   GError **err);

/* The descriptor to write to (read-write, at offset 0). */
int sa_outfile_fd(const struct sa_outfile *f);

/* The directory the output goes to, for other temporary files. */
const char *sa_outfile_dir(const struct sa_outfile *f);

/*
 * Put the file in place (rename over the final path), unlock, and free f.
 * Returns 0, or -1 with *err set; f is freed either way.
 */
int sa_outfile_commit(struct sa_outfile *f, GError **err);

/* Discard the new file, unlock, free f. The final path is untouched. */
void sa_outfile_abort(struct sa_outfile *f);

/*
 * The full path of f's lock file (g_free it), NULL if it has none: a
 * process killed (SIGKILL) while it wrote leaves it behind, unheld.
 */
char *sa_outfile_lock_path(const struct sa_outfile *f);

/*
 * Remove the lock file at path if no process holds it, as its last
 * holder would: 1 if removed, 0 if it is held or gone, -1 (errno) if it
 * cannot be opened. A symbolic link there is never followed.
 */
int sa_outfile_remove_stale_lock(const char *path);

/*
 * Parse an octal mode for --mode ("0644", "640"): permission bits only.
 * Returns 0, or -1 for anything else.
 */
int sa_outfile_mode_parse(const char *s, unsigned int *mode);

#endif /* SLABACCT_OUTFILE_H */
