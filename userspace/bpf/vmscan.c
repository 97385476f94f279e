// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct vmscan: per interval, the time spent in shrink_slab, direct
 * reclaim and memcg reclaim, kswapd wakeups, and pages written by reclaim.
 */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "snoop.h"
#include "vmscan.skel.h"

struct vs_state {
	struct sa_bpf_run *run;
	int stats_fd;
	__u64 prev[SA_STAT_NR];
};

static const struct {
	int slot;
	const char *json;
} fields[] = {
	{ VS_SHRINK_SLAB, "shrink_slab" },
	{ VS_SHRINK_SLAB_NS, "shrink_slab_ns" },
	{ VS_SHRINK_SLAB_FREED, "shrink_slab_freed" },
	{ VS_DIRECT, "direct_reclaim" },
	{ VS_DIRECT_NS, "direct_reclaim_ns" },
	{ VS_DIRECT_PAGES, "direct_reclaim_pages" },
	{ VS_MEMCG, "memcg_reclaim" },
	{ VS_MEMCG_NS, "memcg_reclaim_ns" },
	{ VS_MEMCG_PAGES, "memcg_reclaim_pages" },
	{ VS_KSWAPD_WAKE, "kswapd_wake" },
	{ VS_WAKEUP_KSWAPD, "wakeup_kswapd" },
	{ VS_WRITEPAGE, "writepage" },
	{ SA_STAT_LOST, "lost" },
};

static int report(void *arg, bool final)
{
	struct vs_state *s = arg;
	__u64 d[SA_STAT_NR] = { 0 };
	char tbuf[16];
	JsonBuilder *b;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(fields); i++) {
		int k = fields[i].slot;
		__u64 v = sa_stat_get(s->stats_fd, k);

		d[k] = v - s->prev[k];
		s->prev[k] = v;
	}
	if (!s->run->opts->json) {
		printf("%-8s %7llu %9.3f %7llu %9.3f %7llu %9.3f %6llu %6llu "
		       "%6llu\n", sa_time_str(tbuf, sizeof(tbuf)),
		       (unsigned long long)d[VS_SHRINK_SLAB],
		       d[VS_SHRINK_SLAB_NS] / 1e6,
		       (unsigned long long)d[VS_DIRECT],
		       d[VS_DIRECT_NS] / 1e6,
		       (unsigned long long)d[VS_MEMCG], d[VS_MEMCG_NS] / 1e6,
		       (unsigned long long)d[VS_KSWAPD_WAKE],
		       (unsigned long long)d[VS_WAKEUP_KSWAPD],
		       (unsigned long long)d[VS_WRITEPAGE]);
		if (d[SA_STAT_LOST])
			printf("WARNING: %llu events lost\n",
			       (unsigned long long)d[SA_STAT_LOST]);
		fflush(stdout);
		return 0;
	}
	b = sa_json_report_begin(s->run->opts->tool);
	sa_json_put_bool(b, "final", final);
	for (i = 0; i < G_N_ELEMENTS(fields); i++) {
		sa_json_put_uint(b, fields[i].json, d[fields[i].slot]);
	}
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct vs_state s = { .run = run };
	GPtrArray *links = sa_links_new();
	struct vmscan_bpf *skel = NULL;
	int err;

	if (sa_require_tracepoint(tool, "vmscan",
				  "mm_vmscan_direct_reclaim_end",
				  "CONFIG_TRACEPOINTS")) {
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = vmscan_bpf__open();
	if (!skel) {
		err = sa_bpf_open_failed(tool);
		goto cleanup;
	}
	sa_autoload_tracepoints(skel->obj);
	err = vmscan_bpf__load(skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	if (sa_attach_all(skel->obj, tool, links)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	s.stats_fd = bpf_map__fd(skel->maps.stats);
	if (sa_bpf_run_start(run)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	if (!run->opts->json)
		printf("%-8s %7s %9s %7s %9s %7s %9s %6s %6s %6s\n", "TIME",
		       "SLAB", "SLAB_ms", "DIRECT", "DIRECT_ms", "MEMCG",
		       "MEMCG_ms", "KSWAPD", "WAKEUP", "WRITE");
	err = sa_bpf_run_loop(run, NULL, report, &s) ? SA_EXIT_FAIL :
						       SA_EXIT_OK;
cleanup:
	g_ptr_array_unref(links);
	vmscan_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_vmscan = {
	.name = "vmscan",
	.line = "reclaim time and kswapd activity per interval",
	.summary = "Reclaim per interval: shrink_slab, direct and memcg "
		   "reclaim (calls and time), kswapd wakeups, pages written.",
	.description =
		"Columns: SLAB shrinker calls and their time, DIRECT direct "
		"reclaims,\nMEMCG memcg reclaims, KSWAPD kswapd wakeups, "
		"WAKEUP requests to wake\nkswapd, WRITE pages written by "
		"reclaim. System-wide (-p and -c only\nbound the run).\n\n"
		"EXAMPLES:\n"
		"  slabacct vmscan 1                  every second\n"
		"  slabacct vmscan --json 5 12        a minute, as JSON",
	.run = run,
};
