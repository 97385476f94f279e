// SPDX-License-Identifier: GPL-2.0
/*
 * The report sections: one row per section, with its aggregator and one
 * emitter per output format. Row 0 (callsite) always runs: the others
 * are computed from its live-object map and rows. See report.h for how
 * to add a section.
 */
#include <string.h>

#include "agg-callsite.h"
#include "agg-compaction.h"
#include "agg-live.h"
#include "agg-oom.h"
#include "agg-pages.h"
#include "agg-reclaim.h"
#include "agg-subsys.h"
#include "agg-timeline.h"
#include "emit.h"
#include "emit-mm.h"
#include "report.h"

const struct sa_section sa_report_table[] = {
	{ "callsite", "per call site: bytes, slack, frag, live, ping-pong, GFP",
	  &sa_agg_callsite, sa_text_callsite, sa_json_callsite,
	  sa_csv_callsite },
	{ "live", "allocations never freed, by call site, with their ages",
	  &sa_agg_live, sa_text_live, sa_json_live, sa_csv_live },
	{ "subsys", "roll-up by source directory, module or symbol",
	  &sa_agg_subsys, sa_text_subsys, sa_json_subsys, sa_csv_subsys },
	{ "timeline", "allocated - freed bytes over time",
	  &sa_agg_timeline, sa_text_timeline, sa_json_timeline,
	  sa_csv_timeline },
	{ "pages", "page allocations by order x migratetype, GFP, task; "
	  "extfrag; unusable index", &sa_agg_pages, sa_text_pages,
	  sa_json_pages, sa_csv_pages },
	{ "reclaim", "direct and memcg reclaim latency, kswapd, shrinkers, "
	  "LRU efficiency", &sa_agg_reclaim, sa_text_reclaim,
	  sa_json_reclaim, sa_csv_reclaim },
	{ "compaction", "compaction runs, outcomes, time, migration, "
	  "deferrals", &sa_agg_compaction, sa_text_compaction,
	  sa_json_compaction, sa_csv_compaction },
	{ "oom", "OOM kills: victim, trigger, reaping, top live call sites",
	  &sa_agg_oom, sa_text_oom, sa_json_oom, sa_csv_oom },
	{ NULL },
};

int sa_section_index(const char *what)
{
	int i;

	for (i = 0; sa_report_table[i].what; i++)
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
			for (j = 0; sa_report_table[j].what; j++)
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
