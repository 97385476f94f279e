/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: per-call-site kmalloc/kmem_cache accounting.
 * Shared declarations between the module's files.
 */
#ifndef SLAB_ACCOUNT_H
#define SLAB_ACCOUNT_H

#define SLAB_ACCOUNT_PROC_NAME	"slab_account"
/* Bump when the layout of /proc/slab_account changes. */
#define SLAB_ACCOUNT_FORMAT_VERSION	1

int sa_proc_init(void);
void sa_proc_exit(void);

#endif /* SLAB_ACCOUNT_H */
