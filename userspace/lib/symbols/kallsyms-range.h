/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The address range of a kernel symbol in /proc/kallsyms text: from its
 * address to the next higher symbol's. Used to filter events by call site.
 */
#ifndef SLABACCT_KALLSYMS_RANGE_H
#define SLABACCT_KALLSYMS_RANGE_H

#include <glib.h>

/*
 * Find sym in kallsyms (the text of /proc/kallsyms). Returns 0 and sets
 * [*lo, *hi), or -1 with errno ENOENT (no such symbol) or EINVAL.
 */
int sa_kallsyms_range(const char *kallsyms, const char *sym, guint64 *lo,
		      guint64 *hi);

#endif /* SLABACCT_KALLSYMS_RANGE_H */
