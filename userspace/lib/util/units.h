/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Human units for text output (JSON and CSV print exact numbers).
 */
#ifndef SLABACCT_UNITS_H
#define SLABACCT_UNITS_H

#include <glib.h>

/* 1234567 -> "1.2M"; below 100000 the number itself. Returns buf. */
char *sa_human(char buf[16], guint64 v);

#endif /* SLABACCT_UNITS_H */
