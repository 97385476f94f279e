/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: per-call-site kmalloc/kmem_cache accounting.
 * Shared declarations between the module's files.
 */
#ifndef SLAB_ACCOUNT_H
#define SLAB_ACCOUNT_H

#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "compat.h"
/* the format of the /proc files, shared with the CLI (include/uapi/) */
#include "uapi/slab_account.h"

/* The largest OOM snapshot (oom_top). */
#define SA_OOM_MAX_TOP			64

/* The kind: uapi/slab_account.h's one enum, by the module's names */
#define sa_kind		slab_account_kind
#define SA_KMALLOC	SLAB_ACCOUNT_KMALLOC
#define SA_CACHE	SLAB_ACCOUNT_CACHE
#define SA_NR_KINDS	SLAB_ACCOUNT_NR_KINDS

/* Module-wide totals, summed on read over the rows and per-CPU counts. */
struct sa_counters {
	u64 allocs[SA_NR_KINDS];
	u64 bytes_alloc[SA_NR_KINDS];
	u64 bytes_req[SA_NR_KINDS];
	u64 frees;		/* frees of tracked objects */
	u64 callers;		/* rows in use */
	u64 untracked_frees;	/* frees of objects not in the live map */
	u64 dropped;		/* allocs with no row: site table full */
	u64 map_full;		/* allocs not tracked: live map bucket full */
	u64 lost_frees;		/* objects reallocated with no free event */
	u64 kmalloc_repeats;	/* large kmallocs traced twice, counted once */
	u64 unattributed;	/* wrappers' allocs left at the wrapper's row */
	u64 slow_sites;		/* allocs whose row was found out of line */
	u64 slow_objects;	/* objects whose slot was found out of line */
	u64 slow_frees;	/* frees whose slot was found out of line */
	s64 live_objs;
	s64 live_bytes;
	s64 live_req;
	u64 pages_alloc[SA_NR_ORDERS];
	u64 pages_free[SA_NR_ORDERS];
};

/* One call site, as read from the table. */
struct sa_row {
	unsigned long call_site;	/* or the caller of a wrapper */
	unsigned long via;		/* the wrapper's call site, or 0 */
	enum sa_kind kind;
	u64 bytes_alloc;
	u64 bytes_req;
	u64 allocs;
	u64 frees;
	s64 live_objs;
	s64 live_bytes;
	s64 live_req;
};

/* What a row holds live, counted in the live-object map on read */
struct sa_live {
	u64 objs;
	u64 bytes;
	u64 req;
};

/*
 * account.c: the call-site table (table.c) and the live-object map
 * (map.c), built, freed and cleared together
 */
int sa_account_init(unsigned int sites, unsigned int objects);
void sa_account_exit(void);
void sa_account_clear(void);
unsigned int sa_table_sites(void);
unsigned int sa_table_rows(void);	/* sites, overflow rows, pairs */
unsigned int sa_row_next(unsigned int i);	/* skips the overflow rows */
unsigned int sa_table_objects(void);
/*
 * Reading rows: count what lives (sa_live_count, into an array of
 * sa_table_rows() entries), then read the rows with it.
 */
void sa_live_count(struct sa_live *live);
bool sa_site_read(unsigned int idx, const struct sa_live *live,
		  struct sa_row *row);
bool sa_site_used(unsigned int idx);
/* Totals of the rows read, and of what has no row (table.c) */
void sa_counters_start(struct sa_counters *sum);
void sa_counters_add(struct sa_counters *sum, const struct sa_row *r);
void sa_counters_finish(struct sa_counters *sum,
			const struct sa_live *live);

/*
 * bytes_alloc - bytes_req, or 0 for counts read while a reset cleared
 * them (req can then exceed alloc).
 */
static inline u64 sa_slack(u64 alloc, u64 req)
{
	return alloc > req ? alloc - req : 0;
}
void sa_account_page(unsigned int order, bool alloc);
/*
 * Probes do nothing while this is on (sa_reset): a static branch, so that
 * a probe pays no load and no compare for it while it is off (a nop
 * where the kernel has jump labels).
 */
