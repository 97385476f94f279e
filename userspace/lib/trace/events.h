/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace events slabacct knows, grouped the way `-e GROUPS` names them,
 * and how the reports decode them: the id each maps to and the fields,
 * looked up by name once per event. Whether an event (or a field) exists
 * is asked of the trace at run time; no kernel version is ever assumed.
 *
 * Adding an event: an id in enum sa_ev (and its field indices below),
 * one row in the table (trace/events.c), and the aggregator that reads it.
 */
#ifndef SLABACCT_EVENTS_H
#define SLABACCT_EVENTS_H

#include <stdbool.h>
#include <glib.h>

enum sa_group {
	SA_GROUP_KMEM = 1 << 0,		/* slab: kmalloc, kfree, kmem_cache_* */
	SA_GROUP_PAGE = 1 << 1,		/* page allocator */
	SA_GROUP_VMSCAN = 1 << 2,
	SA_GROUP_COMPACTION = 1 << 3,
	SA_GROUP_OOM = 1 << 4,
	SA_GROUP_BOOT = 1 << 5,		/* initcall levels, the start of init */
	SA_GROUP_VMALLOC = 1 << 6,	/* vmap areas: vmalloc, vmap, ioremap */
	SA_GROUP_PERCPU = 1 << 7,	/* the percpu allocator */
	SA_GROUP_ALL = (1 << 8) - 1,
};

/* Event ids: several tracepoints may map to one (kmalloc_node → KMALLOC). */
enum sa_ev {
	SA_EV_KMALLOC,
	SA_EV_CACHE_ALLOC,
	SA_EV_KFREE,
	SA_EV_CACHE_FREE,
	/* pages (report/agg/pages.h) */
	SA_EV_PAGE_ALLOC,
	SA_EV_PAGE_FREE,	/* mm_page_free: every free of a page */
	SA_EV_PAGE_FREE_BATCHED,	/* the same page again, freed in a
					 * batch: a property, not a free */
	SA_EV_PAGE_EXTFRAG,
	/* reclaim (report/agg/reclaim.h) */
	SA_EV_DIRECT_BEGIN,
	SA_EV_DIRECT_END,
	SA_EV_KSWAPD_WAKE,
	SA_EV_KSWAPD_SLEEP,
	SA_EV_WAKEUP_KSWAPD,
	SA_EV_SHRINK_START,
	SA_EV_SHRINK_END,
	SA_EV_LRU_INACTIVE,
	SA_EV_MEMCG_BEGIN,
	SA_EV_MEMCG_END,
	SA_EV_RECLAIM_WRITE,	/* mm_vmscan_write_folio or _writepage */
	/* compaction (report/agg/compaction.h) */
	SA_EV_COMPACT_BEGIN,
	SA_EV_COMPACT_END,
	SA_EV_COMPACT_MIGRATE,
	SA_EV_COMPACT_DEFER,	/* mm_compaction_defer_compaction */
	SA_EV_COMPACT_DEFERRED,
	SA_EV_COMPACT_DEFER_RESET,
	/* oom (report/agg/oom.h) */
	SA_EV_OOM_VICTIM,
	SA_EV_OOM_WAKE_REAPER,
	SA_EV_OOM_START_REAP,
	SA_EV_OOM_FINISH_REAP,
	SA_EV_OOM_SKIP_REAP,
	SA_EV_OOM_RECLAIM_RETRY,
	SA_EV_OOM_COMPACT_RETRY,
	/* boot phases (report/agg/phases.h) */
	SA_EV_INITCALL_LEVEL,	/* initcall:initcall_level */
	SA_EV_INITCALL_FINISH,	/* initcall:initcall_finish */
	SA_EV_EXEC,		/* sched:sched_process_exec */
	/*
	 * sched:sched_process_fork: who forked whom, for the report's
	 * --by comm, pid and cgroup (report/tasks.h); record enables it
	 * and exec with any group
	 */
	SA_EV_FORK,
	/* vmalloc and percpu (report/agg/areas.h) */
	SA_EV_VMAP_ALLOC,	/* vmalloc:alloc_vmap_area */
	SA_EV_VMAP_FREE,	/* vmalloc:free_vmap_area_noflush */
	SA_EV_PCPU_ALLOC,	/* percpu:percpu_alloc_percpu */
	SA_EV_PCPU_FREE,	/* percpu:percpu_free_percpu */
	SA_EV_PCPU_FAIL,	/* percpu:percpu_alloc_percpu_fail */
	/*
	 * ftrace:kernel_stack, the stack a trigger or the stacktrace option
	 * wrote after an event of its CPU: never handed to a sink, but
	 * attached to that event (sa_rec.stack, trace/stack.h)
	 */
	SA_EV_STACK,
	SA_EV_NR,		/* keep below 64 */
	SA_EV_NONE = 255,	/* recorded, not read by any report */
};
#define SA_EVBIT(e)	(1ULL << (e))

