/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The format of /proc/slab_account, /proc/slab_account_reclaim and
 * /proc/slab_account_oom: what slab_account.ko (module/) writes and the
 * slabacct CLI (userspace/lib/account/) parses, in one header for both.
 * The layout itself is described in README.md ("/proc/slab_account
 * format"). Plain C: no kernel or libc type.
 */
#ifndef _UAPI_SLAB_ACCOUNT_H
#define _UAPI_SLAB_ACCOUNT_H

#define SLAB_ACCOUNT_PROC_NAME		"slab_account"
#define SLAB_ACCOUNT_RECLAIM_NAME	"slab_account_reclaim"
#define SLAB_ACCOUNT_OOM_NAME		"slab_account_oom"

/*
 * The first line of each file is "# NAME VERSION". Bump a version when
 * the layout changes; adding a header key does not change it (parsers
 * ignore keys they do not know).
 */
#define SLAB_ACCOUNT_FORMAT_VERSION	3
#define SLAB_ACCOUNT_RECLAIM_VERSION	1
#define SLAB_ACCOUNT_OOM_VERSION	2

/* A call site's kind: the kind column, and the kmalloc_/cache_ keys. */
enum slab_account_kind {
	SLAB_ACCOUNT_KMALLOC,	/* kmalloc: slack is the caller's
				 * over-request */
	SLAB_ACCOUNT_CACHE,	/* kmem_cache_alloc: slack is the cache's
				 * padding */
	SLAB_ACCOUNT_NR_KINDS,
};

/* The names of the kinds, indexed by enum slab_account_kind. */
#define SLAB_ACCOUNT_KIND_NAMES {			\
	[SLAB_ACCOUNT_KMALLOC] = "kmalloc",		\
	[SLAB_ACCOUNT_CACHE] = "cache",			\
}

/*
 * Since version 3, a row whose call site is in an allocation wrapper
 * (below) names the wrapper's call site and the caller found on the
 * stack, with this between them: "kvmalloc_node+0x3f/0x80 <- caller+..".
 */
#define SLAB_ACCOUNT_VIA_SEP		" <- "

/*
 * The allocation wrappers: functions whose allocation's call site hides
 * the caller that asked for the memory. One table, for the module (which
 * attributes the allocations of their call sites to their callers) and
 * the CLI (which does the same from recorded stacks). Matched by name
 * without leading underscores and without a trailing "_noprof" (6.10+:
 * __kvmalloc_node_noprof is kvmalloc_node). Not kmalloc_node_track_caller:
 * its callers pass their own caller as the call site.
 */
#define SLAB_ACCOUNT_WRAPPERS						\
	"kstrdup", "kstrdup_const", "kstrndup", "kstrdup_quotable",	\
	"kmemdup", "kmemdup_nul", "kmemdup_array", "kvmemdup",		\
	"kvasprintf", "kvasprintf_const", "kasprintf",			\
	"krealloc", "kvrealloc", "kvmalloc", "kvmalloc_node",		\
	"memdup_user", "vmemdup_user", "strndup_user", "memdup_user_nul", \
	"mempool_alloc", "mempool_kmalloc", "mempool_alloc_slab",	\
	"devm_kmalloc", "devm_krealloc", "devm_kmemdup", "devm_kstrdup", \
	"devm_kasprintf", "devm_kvasprintf", "kobject_set_name_vargs"

/* The suffix 6.10+ kernels add to the functions behind alloc_hooks() */
#define SLAB_ACCOUNT_NOPROF		"_noprof"

#endif /* _UAPI_SLAB_ACCOUNT_H */
