// SPDX-License-Identifier: GPL-2.0
/*
 * The event-dispatch table: which tracepoints the reports read, the event
 * id each maps to, and the fields decoded into struct sa_rec. Fields are
 * looked up by name once per event (report-read.c); none is assumed to
 * exist on a given kernel.
 */
#include "agg-compaction.h"
#include "agg-oom.h"
#include "agg-pages.h"
#include "agg-reclaim.h"
#include "report.h"

#define KM_ALLOC_FIELDS {					\
	[SA_KM_CALL_SITE] = { "call_site", 0 },			\
	[SA_KM_PTR] = { "ptr", 0 },				\
	[SA_KM_REQ] = { "bytes_req", 0 },			\
	[SA_KM_ALLOC] = { "bytes_alloc", 0 },			\
	[SA_KM_GFP] = { "gfp_flags", 0 },			\
	[SA_KM_NAME] = { "name", SA_FLD_OPTIONAL | SA_FLD_STRING }, \
}
#define KM_FREE_FIELDS {					\
	[SA_KM_CALL_SITE] = { "call_site", 0 },			\
	[SA_KM_PTR] = { "ptr", 0 },				\
	[SA_KM_NAME] = { "name", SA_FLD_OPTIONAL | SA_FLD_STRING }, \
}
#define CP_DEFER_FIELDS {					\
	[SA_CD_NID] = { "nid", 0 }, [SA_CD_IDX] = { "idx", 0 },	\
	[SA_CD_ORDER] = { "order", 0 },				\
	[SA_CD_CONSIDERED] = { "considered", 0 },		\
	[SA_CD_DEFER_SHIFT] = { "defer_shift", 0 },		\
	[SA_CD_ORDER_FAILED] = { "order_failed", 0 },		\
}
#define OOM_PID_FIELDS { [SA_OR_PID] = { "pid", 0 } }

