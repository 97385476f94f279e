// SPDX-License-Identifier: GPL-2.0
/*
 * The one event table: one row per trace event slabacct records, with the
 * id and the fields the reports decode from it (trace/events.h). Fields are
 * looked up by name once per event; none is assumed to exist on a given
 * kernel.
 */
#include <errno.h>
#include <string.h>

#include "trace/events.h"

/* short group names for the table */
#define G_KMEM		SA_GROUP_KMEM
#define G_PAGE		SA_GROUP_PAGE
#define G_VMSCAN	SA_GROUP_VMSCAN
#define G_COMPACTION	SA_GROUP_COMPACTION
#define G_OOM		SA_GROUP_OOM
#define G_BOOT		SA_GROUP_BOOT
#define G_VMALLOC	SA_GROUP_VMALLOC
#define G_PERCPU	SA_GROUP_PERCPU

#define KM_ALLOC_FIELDS {					\
	[SA_KM_CALL_SITE] = { "call_site", 0 },			\
	[SA_KM_PTR] = { "ptr", 0 },				\
	[SA_KM_REQ] = { "bytes_req", 0 },			\
	[SA_KM_ALLOC] = { "bytes_alloc", 0 },			\
	[SA_KM_GFP] = { "gfp_flags", 0 },			\
	[SA_KM_NAME] = { "name", SA_FLD_OPTIONAL | SA_FLD_STRING }, \
	[SA_KM_ACCOUNTED] = { "accounted", SA_FLD_OPTIONAL },	\
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
#define NO_FIELDS { { 0 } }
#define OOM_PID_FIELDS { [SA_OR_PID] = { "pid", 0 } }

