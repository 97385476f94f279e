/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/pressure/memory: pressure stall information. "some" is the share
 * of time at least one task stalled on memory, "full" the share when all
 * non-idle tasks did; averages over 10, 60 and 300 s, in %, and the total
 * stall time in microseconds.
 */
#ifndef SLABACCT_PSI_H
#define SLABACCT_PSI_H

#include <stdbool.h>
#include <glib.h>

struct sa_psi_line {
	bool present;
	double avg10, avg60, avg300;
	guint64 total_us;
};

struct sa_psi {
	struct sa_psi_line some, full;
};

/* -1 with *err if there is no well-formed "some" line. */
int sa_psi_parse(const char *text, struct sa_psi *p, GError **err);

#endif /* SLABACCT_PSI_H */
