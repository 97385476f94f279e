// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of a snapshot view (json-glib).
 */
#include <string.h>

#include "emit/emit.h"
#include "emit/snapshot-emit.h"


static void dbl(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_double_value(b, v);
}

static void sources(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	int i;

	json_builder_set_member_name(b, "sources");
	json_builder_begin_object(b);
	for (i = 0; i < SA_SRC_NR; i++) {
		json_builder_set_member_name(b, sa_snap_source_name(i));
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "available");
		json_builder_add_boolean_value(b, sa_view_has(v, i));
		if (!sa_view_has(v, i))
			sa_json_put_str(b, "why", v->why[i]);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

static void memory(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	const struct sa_memfree *m = &v->mem;

	json_builder_set_member_name(b, "memory");
	if (!v->meminfo) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
#define K(f) sa_json_put_uint(b, #f "_kb", m->f)
	K(total); K(used); K(free); K(shared); K(buffers); K(cache);
	K(buff_cache); K(available);
	json_builder_set_member_name(b, "available_estimated");
	json_builder_add_boolean_value(b, m->available_estimated);
	K(swap_total); K(swap_used); K(swap_free); K(swap_cached);
	K(file_lru); K(anon); K(slab); K(sreclaimable); K(sunreclaim);
	K(kernel_stack); K(page_tables); K(vmalloc_used); K(percpu);
	K(committed_as); K(commit_limit);
#undef K
	sa_json_put_uint(b, "huge_total_kb", m->huge_total_kb);
	sa_json_put_uint(b, "huge_free_kb", m->huge_free_kb);
	dbl(b, "swap_used_pct", m->swap_used_pct);
	dbl(b, "swap_cached_pct", m->swap_cached_pct);
	dbl(b, "commit_pct", m->commit_pct);
	dbl(b, "huge_used_pct", m->huge_used_pct);
	json_builder_end_object(b);
}

static void slab_totals(JsonBuilder *b, const struct sa_slab_totals *s)
{
	json_builder_begin_object(b);
#define T(f) sa_json_put_uint(b, #f, s->f)
	T(active_objs); T(num_objs); T(active_slabs); T(num_slabs);
	T(active_caches); T(nr_caches); T(active_size); T(total_size);
	T(min_objsize); T(avg_objsize); T(max_objsize); T(space); T(used);
	T(loss);
#undef T
	json_builder_end_object(b);
}

static void slab_list(JsonBuilder *b, const struct sa_slab_table *t,
		      enum sa_slab_sort key, int top)
{
	GPtrArray *a = sa_slab_sorted(t, key);
	guint i;

	json_builder_begin_array(b);
	for (i = 0; i < a->len && (top <= 0 || (int)i < top); i++) {
		const struct sa_slab_cache *c = a->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "name", c->name);
#define C(f) sa_json_put_uint(b, #f, c->f)
		C(active_objs); C(num_objs); C(object_size); C(slot_size);
		C(objs_per_slab); C(pages_per_slab); C(slabs); C(size);
		C(used); C(loss); C(eff);
#undef C
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	g_ptr_array_unref(a);
}

static void slab(JsonBuilder *b, const struct sa_snapshot_view *v, int top)
{
	const struct sa_slab_table *t = sa_view_slab(v);

	json_builder_set_member_name(b, "slabtop");
	if (v->slab_proc)
		slab_totals(b, &v->slab_proc->tot);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "slab");
	if (!t) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sa_json_put_str(b, "origin",
			t->origin == SA_SLAB_SYSFS ? "sysfs" : "proc");
	json_builder_set_member_name(b, "totals");
	slab_totals(b, &t->tot);
	json_builder_set_member_name(b, "top_by_size");
	slab_list(b, t, SA_SLAB_BY_SIZE, top);
	json_builder_set_member_name(b, "top_by_loss");
	slab_list(b, t, SA_SLAB_BY_LOSS, top);
	json_builder_set_member_name(b, "caches");
	slab_list(b, t, SA_SLAB_BY_SIZE, 0);
	json_builder_end_object(b);
}

