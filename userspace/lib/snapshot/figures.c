// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot view flattened to (section, name, field, value) figures.
 */
#include <math.h>
#include <string.h>

#include "snapshot/figures.h"

static void figure_clear(gpointer p)
{
	struct sa_figure *f = p;

	g_free(f->name);
	g_free(f->field);
	g_free(f->text);
}

static void add(GArray *a, const char *section, const char *name,
		const char *field, double value)
{
	struct sa_figure f = {
		.section = section,
		.name = g_strdup(name ? name : ""),
		.field = g_strdup(field),
		.value = value,
	};

	g_array_append_val(a, f);
}

static void add_text(GArray *a, const char *section, const char *name,
		     const char *field, const char *text)
{
	struct sa_figure f = {
		.section = section,
		.name = g_strdup(name ? name : ""),
		.field = g_strdup(field),
		.text = g_strdup(text),
	};

	g_array_append_val(a, f);
}

static void sorted_keys(GArray *a, const char *section, GHashTable *kv)
{
	GList *keys = g_list_sort(g_hash_table_get_keys(kv),
				  (GCompareFunc)strcmp), *l;

	for (l = keys; l; l = l->next)
		add(a, section, NULL, l->data,
		    *(guint64 *)g_hash_table_lookup(kv, l->data));
	g_list_free(keys);
}

static void memory(GArray *a, const struct sa_memfree *m)
{
#define M(f) add(a, "memory", NULL, #f, m->f)
	M(total); M(used); M(free); M(shared); M(buffers); M(cache);
	M(buff_cache); M(available); M(swap_total); M(swap_used);
	M(swap_free); M(swap_cached); M(swap_used_pct); M(swap_cached_pct);
	M(file_lru); M(anon); M(slab); M(sreclaimable); M(sunreclaim);
	M(kernel_stack); M(page_tables); M(vmalloc_used); M(percpu);
	M(committed_as); M(commit_limit); M(commit_pct); M(huge_total_kb);
	M(huge_free_kb); M(huge_used_pct);
#undef M
}

static void slab(GArray *a, const char *tot_sec, const char *cache_sec,
		 const struct sa_slab_table *t)
{
	const struct sa_slab_totals *s = &t->tot;
	guint i;

#define T(f) add(a, tot_sec, NULL, #f, s->f)
	T(active_objs); T(num_objs); T(active_slabs); T(num_slabs);
	T(active_caches); T(nr_caches); T(active_size); T(total_size);
	T(min_objsize); T(avg_objsize); T(max_objsize); T(space); T(used);
	T(loss);
#undef T
	for (i = 0; i < t->caches->len; i++) {
		const struct sa_slab_cache *c = t->caches->pdata[i];
#define C(f) add(a, cache_sec, c->name, #f, c->f)
		C(active_objs); C(num_objs); C(object_size); C(slot_size);
		C(objs_per_slab); C(pages_per_slab); C(slabs); C(size);
		C(used); C(loss); C(eff);
#undef C
	}
}

static void zones(GArray *a, const struct sa_snapshot_view *v)
{
	guint i;
	int o;

	for (i = 0; v->buddy && i < v->buddy->len; i++) {
		const struct sa_buddy_zone *z = &g_array_index(v->buddy,
				struct sa_buddy_zone, i);
		char *name = g_strdup_printf("node%d/%s", z->node, z->zone);

		add(a, "buddy", name, "free_pages", sa_buddy_free_pages(z));
		for (o = 0; o < z->nr_orders; o++) {
			char *f = g_strdup_printf("order%d", o);

			add(a, "buddy", name, f, z->nr_free[o]);
			/* as the kernel shows it, to 3 decimals */
			add(a, "unusable_index", name, f,
			    sa_buddy_unusable_milli(z, o) / 1000.0);
			g_free(f);
		}
		g_free(name);
	}
	for (i = 0; v->zones && i < v->zones->len; i++) {
		const struct sa_zone_info *z = &g_array_index(v->zones,
				struct sa_zone_info, i);
		char *name = g_strdup_printf("node%d/%s", z->node, z->zone);

#define Z(f) add(a, "zone", name, #f, z->f)
		Z(free); Z(min); Z(low); Z(high); Z(spanned); Z(present);
		Z(managed);
#undef Z
		g_free(name);
	}
	for (i = 0; v->pagetype && i < v->pagetype->zones->len; i++) {
		const struct sa_pagetype_zone *z = &g_array_index(
				v->pagetype->zones, struct sa_pagetype_zone, i);
		char *name = g_strdup_printf("node%d/%s", z->node, z->zone);
		int t;

		for (t = 0; t < v->pagetype->nr_types; t++) {
			char *f = g_strdup_printf("free_%s",
						  v->pagetype->types[t]);

			add(a, "pagetype", name, f, z->free_pages[t]);
			g_free(f);
			f = g_strdup_printf("blocks_%s", v->pagetype->types[t]);
			add(a, "pagetype", name, f, z->blocks[t]);
			g_free(f);
		}
		g_free(name);
	}
}