static const struct sa_event_desc events[] = {
	{ "kmem", "kmalloc", G_KMEM, NULL, SA_EV_KMALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmalloc_node", G_KMEM, "kmalloc", SA_EV_KMALLOC,
	  KM_ALLOC_FIELDS },
	{ "kmem", "kfree", G_KMEM, NULL, SA_EV_KFREE, KM_FREE_FIELDS },
	{ "kmem", "kmem_cache_alloc", G_KMEM, NULL, SA_EV_CACHE_ALLOC,
	  KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_alloc_node", G_KMEM, "kmem_cache_alloc",
	  SA_EV_CACHE_ALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_free", G_KMEM, NULL, SA_EV_CACHE_FREE,
	  KM_FREE_FIELDS },
	/* pages, reclaim, compaction, oom: trace/events.h names the indices */
	{ "kmem", "mm_page_alloc", G_PAGE, NULL, SA_EV_PAGE_ALLOC, {
		[SA_PG_PFN] = { "pfn", 0 }, [SA_PG_ORDER] = { "order", 0 },
		[SA_PG_GFP] = { "gfp_flags", 0 },
		[SA_PG_MT] = { "migratetype", 0 } } },
	{ "kmem", "mm_page_free", G_PAGE, NULL, SA_EV_PAGE_FREE, {
		[SA_PG_PFN] = { "pfn", 0 }, [SA_PG_ORDER] = { "order", 0 } } },
	/*
	 * fired for a page that mm_page_free reported already (the kernel's
	 * free_unref_page_list/free_unref_folios): counted as a property
	 */
	{ "kmem", "mm_page_free_batched", G_PAGE, NULL,
	  SA_EV_PAGE_FREE_BATCHED, {
		[SA_PG_PFN] = { "pfn", 0 } } },
	{ "kmem", "mm_page_alloc_extfrag", G_PAGE, NULL, SA_EV_PAGE_EXTFRAG, {
		[SA_XF_ALLOC_ORDER] = { "alloc_order", 0 },
		[SA_XF_FALLBACK_ORDER] = { "fallback_order", 0 },
		[SA_XF_ALLOC_MT] = { "alloc_migratetype", 0 },
		[SA_XF_FALLBACK_MT] = { "fallback_migratetype", 0 },
		[SA_XF_CHANGE_OWNERSHIP] = { "change_ownership", 0 } } },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", G_VMSCAN, NULL,
	  SA_EV_DIRECT_BEGIN, {
		[SA_RC_ORDER] = { "order", 0 },
		[SA_RC_GFP] = { "gfp_flags", 0 } } },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", G_VMSCAN, NULL,
	  SA_EV_DIRECT_END, {
		[SA_RC_RECLAIMED] = { "nr_reclaimed", 0 } } },
	{ "vmscan", "mm_vmscan_kswapd_wake", G_VMSCAN, NULL,
	  SA_EV_KSWAPD_WAKE, {
		[SA_KS_NID] = { "nid", 0 },
		[SA_KS_ZID] = { "zid", SA_FLD_OPTIONAL },
		[SA_KS_ORDER] = { "order", 0 } } },
	{ "vmscan", "mm_vmscan_kswapd_sleep", G_VMSCAN, NULL,
	  SA_EV_KSWAPD_SLEEP, {
		[SA_KS_NID] = { "nid", 0 } } },
	{ "vmscan", "mm_vmscan_wakeup_kswapd", G_VMSCAN, NULL,
	  SA_EV_WAKEUP_KSWAPD, {
		[SA_KS_NID] = { "nid", 0 },
		[SA_KS_ZID] = { "zid", SA_FLD_OPTIONAL },
		[SA_KS_ORDER] = { "order", 0 } } },
	{ "vmscan", "mm_shrink_slab_start", G_VMSCAN, NULL,
	  SA_EV_SHRINK_START, {
		[SA_SS_SHR] = { "shr", 0 }, [SA_SS_SHRINK] = { "shrink", 0 },
		[SA_SS_NID] = { "nid", 0 },
		[SA_SS_TOTAL_SCAN] = { "total_scan", 0 },
		[SA_SS_CACHE_ITEMS] = { "cache_items", 0 } } },
	{ "vmscan", "mm_shrink_slab_end", G_VMSCAN, NULL, SA_EV_SHRINK_END, {
		[SA_SE_SHR] = { "shr", 0 }, [SA_SE_SHRINK] = { "shrink", 0 },
		[SA_SE_RETVAL] = { "retval", 0 } } },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", G_VMSCAN, NULL,
	  SA_EV_LRU_INACTIVE, {
		[SA_LRU_SCANNED] = { "nr_scanned", 0 },
		[SA_LRU_RECLAIMED] = { "nr_reclaimed", 0 },
		[SA_LRU_FLAGS] = { "reclaim_flags", 0 } } },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", G_VMSCAN, NULL,
	  SA_EV_MEMCG_BEGIN, {
		[SA_RC_ORDER] = { "order", 0 },
		[SA_RC_GFP] = { "gfp_flags", 0 } } },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", G_VMSCAN, NULL,
	  SA_EV_MEMCG_END, {
		[SA_RC_RECLAIMED] = { "nr_reclaimed", 0 } } },
	{ "vmscan", "mm_vmscan_write_folio", G_VMSCAN, "mm_vmscan_writepage",
	  SA_EV_RECLAIM_WRITE, { { 0 } } },
	{ "vmscan", "mm_vmscan_writepage", G_VMSCAN, "mm_vmscan_write_folio",
	  SA_EV_RECLAIM_WRITE, { { 0 } } },
	{ "compaction", "mm_compaction_begin", G_COMPACTION, NULL,
	  SA_EV_COMPACT_BEGIN, {
		[SA_CP_ZONE_START] = { "zone_start", 0 },
		[SA_CP_MIGRATE_PFN] = { "migrate_pfn", 0 },
		[SA_CP_FREE_PFN] = { "free_pfn", 0 },
		[SA_CP_ZONE_END] = { "zone_end", 0 },
		[SA_CP_SYNC] = { "sync", 0 } } },
	{ "compaction", "mm_compaction_end", G_COMPACTION, NULL,
	  SA_EV_COMPACT_END, {
		[SA_CP_ZONE_START] = { "zone_start", 0 },
		[SA_CP_MIGRATE_PFN] = { "migrate_pfn", 0 },
		[SA_CP_FREE_PFN] = { "free_pfn", 0 },
		[SA_CP_ZONE_END] = { "zone_end", 0 },
		[SA_CP_SYNC] = { "sync", 0 },
		[SA_CP_STATUS] = { "status", 0 } } },
	{ "compaction", "mm_compaction_migratepages", G_COMPACTION, NULL,
	  SA_EV_COMPACT_MIGRATE, {
		[SA_CP_MIGRATED] = { "nr_migrated", 0 },
		[SA_CP_FAILED] = { "nr_failed", 0 } } },
	/*
	 * every migrate_pages() call, with its reason: compaction's and
	 * the others' (/proc/vmstat's pgmigrate_success counts them all);
	 * recorded for the referee (trace-cmd shows it), not reported
	 */
	{ "migrate", "mm_migrate_pages", G_COMPACTION, NULL, SA_EV_NONE,
	  NO_FIELDS },
	{ "compaction", "mm_compaction_isolate_migratepages", G_COMPACTION,
	  NULL, SA_EV_NONE, NO_FIELDS },
	{ "compaction", "mm_compaction_isolate_freepages", G_COMPACTION, NULL,
	  SA_EV_NONE, NO_FIELDS },
	{ "compaction", "mm_compaction_suitable", G_COMPACTION, NULL,
	  SA_EV_NONE, NO_FIELDS },
	{ "compaction", "mm_compaction_finished", G_COMPACTION, NULL,
	  SA_EV_NONE, NO_FIELDS },
	{ "compaction", "mm_compaction_defer_compaction", G_COMPACTION, NULL,
	  SA_EV_COMPACT_DEFER, CP_DEFER_FIELDS },
	{ "compaction", "mm_compaction_deferred", G_COMPACTION, NULL,
	  SA_EV_COMPACT_DEFERRED, CP_DEFER_FIELDS },
	{ "compaction", "mm_compaction_defer_reset", G_COMPACTION, NULL,
	  SA_EV_COMPACT_DEFER_RESET, CP_DEFER_FIELDS },
	{ "oom", "mark_victim", G_OOM, NULL, SA_EV_OOM_VICTIM, {
		[SA_OV_PID] = { "pid", 0 },
		/* older kernels have the pid only */
		[SA_OV_COMM] = { "comm", SA_FLD_OPTIONAL | SA_FLD_STRING },
		[SA_OV_ANON_RSS] = { "anon_rss", SA_FLD_OPTIONAL },
		[SA_OV_FILE_RSS] = { "file_rss", SA_FLD_OPTIONAL },
		[SA_OV_SHMEM_RSS] = { "shmem_rss", SA_FLD_OPTIONAL },
		[SA_OV_SCORE_ADJ] = { "oom_score_adj", SA_FLD_OPTIONAL } } },
	{ "oom", "wake_reaper", G_OOM, NULL, SA_EV_OOM_WAKE_REAPER,
	  OOM_PID_FIELDS },
	{ "oom", "start_task_reaping", G_OOM, NULL, SA_EV_OOM_START_REAP,
	  OOM_PID_FIELDS },
	{ "oom", "finish_task_reaping", G_OOM, NULL, SA_EV_OOM_FINISH_REAP,
	  OOM_PID_FIELDS },
	{ "oom", "skip_task_reaping", G_OOM, NULL, SA_EV_OOM_SKIP_REAP,
	  OOM_PID_FIELDS },
	{ "oom", "reclaim_retry_zone", G_OOM, NULL, SA_EV_OOM_RECLAIM_RETRY, {
		[SA_ORR_ORDER] = { "order", 0 },
		[SA_ORR_LOOPS] = { "no_progress_loops", 0 } } },
	{ "oom", "compact_retry", G_OOM, NULL, SA_EV_OOM_COMPACT_RETRY, {
		[SA_OCR_ORDER] = { "order", 0 },
		[SA_OCR_RETRIES] = { "retries", 0 } } },
	/*
	 * boot phases: the kernel marks the start of each initcall level
	 * (a string: "early", "core", ... "late") and the end of each
	 * initcall; the thread that ran them then execs the init process
	 */
	{ "initcall", "initcall_level", G_BOOT, NULL, SA_EV_INITCALL_LEVEL, {
		[SA_IL_LEVEL] = { "level", SA_FLD_STRING } } },
	{ "initcall", "initcall_finish", G_BOOT, NULL, SA_EV_INITCALL_FINISH,
	  NO_FIELDS },
	{ "sched", "sched_process_exec", G_BOOT, NULL, SA_EV_EXEC, {
		[SA_EX_FILENAME] = { "filename",
				     SA_FLD_STRING | SA_FLD_OPTIONAL } } },
	/*
	 * Who forked whom (the report's tasks, report/tasks.h); in no
	 * group: record enables it, with sched_process_exec, whatever -e
	 */
	{ "sched", "sched_process_fork", 0, NULL, SA_EV_FORK, {
		[SA_FK_PARENT] = { "parent_pid", 0 },
		[SA_FK_CHILD] = { "child_pid", 0 },
		[SA_FK_COMM] = { "child_comm",
				 SA_FLD_STRING | SA_FLD_OPTIONAL } } },
	/*
	 * vmap areas (vmalloc, vmap, ioremap, module text: every user of
	 * alloc_vmap_area), and the percpu allocator. alloc_vmap_area has
	 * no call site: the report attributes it through a kernel stack
	 * (record --stacks takes one after each). 6.1 has percpu's events
	 * (with call_site) but not vmalloc's; a missing event is skipped.
	 */
	{ "vmalloc", "alloc_vmap_area", G_VMALLOC, NULL, SA_EV_VMAP_ALLOC, {
		[SA_VA_ADDR] = { "addr", 0 }, [SA_VA_SIZE] = { "size", 0 },
		[SA_VA_FAILED] = { "failed", SA_FLD_OPTIONAL } } },
	{ "vmalloc", "free_vmap_area_noflush", G_VMALLOC, NULL,
	  SA_EV_VMAP_FREE, {
		[SA_VF_START] = { "va_start", 0 } } },
	/* the lazy purges that unmap freed areas: for trace-cmd, not read */
	{ "vmalloc", "purge_vmap_area_lazy", G_VMALLOC, NULL, SA_EV_NONE,
	  NO_FIELDS },
	{ "percpu", "percpu_alloc_percpu", G_PERCPU, NULL, SA_EV_PCPU_ALLOC, {
		[SA_PA_CALL_SITE] = { "call_site", 0 },
		[SA_PA_PTR] = { "ptr", 0 }, [SA_PA_SIZE] = { "size", 0 },
		[SA_PA_BYTES] = { "bytes_alloc", SA_FLD_OPTIONAL },
		[SA_PA_GFP] = { "gfp_flags", SA_FLD_OPTIONAL } } },
	{ "percpu", "percpu_free_percpu", G_PERCPU, NULL, SA_EV_PCPU_FREE, {
		[SA_PF_PTR] = { "ptr", 0 } } },
	{ "percpu", "percpu_alloc_percpu_fail", G_PERCPU, NULL,
	  SA_EV_PCPU_FAIL, {
		[SA_PX_SIZE] = { "size", 0 } } },
	/*
	 * Written by a stacktrace trigger (slabacct record --stacks) or the
	 * stacktrace option (trace-cmd record -T) after an event; in no
	 * group: never enabled as an event. Decoded by trace/decode.c.
	 */
	{ "ftrace", "kernel_stack", 0, NULL, SA_EV_STACK, {
		[SA_ST_SIZE] = { "size", SA_FLD_OPTIONAL },
		/* an array, read by the decoder itself */
		[SA_ST_CALLER] = { "caller", SA_FLD_OPTIONAL } } },
	{ NULL },
};

