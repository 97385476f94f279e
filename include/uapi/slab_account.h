/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The format of /proc/slab_account, /proc/slab_account_reclaim and
 * /proc/slab_account_oom: what slab_account.ko (module/) writes and the
 * slabacct CLI (userspace/lib/procfs/) parses, in one header for both.
 * The layout itself is described in docs/module.md ("/proc/slab_account
 * format"). Plain C: no kernel or libc type.
 *
 * The keys and columns of /proc/slab_account are the X-macro tables
 * below: the module prints by expanding them, the CLI's parser, JSON
 * reader and writers read and write by expanding them. A new header
 * counter is one line in SLAB_ACCOUNT_KEYS plus its use (docs/module.md,
 * "Adding a counter").
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

/*
 * A call site's kind, X(ID, name): the kind column, and the prefix of
 * the per-kind keys (kmalloc_allocs, cache_slack, ...).
 *   kmalloc	kmalloc: slack is the caller's over-request
 *   cache	kmem_cache_alloc: slack is the cache's padding
 */
#define SLAB_ACCOUNT_KINDS(X)						\
	X(KMALLOC, kmalloc)						\
	X(CACHE, cache)

#define SLAB_ACCOUNT_KIND_ENUM_(id, name)	SLAB_ACCOUNT_##id,
enum slab_account_kind {
	SLAB_ACCOUNT_KINDS(SLAB_ACCOUNT_KIND_ENUM_)
	SLAB_ACCOUNT_NR_KINDS,
};

/* The names of the kinds, indexed by enum slab_account_kind. */
#define SLAB_ACCOUNT_KIND_NAME_(id, name)	[SLAB_ACCOUNT_##id] = #name,
#define SLAB_ACCOUNT_KIND_NAMES { SLAB_ACCOUNT_KINDS(SLAB_ACCOUNT_KIND_NAME_) }

/*
 * The header of /proc/slab_account: after the version line, one
 * "key: value" line per key, in this order: SLAB_ACCOUNT_KEYS, then
 * SLAB_ACCOUNT_KIND_KEYS once per kind (KIND_key, the kinds in their
 * order), then SLAB_ACCOUNT_ORDER_KEYS. Each is X(name, type, since,
 * group):
 *   name	the key, spelled as a C identifier (#name is the key)
 *   type	U64 or S64 (decimal), WORD (one word), SLOT ("exact" or
 *		"object"), ORDERS (counts by page order 0, 1, 2...)
 *   since	the first format version with the key
 *   group	REQUIRED (a reader refuses a file of version since or later
 *		without it), or the group of keys added to a version
 *		without changing it: a reader takes a file without them, and
 *		refuses one with some keys of a group and not the others
 */
enum slab_account_group {
	SLAB_ACCOUNT_REQUIRED,
	SLAB_ACCOUNT_REPEATS,		/* kmalloc_repeats */
	SLAB_ACCOUNT_UNATTRIBUTED,	/* unattributed */
	SLAB_ACCOUNT_SLOW,		/* slow_* */
};

#define SLAB_ACCOUNT_KEYS(X)						\
	X(sort,			WORD,	2, REQUIRED)			\
	X(top,			U64,	2, REQUIRED)			\
	X(sites,		U64,	2, REQUIRED)			\
	X(objects,		U64,	2, REQUIRED)			\
	X(cache_slot_size,	SLOT,	2, REQUIRED)			\
	X(bytes_alloc,		U64,	2, REQUIRED)			\
	X(bytes_req,		U64,	2, REQUIRED)			\
	X(slack,		U64,	2, REQUIRED)			\
	X(live_bytes,		S64,	2, REQUIRED)			\
	X(live_req,		S64,	2, REQUIRED)			\
	X(live_objects,		S64,	2, REQUIRED)			\
	X(allocs,		U64,	2, REQUIRED)			\
	X(frees,		U64,	2, REQUIRED)			\
	X(callers,		U64,	2, REQUIRED)			\
	X(dropped,		U64,	2, REQUIRED)			\
	X(untracked_frees,	U64,	2, REQUIRED)			\
	X(map_full,		U64,	2, REQUIRED)			\
	X(lost_frees,		U64,	2, REQUIRED)			\
	X(kmalloc_repeats,	U64,	2, REPEATS)			\
	X(unattributed,		U64,	3, UNATTRIBUTED)		\
	SLAB_ACCOUNT_SLOW_KEYS(X)

/* The probes' slower path: a group, shown together or not at all */
#define SLAB_ACCOUNT_SLOW_KEYS(X)					\
	X(slow_sites,		U64,	3, SLOW)			\
	X(slow_objects,		U64,	3, SLOW)			\
	X(slow_frees,		U64,	3, SLOW)

#define SLAB_ACCOUNT_KIND_KEYS(X, ...)					\
	X(allocs,		U64,	2, REQUIRED, __VA_ARGS__)	\
	X(bytes_alloc,		U64,	2, REQUIRED, __VA_ARGS__)	\
	X(bytes_req,		U64,	2, REQUIRED, __VA_ARGS__)	\
	X(slack,		U64,	2, REQUIRED, __VA_ARGS__)

#define SLAB_ACCOUNT_ORDER_KEYS(X)					\
	X(pages_alloc,		ORDERS,	2, REQUIRED)			\
	X(pages_free,		ORDERS,	2, REQUIRED)

/*
 * Then the column heading, "#" and each column's title in its width
 * (less one, for the "#", in the first), and one row per call site in
 * the same widths: X(name, title, width); a negative width is
 * left-aligned. allocs/frees is "A/F", A right- and F left-aligned in
 * half the width each. caller runs to the end of the line, through a
 * wrapper "WRAPPER_SITE <- CALLER" (version 3, below).
 */
#define SLAB_ACCOUNT_COLUMNS(X)						\
	X(total,	"total",	10)				\
	X(slack,	"slack",	9)				\
	X(req,		"req",		10)				\
	X(live,		"live",		10)				\
	X(objs,		"objs",		7)				\
	X(allocs_frees,	"allocs/frees",	19)				\
	X(kind,		"kind",		-7)				\
	X(caller,	"caller",	0)

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