static void zones(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	guint i, j;
	int o, t;

	json_builder_set_member_name(b, "zones");
	json_builder_begin_array(b);
	for (i = 0; v->buddy && i < v->buddy->len; i++) {
		const struct sa_buddy_zone *z = &g_array_index(v->buddy,
				struct sa_buddy_zone, i);

		json_builder_begin_object(b);
		sa_json_put_int(b, "node", z->node);
		sa_json_put_str(b, "zone", z->zone);
		sa_json_put_uint(b, "free_pages", sa_buddy_free_pages(z));
		json_builder_set_member_name(b, "nr_free");
		json_builder_begin_array(b);
		for (o = 0; o < z->nr_orders; o++)
			sa_json_add_uint(b, z->nr_free[o]);
		json_builder_end_array(b);
		json_builder_set_member_name(b, "unusable_index");
		json_builder_begin_array(b);
		for (o = 0; o < z->nr_orders; o++)
			json_builder_add_double_value(b,
					sa_buddy_unusable(z, o));
		json_builder_end_array(b);
		for (j = 0; v->zones && j < v->zones->len; j++) {
			const struct sa_zone_info *zi = &g_array_index(v->zones,
					struct sa_zone_info, j);

			if (zi->node != z->node || strcmp(zi->zone, z->zone))
				continue;
			json_builder_set_member_name(b, "watermarks");
			json_builder_begin_object(b);
			sa_json_put_uint(b, "free", zi->free);
			sa_json_put_uint(b, "min", zi->min);
			sa_json_put_uint(b, "low", zi->low);
			sa_json_put_uint(b, "high", zi->high);
			sa_json_put_uint(b, "managed", zi->managed);
			sa_json_put_uint(b, "present", zi->present);
			sa_json_put_uint(b, "spanned", zi->spanned);
			json_builder_end_object(b);
		}
		for (j = 0; v->pagetype && j < v->pagetype->zones->len; j++) {
			const struct sa_pagetype_zone *pz = &g_array_index(
					v->pagetype->zones,
					struct sa_pagetype_zone, j);

			if (pz->node != z->node || strcmp(pz->zone, z->zone))
				continue;
			json_builder_set_member_name(b, "migratetypes");
			json_builder_begin_object(b);
			for (t = 0; t < v->pagetype->nr_types; t++) {
				json_builder_set_member_name(b,
						v->pagetype->types[t]);
				json_builder_begin_object(b);
				sa_json_put_uint(b, "free_pages",
						pz->free_pages[t]);
				sa_json_put_uint(b, "blocks", pz->blocks[t]);
				json_builder_end_object(b);
			}
			json_builder_end_object(b);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void swaps(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	guint i;

	json_builder_set_member_name(b, "swaps");
	if (!v->swaps) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_array(b);
	for (i = 0; i < v->swaps->len; i++) {
		const struct sa_swap_area *s = &g_array_index(v->swaps,
				struct sa_swap_area, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "name", s->name);
		sa_json_put_str(b, "type", s->type);
		sa_json_put_uint(b, "size_kb", s->size_kb);
		sa_json_put_uint(b, "used_kb", s->used_kb);
		json_builder_set_member_name(b, "prio");
		json_builder_add_int_value(b, s->prio);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void psi_line(JsonBuilder *b, const char *name,
		     const struct sa_psi_line *l)
{
	json_builder_set_member_name(b, name);
	if (!l->present) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	dbl(b, "avg10", l->avg10);
	dbl(b, "avg60", l->avg60);
	dbl(b, "avg300", l->avg300);
	sa_json_put_uint(b, "total_us", l->total_us);
	json_builder_end_object(b);
}

static void psi(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	json_builder_set_member_name(b, "psi");
	if (!sa_view_has(v, SA_SRC_PSI)) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	psi_line(b, "some", &v->psi.some);
	psi_line(b, "full", &v->psi.full);
	json_builder_end_object(b);
}

static void known(JsonBuilder *b, const char *name, guint64 v)
{
	json_builder_set_member_name(b, name);
	if (v == SA_PROC_UNKNOWN)
		json_builder_add_null_value(b);
	else
		sa_json_add_uint(b, v);
}

static void procs(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	GPtrArray *a;
	guint i;

	json_builder_set_member_name(b, "processes");
	if (!v->procs) {
		json_builder_add_null_value(b);
		return;
	}
	a = sa_procs_sorted(v->procs, SA_PROC_BY_RSS);
	json_builder_begin_array(b);
	for (i = 0; i < a->len; i++) {
		const struct sa_proc_mem *p = a->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_int(b, "pid", p->pid);
		sa_json_put_str(b, "name", p->name);
		known(b, "rss_kb", p->rss_kb);
		known(b, "pss_kb", p->pss_kb);
		known(b, "pss_anon_kb", p->pss_anon_kb);
		known(b, "swap_kb", p->swap_kb);
		sa_json_put_str(b, "source",
				p->from_smaps ? "smaps_rollup" : "status");
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	g_ptr_array_unref(a);
}

static void vm(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	const struct sa_vm_counters *c = &v->vm;

	json_builder_set_member_name(b, "vm_counters");
	if (!v->vmstat) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
#define V(f) sa_json_put_uint(b, #f, c->f)
	V(pgfault); V(pgmajfault); V(pgfree); V(pgpgin); V(pgpgout);
	V(pswpin); V(pswpout); V(pgscan_kswapd); V(pgscan_direct);
	V(pgscan_khugepaged); V(pgscan_proactive); V(pgsteal_kswapd);
	V(pgsteal_direct); V(pgsteal_khugepaged); V(pgsteal_proactive);
	V(allocstall); V(compact_stall);
	if (c->have_oom_kill)
		V(oom_kill);
	if (c->have_numa) {
		V(numa_hit); V(numa_miss); V(numa_foreign); V(numa_local);
		V(numa_other);
	}
#undef V
	json_builder_end_object(b);
}

static void rates(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	guint i;

	json_builder_set_member_name(b, "rates");
	json_builder_begin_array(b);
	for (i = 0; i < v->rates->len; i++) {
		const struct sa_vm_rates *r = &g_array_index(v->rates,
				struct sa_vm_rates, i);

		json_builder_begin_object(b);
#define R(f) dbl(b, #f, r->f)
		R(t0); R(t1); R(fault); R(majflt); R(pgpgin); R(pgpgout);
		R(pgfree); R(pgscank); R(pgscand); R(pgsteal); R(pswpin);
		R(pswpout); R(si_kb); R(so_kb); R(allocstall); R(oom_kill);
#undef R
		json_builder_set_member_name(b, "vmeff");
		if (r->vmeff < 0)
			json_builder_add_null_value(b);
		else
			json_builder_add_double_value(b, r->vmeff);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void ooms(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	guint i;

	json_builder_set_member_name(b, "oom_kills");
	if (!v->ooms) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_array(b);
	for (i = 0; i < v->ooms->len; i++) {
		const struct sa_oom_kill *k = &g_array_index(v->ooms,
				struct sa_oom_kill, i);

		json_builder_begin_object(b);
		dbl(b, "time", k->time);
		sa_json_put_int(b, "pid", k->pid);
		sa_json_put_str(b, "comm", k->comm);
		json_builder_set_member_name(b, "memcg");
		json_builder_add_boolean_value(b, k->memcg);
		sa_json_put_uint(b, "total_vm_kb", k->total_vm_kb);
		sa_json_put_uint(b, "anon_rss_kb", k->anon_rss_kb);
		sa_json_put_uint(b, "file_rss_kb", k->file_rss_kb);
		sa_json_put_uint(b, "shmem_rss_kb", k->shmem_rss_kb);
		sa_json_put_uint(b, "pgtables_kb", k->pgtables_kb);
		json_builder_set_member_name(b, "uid");
		json_builder_add_int_value(b, k->uid);
		json_builder_set_member_name(b, "oom_score_adj");
		json_builder_add_int_value(b, k->oom_score_adj);
		sa_json_put_str(b, "constraint", k->constraint);
		sa_json_put_str(b, "invoker", k->invoker);
		sa_json_put_str(b, "gfp_mask", k->gfp_mask);
		json_builder_set_member_name(b, "order");
		json_builder_add_int_value(b, k->order);
		json_builder_set_member_name(b, "reaped");
		json_builder_add_boolean_value(b, k->reaped);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void head(JsonBuilder *b, const struct sa_snapshot_view *v)
{
	json_builder_set_member_name(b, "schema_version");
	json_builder_add_int_value(b, SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "kind", "slabacct-snapshot-report");
	sa_json_put_str(b, "release", v->snap->release);
	json_builder_set_member_name(b, "wall_time_us");
	json_builder_add_int_value(b, v->snap->wall_time);
	dbl(b, "uptime", v->snap->uptime);
	sa_json_put_int(b, "page_size", v->snap->page_size);
}

JsonNode *sa_snapshot_view_to_json(const struct sa_snapshot_view *v,
				   const struct sa_snapshot_emit_opts *o)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *node;
	int top = o && o->top > 0 ? o->top : 10;

	json_builder_begin_object(b);
	head(b, v);
	sources(b, v);
	memory(b, v);
	slab(b, v, top);
	zones(b, v);
	swaps(b, v);
	psi(b, v);
	procs(b, v);
	vm(b, v);
	rates(b, v);
	ooms(b, v);
	if (o && o->raw) {
		json_builder_set_member_name(b, "raw");
		json_builder_add_value(b, sa_snapshot_to_node(v->snap));
	}
	json_builder_end_object(b);
	node = json_builder_get_root(b);
	g_object_unref(b);
	return node;
}

JsonNode *sa_snapshot_system_to_json(const struct sa_snapshot_view *v)
{
	const struct sa_slab_table *t = sa_view_slab(v);
	JsonBuilder *b = json_builder_new();
	JsonNode *node;

	json_builder_begin_object(b);
	head(b, v);
	sources(b, v);
	memory(b, v);
	json_builder_set_member_name(b, "slab");
	if (t)
		slab_totals(b, &t->tot);
	else
		json_builder_add_null_value(b);
	zones(b, v);
	psi(b, v);
	vm(b, v);
	ooms(b, v);
	json_builder_end_object(b);
	node = json_builder_get_root(b);
	g_object_unref(b);
	return node;
}