const struct sa_event_row sa_dispatch_table[] = {
	{ "kmem", "kmalloc", SA_EV_KMALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmalloc_node", SA_EV_KMALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_alloc", SA_EV_CACHE_ALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_alloc_node", SA_EV_CACHE_ALLOC,
	  KM_ALLOC_FIELDS },
	{ "kmem", "kfree", SA_EV_KFREE, KM_FREE_FIELDS },
	{ "kmem", "kmem_cache_free", SA_EV_CACHE_FREE, KM_FREE_FIELDS },
	/* pages, reclaim, compaction, oom: the agg-*.h name the indices */
	{ "kmem", "mm_page_alloc", SA_EV_PAGE_ALLOC, {
		[SA_PG_PFN] = { "pfn", 0 }, [SA_PG_ORDER] = { "order", 0 },
		[SA_PG_GFP] = { "gfp_flags", 0 },
		[SA_PG_MT] = { "migratetype", 0 } } },
	{ "kmem", "mm_page_free", SA_EV_PAGE_FREE, {
		[SA_PG_PFN] = { "pfn", 0 }, [SA_PG_ORDER] = { "order", 0 } } },
	/*
	 * fired for a page that mm_page_free reported already (the kernel's
	 * free_unref_page_list/free_unref_folios): counted as a property
	 */
	{ "kmem", "mm_page_free_batched", SA_EV_PAGE_FREE_BATCHED, {
		[SA_PG_PFN] = { "pfn", 0 } } },
	{ "kmem", "mm_page_alloc_extfrag", SA_EV_PAGE_EXTFRAG, {
		[SA_XF_ALLOC_ORDER] = { "alloc_order", 0 },
		[SA_XF_FALLBACK_ORDER] = { "fallback_order", 0 },
		[SA_XF_ALLOC_MT] = { "alloc_migratetype", 0 },
		[SA_XF_FALLBACK_MT] = { "fallback_migratetype", 0 },
		[SA_XF_CHANGE_OWNERSHIP] = { "change_ownership", 0 } } },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", SA_EV_DIRECT_BEGIN, {
		[SA_RC_ORDER] = { "order", 0 },
		[SA_RC_GFP] = { "gfp_flags", 0 } } },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", SA_EV_DIRECT_END, {
		[SA_RC_RECLAIMED] = { "nr_reclaimed", 0 } } },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", SA_EV_MEMCG_BEGIN, {
		[SA_RC_ORDER] = { "order", 0 },
		[SA_RC_GFP] = { "gfp_flags", 0 } } },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", SA_EV_MEMCG_END, {
		[SA_RC_RECLAIMED] = { "nr_reclaimed", 0 } } },
	{ "vmscan", "mm_vmscan_kswapd_wake", SA_EV_KSWAPD_WAKE, {
		[SA_KS_NID] = { "nid", 0 },
		[SA_KS_ZID] = { "zid", SA_FLD_OPTIONAL },
		[SA_KS_ORDER] = { "order", 0 } } },
	{ "vmscan", "mm_vmscan_kswapd_sleep", SA_EV_KSWAPD_SLEEP, {
		[SA_KS_NID] = { "nid", 0 } } },
	{ "vmscan", "mm_vmscan_wakeup_kswapd", SA_EV_WAKEUP_KSWAPD, {
		[SA_KS_NID] = { "nid", 0 },
		[SA_KS_ZID] = { "zid", SA_FLD_OPTIONAL },
		[SA_KS_ORDER] = { "order", 0 } } },
	{ "vmscan", "mm_shrink_slab_start", SA_EV_SHRINK_START, {
		[SA_SS_SHR] = { "shr", 0 }, [SA_SS_SHRINK] = { "shrink", 0 },
		[SA_SS_NID] = { "nid", 0 },
		[SA_SS_TOTAL_SCAN] = { "total_scan", 0 },
		[SA_SS_CACHE_ITEMS] = { "cache_items", 0 } } },
	{ "vmscan", "mm_shrink_slab_end", SA_EV_SHRINK_END, {
		[SA_SE_SHR] = { "shr", 0 }, [SA_SE_SHRINK] = { "shrink", 0 },
		[SA_SE_RETVAL] = { "retval", 0 } } },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", SA_EV_LRU_INACTIVE, {
		[SA_LRU_SCANNED] = { "nr_scanned", 0 },
		[SA_LRU_RECLAIMED] = { "nr_reclaimed", 0 },
		[SA_LRU_FLAGS] = { "reclaim_flags", 0 } } },
	{ "vmscan", "mm_vmscan_write_folio", SA_EV_RECLAIM_WRITE, { { 0 } } },
	{ "vmscan", "mm_vmscan_writepage", SA_EV_RECLAIM_WRITE, { { 0 } } },
	{ "compaction", "mm_compaction_begin", SA_EV_COMPACT_BEGIN, {
		[SA_CP_ZONE_START] = { "zone_start", 0 },
		[SA_CP_MIGRATE_PFN] = { "migrate_pfn", 0 },
		[SA_CP_FREE_PFN] = { "free_pfn", 0 },
		[SA_CP_ZONE_END] = { "zone_end", 0 },
		[SA_CP_SYNC] = { "sync", 0 } } },
	{ "compaction", "mm_compaction_end", SA_EV_COMPACT_END, {
		[SA_CP_ZONE_START] = { "zone_start", 0 },
		[SA_CP_MIGRATE_PFN] = { "migrate_pfn", 0 },
		[SA_CP_FREE_PFN] = { "free_pfn", 0 },
		[SA_CP_ZONE_END] = { "zone_end", 0 },
		[SA_CP_SYNC] = { "sync", 0 },
		[SA_CP_STATUS] = { "status", 0 } } },
	{ "compaction", "mm_compaction_migratepages", SA_EV_COMPACT_MIGRATE, {
		[SA_CP_MIGRATED] = { "nr_migrated", 0 },
		[SA_CP_FAILED] = { "nr_failed", 0 } } },
	{ "compaction", "mm_compaction_defer_compaction", SA_EV_COMPACT_DEFER,
	  CP_DEFER_FIELDS },
	{ "compaction", "mm_compaction_deferred", SA_EV_COMPACT_DEFERRED,
	  CP_DEFER_FIELDS },
	{ "compaction", "mm_compaction_defer_reset", SA_EV_COMPACT_DEFER_RESET,
	  CP_DEFER_FIELDS },
	{ "oom", "mark_victim", SA_EV_OOM_VICTIM, {
		[SA_OV_PID] = { "pid", 0 },
		/* older kernels have the pid only */
		[SA_OV_COMM] = { "comm", SA_FLD_OPTIONAL | SA_FLD_STRING },
		[SA_OV_ANON_RSS] = { "anon_rss", SA_FLD_OPTIONAL },
		[SA_OV_FILE_RSS] = { "file_rss", SA_FLD_OPTIONAL },
		[SA_OV_SHMEM_RSS] = { "shmem_rss", SA_FLD_OPTIONAL },
		[SA_OV_SCORE_ADJ] = { "oom_score_adj", SA_FLD_OPTIONAL } } },
	{ "oom", "wake_reaper", SA_EV_OOM_WAKE_REAPER, OOM_PID_FIELDS },
	{ "oom", "start_task_reaping", SA_EV_OOM_START_REAP, OOM_PID_FIELDS },
	{ "oom", "finish_task_reaping", SA_EV_OOM_FINISH_REAP,
	  OOM_PID_FIELDS },
	{ "oom", "skip_task_reaping", SA_EV_OOM_SKIP_REAP, OOM_PID_FIELDS },
	{ "oom", "reclaim_retry_zone", SA_EV_OOM_RECLAIM_RETRY, {
		[SA_ORR_ORDER] = { "order", 0 },
		[SA_ORR_LOOPS] = { "no_progress_loops", 0 } } },
	{ "oom", "compact_retry", SA_EV_OOM_COMPACT_RETRY, {
		[SA_OCR_ORDER] = { "order", 0 },
		[SA_OCR_RETRIES] = { "retries", 0 } } },
	{ NULL },
};

