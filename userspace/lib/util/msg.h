/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The messages of the command layers (util/msg.c). Library code never prints.
 */
#ifndef SLABACCT_MSG_H
#define SLABACCT_MSG_H

#include <glib.h>

/*
 * Exit codes: 0 success, 1 failure while working (bad input file, I/O),
 * 2 usage error or a missing requirement (root, tracefs, BPF); the CI
 * gates: 3 a `diff --fail-on` limit was crossed, 4 events were lost
 * (`record`, `boot collect` with --fail-on-lost).
 */
#define SA_EXIT_OK	0
#define SA_EXIT_FAIL	1
#define SA_EXIT_USAGE	2
#define SA_EXIT_THRESHOLD	3
#define SA_EXIT_LOST	4

/* Print "slabacct CMD: message" (or "slabacct CMD: warning: message") to
 * stderr; the message is escaped to one line. cmd may be NULL. */
void sa_err(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void sa_warn(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

#endif /* SLABACCT_MSG_H */