#define SA_REC_FIELDS	7

struct sa_stack;

/* One decoded trace record. String fields hold a g_intern_string(). */
struct sa_rec {
	guint64 ts;			/* ns */
	guint64 v[SA_REC_FIELDS];	/* fields, in the event row's order */
	/*
	 * The kernel stack recorded with this event (an ftrace kernel_stack
	 * entry that followed it on its CPU), interned: the same frames are
	 * the same pointer for the whole process. NULL: none.
	 */
	const struct sa_stack *stack;
	guint32 have;			/* bit i: v[i] was in the format */
	gint32 pid;
	guint16 cpu;
	guint8 ev;			/* enum sa_ev */
	/*
	 * Set by the callsite aggregator (first in the table), for the
	 * aggregators after it. flags: SA_REC_REPEAT on an allocation that
	 * repeats the one before it (a large kmalloc traced twice): it is
	 * not an allocation. freed_alloc, on a free: the bytes_alloc of the
	 * allocation it matched, or 0 for a free of memory allocated before
	 * the trace; on an allocation: the bytes_alloc of a live object at
	 * the same pointer, which was freed without a trace event, or 0.
	 * The reader sets the other bits: the context the record was made
	 * in (SA_REC_CTX, from common_flags), and SA_REC_GAP.
	 */
	guint8 flags;
	guint32 freed_alloc;
};
#define SA_REC_REPEAT	1
/* made in an NMI, a hard interrupt, a softirq (none: a task) */
#define SA_REC_NMI	2
#define SA_REC_HARDIRQ	4
#define SA_REC_SOFTIRQ	8
#define SA_REC_CTX	(SA_REC_NMI | SA_REC_HARDIRQ | SA_REC_SOFTIRQ)
/* the buffer lost events of its CPU just before this record */
#define SA_REC_GAP	16

/* Field indices of the kmem events in sa_rec.v. */
enum {
	SA_KM_CALL_SITE,
	SA_KM_PTR,
	SA_KM_REQ,		/* allocations only */
	SA_KM_ALLOC,		/* allocations only */
	SA_KM_GFP,		/* allocations only */
	SA_KM_NAME,		/* cache name, on newer kernels */
	SA_KM_ACCOUNTED,	/* charged to a memory cgroup: 6.0+, and on
				 * newer kernels only kmem_cache_alloc's (a
				 * kmalloc's is computed from gfp_flags by
				 * the print format) */
};

/*
 * The events whose v[0] is the call_site field: the allocator's caller
 * (for frees, the function that frees).
 */
#define SA_EV_CALL_SITE_MASK (SA_EVBIT(SA_EV_KMALLOC) |			\
			      SA_EVBIT(SA_EV_CACHE_ALLOC) |		\
			      SA_EVBIT(SA_EV_KFREE) |			\
			      SA_EVBIT(SA_EV_CACHE_FREE) |		\
			      SA_EVBIT(SA_EV_PCPU_ALLOC))
#define SA_F_CALL_SITE	0

#define SA_FLD_OPTIONAL	1	/* absence is normal: no note */
#define SA_FLD_STRING	2	/* a string (__string/__data_loc or char[]) */

struct sa_field_spec {
	const char *name;
	unsigned int flags;
};


/* Field indices of the other events in sa_rec.v, by event. */
/* Fields of mm_page_alloc and mm_page_free(_batched) in sa_rec.v. */
enum {
	SA_PG_PFN,
	SA_PG_ORDER,
	SA_PG_GFP,		/* alloc only */
	SA_PG_MT,		/* alloc only */
};
/* Fields of mm_page_alloc_extfrag. */
enum {
	SA_XF_ALLOC_ORDER,
	SA_XF_FALLBACK_ORDER,
	SA_XF_ALLOC_MT,
	SA_XF_FALLBACK_MT,
	SA_XF_CHANGE_OWNERSHIP,
};
/* Fields of mm_vmscan_{direct,memcg}_reclaim_begin. */
enum { SA_RC_ORDER, SA_RC_GFP };
/* Fields of mm_vmscan_{direct,memcg}_reclaim_end. */
enum { SA_RC_RECLAIMED };
/* mm_vmscan_kswapd_wake, _kswapd_sleep, _wakeup_kswapd */
enum { SA_KS_NID, SA_KS_ZID, SA_KS_ORDER };
/* mm_shrink_slab_start */
enum { SA_SS_SHR, SA_SS_SHRINK, SA_SS_NID, SA_SS_TOTAL_SCAN,
       SA_SS_CACHE_ITEMS };