static void psi_line(GArray *a, const char *name,
		     const struct sa_psi_line *l)
{
	if (!l->present)
		return;
	add(a, "psi", name, "avg10", l->avg10);
	add(a, "psi", name, "avg60", l->avg60);
	add(a, "psi", name, "avg300", l->avg300);
	add(a, "psi", name, "total_us", l->total_us);
}

static void procs_and_ooms(GArray *a, const struct sa_snapshot_view *v)
{
	guint i;

	for (i = 0; v->procs && i < v->procs->len; i++) {
		const struct sa_proc_mem *p = &g_array_index(v->procs,
				struct sa_proc_mem, i);
		char *name = g_strdup_printf("%d %s", p->pid, p->name);

		if (p->rss_kb != SA_PROC_UNKNOWN)
			add(a, "process", name, "rss_kb", p->rss_kb);
		if (p->pss_kb != SA_PROC_UNKNOWN)
			add(a, "process", name, "pss_kb", p->pss_kb);
		if (p->swap_kb != SA_PROC_UNKNOWN)
			add(a, "process", name, "swap_kb", p->swap_kb);
		g_free(name);
	}
	for (i = 0; v->ooms && i < v->ooms->len; i++) {
		const struct sa_oom_kill *k = &g_array_index(v->ooms,
				struct sa_oom_kill, i);
		char *name = g_strdup_printf("%d %s", k->pid, k->comm);

		add(a, "oom_kill", name, "time", k->time);
		add(a, "oom_kill", name, "total_vm_kb", k->total_vm_kb);
		add(a, "oom_kill", name, "anon_rss_kb", k->anon_rss_kb);
		add(a, "oom_kill", name, "file_rss_kb", k->file_rss_kb);
		add(a, "oom_kill", name, "shmem_rss_kb", k->shmem_rss_kb);
		if (k->constraint)
			add_text(a, "oom_kill", name, "constraint",
				 k->constraint);
		g_free(name);
	}
	if (v->ooms)
		add(a, "oom", NULL, "kills", v->ooms->len);
}

static void rates(GArray *a, const struct sa_snapshot_view *v)
{
	guint i;

	for (i = 0; i < v->rates->len; i++) {
		const struct sa_vm_rates *r = &g_array_index(v->rates,
				struct sa_vm_rates, i);
		char *name = g_strdup_printf("%.2f-%.2f", r->t0, r->t1);

#define R(f) add(a, "rates", name, #f, r->f)
		R(fault); R(majflt); R(pgpgin); R(pgpgout); R(pgfree);
		R(pgscank); R(pgscand); R(pgsteal); R(vmeff); R(pswpin);
		R(pswpout); R(si_kb); R(so_kb); R(allocstall); R(oom_kill);
#undef R
		g_free(name);
	}
}

GArray *sa_snapshot_figures(const struct sa_snapshot_view *v)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(struct sa_figure));
	guint i;

	g_array_set_clear_func(a, figure_clear);
	for (i = 0; i < SA_SRC_NR; i++) {
		add(a, "source", sa_snap_source_name(i), "available",
		    sa_view_has(v, i));
		if (!sa_view_has(v, i))
			add_text(a, "source", sa_snap_source_name(i), "why",
				 v->why[i]);
	}
	if (v->meminfo) {
		memory(a, &v->mem);
		sorted_keys(a, "meminfo", v->meminfo);
	}
	if (v->vmstat)
		sorted_keys(a, "vmstat", v->vmstat);
	if (v->slab_proc)
		slab(a, "slabinfo_totals", "slabinfo_cache", v->slab_proc);
	if (v->slab_sysfs)
		slab(a, "slab_sysfs_totals", "slab_sysfs_cache",
		     v->slab_sysfs);
	zones(a, v);
	for (i = 0; v->swaps && i < v->swaps->len; i++) {
		const struct sa_swap_area *s = &g_array_index(v->swaps,
				struct sa_swap_area, i);

		add_text(a, "swap", s->name, "type", s->type);
		add(a, "swap", s->name, "size_kb", s->size_kb);
		add(a, "swap", s->name, "used_kb", s->used_kb);
		add(a, "swap", s->name, "prio", s->prio);
	}
	if (sa_view_has(v, SA_SRC_PSI)) {
		psi_line(a, "some", &v->psi.some);
		psi_line(a, "full", &v->psi.full);
	}
	procs_and_ooms(a, v);
	rates(a, v);
	return a;
}

void sa_figure_append_value(GString *out, double v)
{
	char num[G_ASCII_DTOSTR_BUF_SIZE];

	if (v == floor(v) && fabs(v) < 1e15)
		g_string_append_printf(out, "%.0f", v);
	else
		g_string_append(out, g_ascii_formatd(num, sizeof(num), "%.4f",
						     v));
}