static const struct {
	const char *name;
	unsigned int mask;
} groups[] = {
	{ "kmem", SA_GROUP_KMEM },
	{ "page", SA_GROUP_PAGE },
	{ "vmscan", SA_GROUP_VMSCAN },
	{ "compaction", SA_GROUP_COMPACTION },
	{ "oom", SA_GROUP_OOM },
	{ "boot", SA_GROUP_BOOT },
	{ "vmalloc", SA_GROUP_VMALLOC },
	{ "percpu", SA_GROUP_PERCPU },
	{ "all", SA_GROUP_ALL },
};

const struct sa_event_desc *sa_event_table(void)
{
	return events;
}

const char *sa_ev_name(enum sa_ev ev)
{
	const struct sa_event_desc *d;

	for (d = events; d->name; d++)
		if (d->ev == ev)
			return d->name;
	return "?";
}

const char *sa_group_name(unsigned int i)
{
	return i < G_N_ELEMENTS(groups) ? groups[i].name : NULL;
}

int sa_groups_parse(const char *list, unsigned int *mask, char **bad)
{
	gchar **names = g_strsplit(list ? list : "", ",", -1);
	unsigned int m = 0;
	size_t i, j;

	*bad = NULL;
	for (i = 0; names[i]; i++) {
		const char *n = g_strstrip(names[i]);
		bool found = false;

		for (j = 0; j < G_N_ELEMENTS(groups); j++) {
			if (strcmp(n, groups[j].name) == 0) {
				m |= groups[j].mask;
				found = true;
				break;
			}
		}
		if (!found) {
			*bad = g_strdup(n);
			g_strfreev(names);
			errno = EINVAL;
			return -1;
		}
	}
	g_strfreev(names);
	if (!m) {
		*bad = g_strdup("");
		errno = EINVAL;
		return -1;
	}
	*mask = m;
	return 0;
}

char *sa_groups_format(unsigned int mask)
{
	GString *s = g_string_new(NULL);
	size_t j;

	if ((mask & SA_GROUP_ALL) == SA_GROUP_ALL)
		return g_string_free(s, FALSE), g_strdup("all");
	for (j = 0; j < G_N_ELEMENTS(groups); j++) {
		if (groups[j].mask == SA_GROUP_ALL || !(mask & groups[j].mask))
			continue;
		if (s->len)
			g_string_append_c(s, ',');
		g_string_append(s, groups[j].name);
	}
	return g_string_free(s, FALSE);
}