const char *sa_ev_name(enum sa_ev ev)
{
	static const char *const names[SA_EV_NR] = {
		[SA_EV_KMALLOC] = "kmalloc",
		[SA_EV_CACHE_ALLOC] = "kmem_cache_alloc",
		[SA_EV_KFREE] = "kfree",
		[SA_EV_CACHE_FREE] = "kmem_cache_free",
		[SA_EV_PAGE_ALLOC] = "mm_page_alloc",
		[SA_EV_PAGE_FREE] = "mm_page_free",
		[SA_EV_PAGE_FREE_BATCHED] = "mm_page_free_batched",
		[SA_EV_PAGE_EXTFRAG] = "mm_page_alloc_extfrag",
		[SA_EV_DIRECT_BEGIN] = "mm_vmscan_direct_reclaim_begin",
		[SA_EV_DIRECT_END] = "mm_vmscan_direct_reclaim_end",
		[SA_EV_KSWAPD_WAKE] = "mm_vmscan_kswapd_wake",
		[SA_EV_KSWAPD_SLEEP] = "mm_vmscan_kswapd_sleep",
		[SA_EV_WAKEUP_KSWAPD] = "mm_vmscan_wakeup_kswapd",
		[SA_EV_SHRINK_START] = "mm_shrink_slab_start",
		[SA_EV_SHRINK_END] = "mm_shrink_slab_end",
		[SA_EV_LRU_INACTIVE] = "mm_vmscan_lru_shrink_inactive",
		[SA_EV_MEMCG_BEGIN] = "mm_vmscan_memcg_reclaim_begin",
		[SA_EV_MEMCG_END] = "mm_vmscan_memcg_reclaim_end",
		[SA_EV_RECLAIM_WRITE] = "mm_vmscan_write_folio",
		[SA_EV_COMPACT_BEGIN] = "mm_compaction_begin",
		[SA_EV_COMPACT_END] = "mm_compaction_end",
		[SA_EV_COMPACT_MIGRATE] = "mm_compaction_migratepages",
		[SA_EV_COMPACT_DEFER] = "mm_compaction_defer_compaction",
		[SA_EV_COMPACT_DEFERRED] = "mm_compaction_deferred",
		[SA_EV_COMPACT_DEFER_RESET] = "mm_compaction_defer_reset",
		[SA_EV_OOM_VICTIM] = "mark_victim",
		[SA_EV_OOM_WAKE_REAPER] = "wake_reaper",
		[SA_EV_OOM_START_REAP] = "start_task_reaping",
		[SA_EV_OOM_FINISH_REAP] = "finish_task_reaping",
		[SA_EV_OOM_SKIP_REAP] = "skip_task_reaping",
		[SA_EV_OOM_RECLAIM_RETRY] = "reclaim_retry_zone",
		[SA_EV_OOM_COMPACT_RETRY] = "compact_retry",
	};

	return ev < SA_EV_NR && names[ev] ? names[ev] : "?";
}
