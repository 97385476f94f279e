// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/vmstat: parse it, and pick the counters the rates use.
 */
#include <string.h>

#include "procfs/parse.h"
#include "procfs/vmstat.h"

GHashTable *sa_vmstat_parse(const char *text, GError **err)
{
	return sa_procfile_parse_keyvals(text, ' ', "vmstat", err);
}

static bool prefixed(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) &&
		(name[n] == '\0' || name[n] == '_');
}

void sa_vm_counters_get(GHashTable *vm, struct sa_vm_counters *c)
{
	static const struct {
		const char *name;
		size_t off;
		bool prefix;
	} map[] = {
#define ONE(f) { #f, offsetof(struct sa_vm_counters, f), false }
#define SUM(f) { #f, offsetof(struct sa_vm_counters, f), true }
		ONE(pgfault), ONE(pgmajfault), ONE(pgfree), ONE(pgpgin),
		ONE(pgpgout), ONE(pswpin), ONE(pswpout),
		SUM(pgscan_kswapd), SUM(pgscan_direct), SUM(pgscan_khugepaged),
		SUM(pgscan_proactive), SUM(pgsteal_proactive),
		SUM(pgsteal_kswapd), SUM(pgsteal_direct),
		SUM(pgsteal_khugepaged), SUM(allocstall), ONE(compact_stall),
		ONE(oom_kill), ONE(numa_hit), ONE(numa_miss),
		ONE(numa_foreign), ONE(numa_local), ONE(numa_other),
#undef ONE
#undef SUM
	};
	GHashTableIter it;
	gpointer k, v;
	size_t i;

	memset(c, 0, sizeof(*c));
	g_hash_table_iter_init(&it, vm);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		const char *name = k;

		if (!strcmp(name, "pgscan_direct_throttle"))
			continue;
		for (i = 0; i < G_N_ELEMENTS(map); i++) {
			if (map[i].prefix ? !prefixed(name, map[i].name) :
			    strcmp(name, map[i].name))
				continue;
			*(guint64 *)((char *)c + map[i].off) +=
				*(guint64 *)v;
			break;
		}
	}
	c->have_oom_kill = g_hash_table_contains(vm, "oom_kill");
	c->have_numa = g_hash_table_contains(vm, "numa_hit");
}
