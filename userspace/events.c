// SPDX-License-Identifier: GPL-2.0
/*
 * The event table: one row per trace event slabacct records.
 */
#include <errno.h>
#include <string.h>

#include "events.h"

static const struct sa_event_desc events[] = {
	{ "kmem", "kmalloc", SA_GROUP_KMEM, NULL },
	{ "kmem", "kmalloc_node", SA_GROUP_KMEM, "kmalloc" },
	{ "kmem", "kfree", SA_GROUP_KMEM, NULL },
	{ "kmem", "kmem_cache_alloc", SA_GROUP_KMEM, NULL },
	{ "kmem", "kmem_cache_alloc_node", SA_GROUP_KMEM, "kmem_cache_alloc" },
	{ "kmem", "kmem_cache_free", SA_GROUP_KMEM, NULL },
	{ "kmem", "mm_page_alloc", SA_GROUP_PAGE, NULL },
	{ "kmem", "mm_page_free", SA_GROUP_PAGE, NULL },
	{ "kmem", "mm_page_free_batched", SA_GROUP_PAGE, NULL },
	{ "kmem", "mm_page_alloc_extfrag", SA_GROUP_PAGE, NULL },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_kswapd_wake", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_kswapd_sleep", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_wakeup_kswapd", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_shrink_slab_start", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_shrink_slab_end", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", SA_GROUP_VMSCAN, NULL },
	{ "vmscan", "mm_vmscan_writepage", SA_GROUP_VMSCAN,
	  "mm_vmscan_write_folio" },
	{ "vmscan", "mm_vmscan_write_folio", SA_GROUP_VMSCAN,
	  "mm_vmscan_writepage" },
	{ "compaction", "mm_compaction_begin", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_end", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_migratepages", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_isolate_migratepages",
	  SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_isolate_freepages", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_suitable", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_finished", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_defer_compaction", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_deferred", SA_GROUP_COMPACTION, NULL },
	{ "compaction", "mm_compaction_defer_reset", SA_GROUP_COMPACTION, NULL },
	{ "oom", "mark_victim", SA_GROUP_OOM, NULL },
	{ "oom", "wake_reaper", SA_GROUP_OOM, NULL },
	{ "oom", "start_task_reaping", SA_GROUP_OOM, NULL },
	{ "oom", "finish_task_reaping", SA_GROUP_OOM, NULL },
	{ "oom", "skip_task_reaping", SA_GROUP_OOM, NULL },
	{ "oom", "reclaim_retry_zone", SA_GROUP_OOM, NULL },
	{ "oom", "compact_retry", SA_GROUP_OOM, NULL },
	{ NULL, NULL, 0, NULL },
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
	{ "all", SA_GROUP_ALL },
};

const struct sa_event_desc *sa_event_table(void)
{
	return events;
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