/* mm_shrink_slab_end */
enum { SA_SE_SHR, SA_SE_SHRINK, SA_SE_RETVAL };
/* mm_vmscan_lru_shrink_inactive */
enum { SA_LRU_SCANNED, SA_LRU_RECLAIMED, SA_LRU_FLAGS };
/* Fields of mm_compaction_begin and mm_compaction_end. */
enum { SA_CP_ZONE_START, SA_CP_MIGRATE_PFN, SA_CP_FREE_PFN,
       SA_CP_ZONE_END, SA_CP_SYNC, SA_CP_STATUS /* end only */ };
/* mm_compaction_migratepages */
enum { SA_CP_MIGRATED, SA_CP_FAILED };
/* mm_compaction_defer_compaction, _deferred, _defer_reset */
enum { SA_CD_NID, SA_CD_IDX, SA_CD_ORDER, SA_CD_CONSIDERED,
       SA_CD_DEFER_SHIFT, SA_CD_ORDER_FAILED };
/* Fields of oom:mark_victim. */
enum { SA_OV_PID, SA_OV_COMM, SA_OV_ANON_RSS, SA_OV_FILE_RSS,
       SA_OV_SHMEM_RSS, SA_OV_SCORE_ADJ };
/* wake_reaper, start/finish/skip_task_reaping */
enum { SA_OR_PID };
/* reclaim_retry_zone */
enum { SA_ORR_ORDER, SA_ORR_LOOPS };
/* compact_retry */
enum { SA_OCR_ORDER, SA_OCR_RETRIES };
/* initcall:initcall_level */
enum { SA_IL_LEVEL };
/* sched:sched_process_exec: the task's name becomes the file's base name */
enum { SA_EX_FILENAME };
/* sched:sched_process_fork: ids of threads (a task's pid in the kernel) */
enum { SA_FK_PARENT, SA_FK_CHILD, SA_FK_COMM };
/*
 * vmalloc:alloc_vmap_area: addr is the area's start (va_start), size its
 * length with the guard page; failed is set on a failed attempt (which
 * the kernel may retry after a purge)
 */
enum { SA_VA_ADDR, SA_VA_SIZE, SA_VA_FAILED };
/* vmalloc:free_vmap_area_noflush */
enum { SA_VF_START };
/*
 * percpu:percpu_alloc_percpu: call_site (5.19+), ptr, size (per CPU),
 * bytes_alloc (5.19+: on every possible CPU), gfp_flags (5.19+)
 */
enum { SA_PA_CALL_SITE, SA_PA_PTR, SA_PA_SIZE, SA_PA_BYTES, SA_PA_GFP };
/* percpu:percpu_free_percpu */
enum { SA_PF_PTR };
/* percpu:percpu_alloc_percpu_fail */
enum { SA_PX_SIZE };
/* ftrace:kernel_stack: read by the decoder itself (trace/decode.c) */
enum { SA_ST_SIZE, SA_ST_CALLER };

struct sa_event_desc {
	const char *system;		/* tracefs system: kmem, vmscan, ... */
	const char *name;		/* event name */
	enum sa_group group;
	const char *alt;		/* an event of the same kind, of the same
					 * system: where it exists, this one's
					 * absence is normal (kmalloc_node went
					 * into kmalloc); NULL: none */
	enum sa_ev ev;			/* what the reports read it as, or
					 * SA_EV_NONE */
	struct sa_field_spec fields[SA_REC_FIELDS];	/* decoded into
							 * sa_rec.v[] */
};

/*
 * The one event table: every event slabacct records, and what the
 * reports decode of it. Terminated by an entry with a NULL name.
 */
const struct sa_event_desc *sa_event_table(void);
/* The event name of an id (the first row that has it). */
const char *sa_ev_name(enum sa_ev ev);

/*
 * Parse a comma list of group names ("kmem,vmscan", "all") into a mask.
 * Returns 0 and sets *mask, or -1 with errno = EINVAL and *bad pointing
 * at a newly allocated copy of the first unknown name (free with g_free).
 */
int sa_groups_parse(const char *list, unsigned int *mask, char **bad);

/* The name of group i ("kmem", ..., "all"), or NULL past the last. */
const char *sa_group_name(unsigned int i);

/* "kmem,page" for a mask; the caller frees the string with g_free. */
char *sa_groups_format(unsigned int mask);

#endif /* SLABACCT_EVENTS_H */
