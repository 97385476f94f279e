/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel text file a file is, told by its first bytes, never by
 * its name: those that carry a tag of their own on the first line.
 *
 *   /proc/slab_account  "# slab_account N" (procfs/account.h)
 *   /proc/allocinfo     "allocinfo - version: X.Y" (procfs/allocinfo.h)
 *   hist                "# event histogram" (procfs/hist.h; a tracefs
 *                       events/GROUP/EVENT/hist file)
 *
 * The door for every input a command reads (trace.dat and JSON too) is
 * report/input-kind.h, which asks here.
 */
#ifndef SLABACCT_PROCFS_SNIFF_H
#define SLABACCT_PROCFS_SNIFF_H

#include <stddef.h>

enum sa_procfs_kind {
	SA_PROCFS_NONE,
	SA_PROCFS_SLAB_ACCOUNT,
	SA_PROCFS_ALLOCINFO,
	SA_PROCFS_HIST,
};

/* The kind of the file whose first n bytes are at head. */
enum sa_procfs_kind sa_procfs_sniff(const char *head, size_t n);

#endif /* SLABACCT_PROCFS_SNIFF_H */
