// SPDX-License-Identifier: GPL-2.0
/* Which kernel text file, by its first bytes (procfs/sniff.h). */
#include <string.h>

#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "procfs/hist.h"
#include "procfs/sniff.h"

enum sa_procfs_kind sa_procfs_sniff(const char *head, size_t n)
{
	static const char slab_tag[] = "# " SLAB_ACCOUNT_PROC_NAME " ";

	if (n >= sizeof(slab_tag) - 1 &&
	    !memcmp(head, slab_tag, sizeof(slab_tag) - 1))
		return SA_PROCFS_SLAB_ACCOUNT;
	if (sa_allocinfo_sniff(head, n))
		return SA_PROCFS_ALLOCINFO;
	if (sa_hist_sniff(head, n))
		return SA_PROCFS_HIST;
	return SA_PROCFS_NONE;
}
