// SPDX-License-Identifier: GPL-2.0
/*
 * Parse every source of a snapshot, and compute the rates.
 */
#include <string.h>

#include "snapshot/view.h"

static void mark(struct sa_snapshot_view *v, int src, GError *e)
{
	v->why[src] = g_strdup(e ? e->message : "not available");
	g_clear_error(&e);
}

static void rates(struct sa_snapshot_view *v)
{
	const GArray *s = v->snap->samples;
	struct sa_vm_counters prev = { 0 };
	double prev_t = 0;
	guint i;

	v->rates = g_array_new(FALSE, TRUE, sizeof(struct sa_vm_rates));
	for (i = 0; s && i < s->len; i++) {
		const struct sa_snap_sample *smp = &g_array_index(s,
				struct sa_snap_sample, i);
		GHashTable *vm = sa_vmstat_parse(smp->vmstat, NULL);
		struct sa_vm_counters c;

		if (!vm)
			continue;
		sa_vm_counters_get(vm, &c);
		g_hash_table_unref(vm);
		if (i > 0 && smp->uptime > prev_t) {
			struct sa_vm_rates r;

			sa_vm_rates_compute(&prev, &c, smp->uptime - prev_t,
					    v->snap->page_size, &r);
			r.t0 = prev_t;
			r.t1 = smp->uptime;
			g_array_append_val(v->rates, r);
		}
		prev = c;
		prev_t = smp->uptime;
	}
}

struct sa_snapshot_view *sa_snapshot_view_new(const struct sa_snapshot *snap)
{
	struct sa_snapshot_view *v = g_new0(struct sa_snapshot_view, 1);
	long ps = snap->page_size;
	int i;

	v->snap = snap;
	for (i = 0; i < SA_SRC_NR; i++) {
		const char *t = snap->text[i];
		GError *e = NULL;
		bool ok = false;

		if (!t) {
			v->why[i] = g_strdup(snap->why[i] ? snap->why[i]
					     : "not available");
			continue;
		}
		switch (i) {
		case SA_SRC_MEMINFO:
			v->meminfo = sa_meminfo_parse(t, &e);
			ok = v->meminfo &&
				!sa_memfree_compute(v->meminfo, &v->mem, &e);
			break;
		case SA_SRC_VMSTAT:
			v->vmstat = sa_vmstat_parse(t, &e);
			if ((ok = v->vmstat != NULL))
				sa_vm_counters_get(v->vmstat, &v->vm);
			break;
		case SA_SRC_SLABINFO:
			ok = (v->slab_proc = sa_slab_parse_proc(t, ps, &e));
			break;
		case SA_SRC_SLAB_SYSFS:
			ok = (v->slab_sysfs = sa_slab_parse_sysfs(t, ps, &e));
			break;
		case SA_SRC_BUDDYINFO:
			ok = (v->buddy = sa_buddyinfo_parse(t, &e));
			break;
		case SA_SRC_PAGETYPEINFO:
			ok = (v->pagetype = sa_pagetypeinfo_parse(t, &e));
			break;
		case SA_SRC_ZONEINFO:
			ok = (v->zones = sa_zoneinfo_parse(t, &e));
			break;
		case SA_SRC_SWAPS:
			ok = (v->swaps = sa_swaps_parse(t, &e));
			break;
		case SA_SRC_PSI:
			ok = !sa_psi_parse(t, &v->psi, &e);
			break;
		case SA_SRC_PROCS:
			ok = (v->procs = sa_procs_parse(t, &e));
			break;
		case SA_SRC_OOMLOG:
			ok = (v->ooms = sa_oomlog_parse(t));
			break;
		}
		if (!ok)
			mark(v, i, e);
	}
	rates(v);
	return v;
}

void sa_snapshot_view_free(struct sa_snapshot_view *v)
{
	int i;

	if (!v)
		return;
	for (i = 0; i < SA_SRC_NR; i++)
		g_free(v->why[i]);
	if (v->meminfo)
		g_hash_table_unref(v->meminfo);
	if (v->vmstat)
		g_hash_table_unref(v->vmstat);
	sa_slab_table_free(v->slab_proc);
	sa_slab_table_free(v->slab_sysfs);
	if (v->buddy)
		g_array_unref(v->buddy);
	sa_pagetypeinfo_free(v->pagetype);
	if (v->zones)
		g_array_unref(v->zones);
	if (v->swaps)
		g_array_unref(v->swaps);
	if (v->procs)
		g_array_unref(v->procs);
	if (v->ooms)
		g_array_unref(v->ooms);
	g_array_unref(v->rates);
	g_free(v);
}

const struct sa_slab_table *sa_view_slab(const struct sa_snapshot_view *v)
{
	return v->slab_sysfs ? v->slab_sysfs : v->slab_proc;
}