DECLARE_STATIC_KEY_FALSE(sa_paused);

static __always_inline bool sa_is_paused(void)
{
	return static_branch_unlikely(&sa_paused);
}

/* tracepoints.c: finding and registering tracepoints by table */
struct tracepoint;
struct sa_tp {
	const char *name;
	void *probe;
	int (*reg)(void);	/* exported register_trace_*, or NULL */
	void (*unreg)(void);
	bool optional;		/* a missing event is not an error */
	struct tracepoint *tp;	/* found by name when reg is NULL */
	bool on;
};
int sa_tp_register(struct sa_tp *tbl, unsigned int n);
void sa_tp_unregister(struct sa_tp *tbl, unsigned int n);

/* probes.c: the kmem probes */
int sa_probes_init(bool page_events);
void sa_probes_exit(void);
int sa_cache_layout_check(void);

/* reclaim.c: the vmscan probes and their counters, per CPU */
struct sa_reclaim {
	u64 direct_entries;
	u64 direct_ns;
	u64 direct_pages;
	u64 kswapd_wakeups;
	u64 kswapd_requests;
	u64 shrink_calls;
	u64 shrink_ns;
	u64 shrink_freed;
	u64 lru_reclaimed;
	u64 lru_scanned;
	u64 unmatched;
	u64 pending_full;	/* begins not timed: no free pending slot */
	s64 direct_max_ns;	/* in a sum only: the longest times */
	s64 shrink_max_ns;
};

int sa_reclaim_init(void);
/* Only while the probes are paused and quiescent (sa_reset) */
void sa_reclaim_clear(void);
void sa_reclaim_sum(struct sa_reclaim *sum);
void sa_reclaim_exit(void);

/* oom.c: the OOM notifier and /proc/slab_account_oom */
extern unsigned int sa_oom_top;
int sa_oom_init(void);
void sa_oom_exit(void);

/*
 * testing.c: knobs of the test build only (SA_TEST=1, module/Kbuild);
 * in the module users load, these are empty.
 */
#ifdef SA_TEST_BUILD
int sa_testing_fail(int step);
void sa_testing_probe(void);
void sa_testing_between_reads(void);
unsigned int sa_testing_pending_slots(unsigned int slots);
#else
static inline int sa_testing_fail(int step)
{
	return 0;
}

static inline void sa_testing_probe(void)
{
}

static inline void sa_testing_between_reads(void)
{
}

static inline unsigned int sa_testing_pending_slots(unsigned int slots)
{
	return slots;
}
#endif

/* proc.c: /proc/slab_account and /proc/slab_account_reclaim */
enum sa_sort_key {
	SA_SORT_TOTAL,
	SA_SORT_SLACK,
	SA_SORT_REQ,
	SA_SORT_LIVE,
	SA_SORT_OBJS,
	SA_SORT_ALLOCS,
	SA_SORT_FREES,
	SA_NR_SORT_KEYS,
};
extern enum sa_sort_key sa_sort;
extern unsigned int sa_top;
int sa_sort_parse(const char *s, enum sa_sort_key *key);
const char *sa_sort_name(enum sa_sort_key key);
s64 sa_row_value(const struct sa_row *r, enum sa_sort_key key);
const char *sa_kind_name(enum sa_kind kind);
/* Resolve a call site to "symbol+off/size [module]" or %pK text. */
void sa_format_caller(char *buf, size_t len, unsigned long call_site);
/* One row of the call-site table, and the heading above the rows. */
struct seq_file;
void sa_seq_row(struct seq_file *m, const struct sa_row *r, char *caller,
		size_t len);
void sa_seq_row_heading(struct seq_file *m);
struct inode;
struct file;
int sa_single_release_free(struct inode *inode, struct file *file);
/* 0 if the opener may read and write what the file was opened for */
int sa_proc_permitted(const struct file *file);
/* Pause the probes, clear the tables, resume. Process context. */
void sa_reset(void);
int sa_proc_init(void);
void sa_proc_exit(void);

#endif /* SLAB_ACCOUNT_H */
