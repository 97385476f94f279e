// SPDX-License-Identifier: GPL-2.0
/*
 * The report sections: one row per section, with its --what name and its
 * aggregator; each output format has its own table of section writers
 * (emit/emit.h). Row SA_SEC_CALLSITE always runs: the others are computed
 * from its live-object map and rows. See report/report.h for how to add one.
 */
#include <string.h>

#include "report/agg/areas.h"
#include "report/agg/budget.h"
#include "report/agg/callsite.h"
#include "report/agg/compaction.h"
#include "report/agg/coverage.h"
#include "report/agg/live.h"
#include "report/agg/oom.h"
#include "report/agg/pages.h"
#include "report/agg/reclaim.h"
#include "report/agg/subsys.h"
#include "report/agg/timeline.h"
#include "report/report.h"

const struct sa_section sa_report_table[SA_SEC_NR] = {
	[SA_SEC_CALLSITE] = { "callsite", "per call site: bytes, slack, "
		"frag, live, ping-pong, GFP", &sa_agg_callsite },
	[SA_SEC_LIVE] = { "live", "allocations never freed, by call site, "
		"with their ages", &sa_agg_live },
	[SA_SEC_SUBSYS] = { "subsys", "roll-up by source directory, module "
		"or symbol", &sa_agg_subsys },
	[SA_SEC_TIMELINE] = { "timeline", "allocated - freed bytes over time",
		&sa_agg_timeline },
	[SA_SEC_PAGES] = { "pages", "page allocations by order x "
		"migratetype, GFP, task; extfrag; unusable index",
		&sa_agg_pages },
	[SA_SEC_RECLAIM] = { "reclaim", "direct and memcg reclaim latency, "
		"kswapd, shrinkers, LRU efficiency", &sa_agg_reclaim },
	[SA_SEC_COMPACTION] = { "compaction", "compaction runs, outcomes, "
		"time, migration, deferrals", &sa_agg_compaction },
	[SA_SEC_OOM] = { "oom", "OOM kills: victim, trigger, reaping, top "
		"live call sites", &sa_agg_oom },
	[SA_SEC_VMALLOC] = { "vmalloc", "vmap areas by caller (through the "
		"stacks): allocs, bytes, frees, live, failed", &sa_agg_vmalloc },
	[SA_SEC_PERCPU] = { "percpu", "percpu allocations by call site: "
		"allocs, bytes, frees, live, failed", &sa_agg_percpu },
	[SA_SEC_COVERAGE] = { "coverage", "live slab of the trace against "
		"/proc/slabinfo at its end, by cache", &sa_agg_coverage },
	[SA_SEC_BUDGET] = { "budget", "the RAM split into its owners, from "
		"the sources stored at the end", &sa_agg_budget },
};

int sa_section_index(const char *what)
{
	int i;

	for (i = 0; i < SA_SEC_NR; i++)
		if (!strcmp(sa_report_table[i].what, what))
			return i;
	return -1;
}

int sa_what_parse(const char *list, guint32 *mask, char **bad)
{
	char **names = g_strsplit(list, ",", -1);
	guint32 m = 0;
	int i, j, ret = 0;

	*bad = NULL;
	for (i = 0; names[i]; i++) {
		char *n = g_strstrip(names[i]);

		if (!strcmp(n, "all")) {
			for (j = 0; j < SA_SEC_NR; j++)
				if (j != SA_SEC_BUDGET)
					m |= 1u << j;
			continue;
		}
		j = sa_section_index(n);
		if (j < 0) {
			*bad = g_strdup(n);
			ret = -1;
			break;
		}
		m |= 1u << j;
	}
	g_strfreev(names);
	if (!ret && !m) {
		*bad = g_strdup(list);
		ret = -1;
	}
	if (!ret)
		*mask = m;
	return ret;
}
