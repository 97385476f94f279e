// SPDX-License-Identifier: GPL-2.0
/*
 * Text output of a snapshot, under 80 columns: free, slabtop, the
 * fragmentation index, swapon, PSI, top processes, rates and OOM kills.
 */
#include <string.h>

#include "util/escape.h"
#include "emit/snapshot-emit.h"

#define KB(x) ((x) / 1024.0)

static void heading(GString *out, const char *title)
{
	g_string_append_printf(out, "\n%s\n", title);
}

static bool missing(GString *out, const struct sa_snapshot_view *v, int src)
{
	if (sa_view_has(v, src))
		return false;
	g_string_append_printf(out, "  %s: not available (%s)\n",
			       sa_snap_source_path(src), sa_esc(v->why[src]));
	return true;
}

static void memory(GString *out, const struct sa_snapshot_view *v)
{
	const struct sa_memfree *m = &v->mem;

	heading(out, "Memory (kB, as free -k)");
	if (missing(out, v, SA_SRC_MEMINFO))
		return;
	g_string_append_printf(out, "%-6s %11s %11s %11s %9s %11s %11s\n", "",
			       "total", "used", "free", "shared",
			       "buff/cache", "available");
	g_string_append_printf(out, "%-6s %11" G_GUINT64_FORMAT " %11"
			       G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT " %9"
			       G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT " %11"
			       G_GUINT64_FORMAT "\n", "Mem:", m->total,
			       m->used, m->free, m->shared, m->buff_cache,
			       m->available);
	g_string_append_printf(out, "%-6s %11" G_GUINT64_FORMAT " %11"
			       G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT "\n",
			       "Swap:", m->swap_total, m->swap_used,
			       m->swap_free);
	g_string_append_printf(out,
		"  available = MemAvailable%s: what new work can get without\n"
		"    swapping: the free pages above the zones' low watermarks,\n"
		"    plus the page cache (file LRU, %" G_GUINT64_FORMAT " kB) and "
		"reclaimable slab\n    (%" G_GUINT64_FORMAT " kB) the kernel "
		"can drop, less what it keeps of them.\n"
		"  used = total - available; buff/cache = Buffers + Cached + "
		"SReclaimable\n",
		m->available_estimated ? " (missing: MemFree shown)" : "",
		m->file_lru, m->sreclaimable);
	g_string_append_printf(out,
		"  anon %" G_GUINT64_FORMAT "  slab %" G_GUINT64_FORMAT
		" (unreclaimable %" G_GUINT64_FORMAT ")  kernel stack %"
		G_GUINT64_FORMAT "\n  page tables %" G_GUINT64_FORMAT
		"  vmalloc %" G_GUINT64_FORMAT "  percpu %" G_GUINT64_FORMAT
		"  committed %.1f%% of RAM+swap\n",
		m->anon, m->slab, m->sunreclaim, m->kernel_stack,
		m->page_tables, m->vmalloc_used, m->percpu, m->commit_pct);
	if (m->huge_total_kb)
		g_string_append_printf(out, "  huge pages %" G_GUINT64_FORMAT
				       " kB, %.1f%% used\n", m->huge_total_kb,
				       m->huge_used_pct);
}

static void slab_totals(GString *out, const struct sa_slab_table *t)
{
	const struct sa_slab_totals *s = &t->tot;

	g_string_append_printf(out,
		"  objects %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
		", slabs %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
		" (active / total)\n"
		"  caches %u / %u, size %.2fK / %.2fK\n"
		"  object min/avg/max %.2fK/%.2fK/%.2fK\n",
		s->active_objs, s->num_objs, s->active_slabs, s->num_slabs,
		s->active_caches, s->nr_caches, KB(s->active_size),
		KB(s->total_size), KB(s->min_objsize), KB(s->avg_objsize),
		KB(s->max_objsize));
}

static void slab_rank(GString *out, const struct sa_slab_table *t,
		      enum sa_slab_sort key, int top)
{
	GPtrArray *a = sa_slab_sorted(t, key);
	guint i;

	g_string_append_printf(out, "  by %s:\n  %-24s %9s %7s %10s %10s %4s\n",
			       key == SA_SLAB_BY_LOSS ? "Loss" : "size", "name",
			       "objects", "objsize", "space K", "loss K",
			       "eff%");
	for (i = 0; i < a->len && (int)i < top; i++) {
		const struct sa_slab_cache *c = a->pdata[i];

		if (!c->size)
			break;
		g_string_append_printf(out, "  %-24.24s %9" G_GUINT64_FORMAT
				       " %7" G_GUINT64_FORMAT " %10.1f %10.1f"
				       " %4u\n", sa_esc(c->name),
				       c->active_objs,
				       c->object_size, KB(c->size),
				       KB(c->loss), c->eff);
	}
	g_ptr_array_unref(a);
}

static void slab(GString *out, const struct sa_snapshot_view *v, int top)
{
	const struct sa_slab_table *t = sa_view_slab(v);

	heading(out, "Slab caches");
	if (v->slab_proc) {
		g_string_append(out, "  /proc/slabinfo (as slabtop):\n");
		slab_totals(out, v->slab_proc);
	} else {
		missing(out, v, SA_SRC_SLABINFO);
	}
	if (!t) {
		missing(out, v, SA_SRC_SLAB_SYSFS);
		return;
	}
	g_string_append_printf(out,
		"  %s: space %.1fK, used %.1fK, Loss %.1fK\n"
		"  space = slabs * (PAGE_SIZE << order), Loss = space - objects"
		" * objsize,\n  eff = objects * objsize * 100 / space%s\n",
		t->origin == SA_SLAB_SYSFS ? "/sys/kernel/slab" :
		"/proc/slabinfo", KB(t->tot.space), KB(t->tot.used),
		KB(t->tot.loss), t->origin == SA_SLAB_SYSFS ?
		" (tools/mm/slabinfo)" : "\n  (objsize is the slot size here: "
		"padding is not counted as Loss)");
	slab_rank(out, t, SA_SLAB_BY_SIZE, top);
	slab_rank(out, t, SA_SLAB_BY_LOSS, top);
}

/* The index as the kernel's debugfs file shows it, after sep: ".193" */
static void put_milli(GString *out, const char *sep,
		      const struct sa_buddy_zone *z, int order)
{
	unsigned int m = sa_buddy_unusable_milli(z, order);

	if (m >= 1000)
		g_string_append_printf(out, "%s1.00", sep);
	else
		g_string_append_printf(out, "%s.%03u", sep, m);
}

static void fragmentation(GString *out, const struct sa_snapshot_view *v)
{
	guint i;
	int o, max = 0;

	heading(out, "Free memory by order: unusable free space index");
	if (missing(out, v, SA_SRC_BUDDYINFO))
		return;
	g_string_append(out, "  (free - free in blocks >= order) / free; "
			"1.000 = no block that large\n");
	for (i = 0; i < v->buddy->len; i++)
		max = MAX(max, g_array_index(v->buddy, struct sa_buddy_zone,
					     i).nr_orders);
	g_string_append_printf(out, "  %-12s %8s", "zone", "free kB");
	for (o = 0; o < max; o++)
		g_string_append_printf(out, " %4d", o);
	g_string_append_c(out, '\n');
	for (i = 0; i < v->buddy->len; i++) {
		const struct sa_buddy_zone *z = &g_array_index(v->buddy,
				struct sa_buddy_zone, i);
		char name[24];

		g_snprintf(name, sizeof(name), "%d/%s", z->node,
			   sa_esc(z->zone));
		g_string_append_printf(out, "  %-12s %8" G_GUINT64_FORMAT,
				       name, sa_buddy_free_pages(z) *
				       v->snap->page_size / 1024);
		for (o = 0; o < z->nr_orders; o++) {
			put_milli(out, " ", z, o);
		}
		g_string_append_c(out, '\n');
	}
}

static void zones(GString *out, const struct sa_snapshot_view *v)
{
	guint i;
	int t;

	heading(out, "Zones (pages)");
	if (!missing(out, v, SA_SRC_ZONEINFO)) {
		g_string_append_printf(out, "  %-12s %10s %8s %8s %8s %10s\n",
				       "zone", "free", "min", "low", "high",
				       "managed");
		for (i = 0; i < v->zones->len; i++) {
			const struct sa_zone_info *z = &g_array_index(v->zones,
					struct sa_zone_info, i);
			char name[24];

			if (!z->managed)
				continue;
			g_snprintf(name, sizeof(name), "%d/%s", z->node,
				   sa_esc(z->zone));
			g_string_append_printf(out, "  %-12s %10"
				G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %8"
				G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %10"
				G_GUINT64_FORMAT "%s\n", name, z->free, z->min,
				z->low, z->high, z->managed,
				z->free < z->low ? "  below low" : "");
		}
	}
	if (missing(out, v, SA_SRC_PAGETYPEINFO))
		return;
	g_string_append_printf(out, "  free pages by migratetype (pageblock "
			       "order %d):\n  %-12s", v->pagetype->pageblock_order,
			       "zone");
	for (t = 0; t < v->pagetype->nr_types && t < 5; t++)
		g_string_append_printf(out, " %11.11s", v->pagetype->types[t]);
	g_string_append_c(out, '\n');
	for (i = 0; i < v->pagetype->zones->len; i++) {
		const struct sa_pagetype_zone *z = &g_array_index(
				v->pagetype->zones, struct sa_pagetype_zone, i);
		char name[24];

		g_snprintf(name, sizeof(name), "%d/%s", z->node,
			   sa_esc(z->zone));
		g_string_append_printf(out, "  %-12s", name);
		for (t = 0; t < v->pagetype->nr_types && t < 5; t++)
			g_string_append_printf(out, " %11" G_GUINT64_FORMAT,
					       z->free_pages[t]);
		g_string_append_c(out, '\n');
	}
}

static void swap(GString *out, const struct sa_snapshot_view *v)
{
	guint i;

	heading(out, "Swap (as swapon --show)");
	if (missing(out, v, SA_SRC_SWAPS))
		return;
	if (!v->swaps->len) {
		g_string_append(out, "  no swap areas\n");
		return;
	}
	g_string_append_printf(out, "  %-32s %-9s %11s %11s %5s\n", "name",
			       "type", "size kB", "used kB", "prio");
	for (i = 0; i < v->swaps->len; i++) {
		const struct sa_swap_area *s = &g_array_index(v->swaps,
				struct sa_swap_area, i);

		g_string_append_printf(out, "  %-32.32s %-9.9s %11"
				       G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT
				       " %5d\n", sa_esc(s->name),
				       sa_esc(s->type),
				       s->size_kb,
				       s->used_kb, s->prio);
	}
	if (v->meminfo)
		g_string_append_printf(out, "  used %.1f%%, of it cached in "
				       "RAM %.1f%% (SwapCached)\n",
				       v->mem.swap_used_pct,
				       v->mem.swap_cached_pct);
}

static void psi_line(GString *out, const char *name,
		     const struct sa_psi_line *l)
{
	if (!l->present)
		return;
	g_string_append_printf(out, "  %-5s %6.2f %6.2f %6.2f %14"
			       G_GUINT64_FORMAT "\n", name, l->avg10,
			       l->avg60, l->avg300, l->total_us);
}

static void psi(GString *out, const struct sa_snapshot_view *v)
{
	heading(out, "Memory pressure (PSI, % of time stalled)");
	if (missing(out, v, SA_SRC_PSI))
		return;
	g_string_append_printf(out, "  %-5s %6s %6s %6s %14s\n", "", "10s",
			       "60s", "300s", "total us");
	psi_line(out, "some", &v->psi.some);
	psi_line(out, "full", &v->psi.full);
}

static void procs(GString *out, const struct sa_snapshot_view *v, int top)
{
	static const char *const names[] = { "RSS", "PSS" };
	int k;

	heading(out, "Processes (kB)");
	if (missing(out, v, SA_SRC_PROCS))
		return;
	for (k = SA_PROC_BY_RSS; k <= SA_PROC_BY_PSS; k++) {
		GPtrArray *a = sa_procs_sorted(v->procs, k);
		guint i;

		g_string_append_printf(out, "  by %s:\n  %7s %-20s %10s %10s"
				       " %10s\n", names[k], "pid", "name",
				       "rss", "pss", "swap");
		for (i = 0; i < a->len && (int)i < top; i++) {
			const struct sa_proc_mem *p = a->pdata[i];
			char pss[24], swp[24];

			if (p->pss_kb == SA_PROC_UNKNOWN)
				g_strlcpy(pss, "-", sizeof(pss));
			else
				g_snprintf(pss, sizeof(pss), "%"
					   G_GUINT64_FORMAT, p->pss_kb);
			if (p->swap_kb == SA_PROC_UNKNOWN)
				g_strlcpy(swp, "-", sizeof(swp));
			else
				g_snprintf(swp, sizeof(swp), "%"
					   G_GUINT64_FORMAT, p->swap_kb);
			g_string_append_printf(out, "  %7d %-20.20s %10"
					       G_GUINT64_FORMAT " %10s %10s\n",
					       p->pid, sa_esc(p->name),
					       p->rss_kb, pss,
					       swp);
		}
		g_ptr_array_unref(a);
	}
}

static void rates(GString *out, const struct sa_snapshot_view *v)
{
	guint i;

	heading(out, "Paging and reclaim rates (per second, as sar -B/-W)");
	if (!v->rates->len) {
		g_string_append(out, "  none: rates need --interval S "
				"--count N\n");
		return;
	}
	g_string_append_printf(out, "  %7s %8s %7s %8s %8s %8s %6s %7s %7s\n",
			       "at s", "fault", "majflt", "pgscank", "pgscand",
			       "pgsteal", "vmeff", "pswpin", "pswpout");
	for (i = 0; i < v->rates->len; i++) {
		const struct sa_vm_rates *r = &g_array_index(v->rates,
				struct sa_vm_rates, i);
		char eff[16];

		if (r->vmeff < 0)
			g_strlcpy(eff, "-", sizeof(eff));
		else
			g_snprintf(eff, sizeof(eff), "%.1f", r->vmeff);
		g_string_append_printf(out, "  %7.1f %8.1f %7.1f %8.1f %8.1f "
				       "%8.1f %6s %7.1f %7.1f\n", r->t1,
				       r->fault, r->majflt, r->pgscank,
				       r->pgscand, r->pgsteal, eff, r->pswpin,
				       r->pswpout);
	}
	g_string_append(out, "  vmeff % = 100 * pgsteal / (pgscank + pgscand); "
			"all in pages but the faults\n");
}

static void ooms(GString *out, const struct sa_snapshot_view *v)
{
	guint i;

	heading(out, "OOM kills (kernel log)");
	if (missing(out, v, SA_SRC_OOMLOG))
		return;
	if (v->vmstat && v->vm.have_oom_kill)
		g_string_append_printf(out, "  vmstat oom_kill: %"
				       G_GUINT64_FORMAT "\n", v->vm.oom_kill);
	if (!v->ooms->len) {
		g_string_append(out, "  none in the kernel log\n");
		return;
	}
	for (i = 0; i < v->ooms->len; i++) {
		const struct sa_oom_kill *k = &g_array_index(v->ooms,
				struct sa_oom_kill, i);

		g_string_append_printf(out, "  %10.3fs %s killed %d (%s)\n"
				       "    rss: anon %" G_GUINT64_FORMAT
				       " kB, file %" G_GUINT64_FORMAT
				       " kB, shmem %" G_GUINT64_FORMAT " kB\n",
				       k->time, k->memcg ? "memcg" : "global",
				       k->pid, sa_esc(k->comm), k->anon_rss_kb,
				       k->file_rss_kb, k->shmem_rss_kb);
		if (k->invoker)
			g_string_append_printf(out, "    invoked by %s, order "
					       "%d%s%s\n", sa_esc(k->invoker),
					       k->order,
					       k->constraint ? ", " : "",
					       k->constraint ?
					       sa_esc(k->constraint) : "");
		if (k->gfp_mask)
			g_string_append_printf(out, "    gfp %s\n",
					       sa_esc(k->gfp_mask));
	}
}

static void header(GString *out, const struct sa_snapshot_view *v)
{
	const struct sa_snapshot *s = v->snap;
	GDateTime *dt = g_date_time_new_from_unix_utc(s->wall_time /
						      G_USEC_PER_SEC);
	char *when = dt ? g_date_time_format(dt, "%Y-%m-%d %H:%M:%S UTC") :
		g_strdup("?");

	g_string_append_printf(out, "System snapshot of %s\n  taken %s, "
			       "uptime %.1f s\n", s->release ?
			       sa_esc(s->release) : "?", when, s->uptime);
	g_free(when);
	if (dt)
		g_date_time_unref(dt);
}

void sa_snapshot_emit_text(GString *out, const struct sa_snapshot_view *v,
			   const struct sa_snapshot_emit_opts *o)
{
	int top = o && o->top > 0 ? o->top : 10;

	header(out, v);
	memory(out, v);
	swap(out, v);
	slab(out, v, top);
	fragmentation(out, v);
	zones(out, v);
	psi(out, v);
	procs(out, v, top);
	rates(out, v);
	ooms(out, v);
}

void sa_snapshot_emit_system_text(GString *out, const char *title,
				  const struct sa_snapshot_view *v)
{
	const struct sa_slab_table *t = sa_view_slab(v);
	const struct sa_memfree *m = &v->mem;

	g_string_append_printf(out, "%s\n", title);
	if (v->meminfo)
		g_string_append_printf(out, "  memory  total %" G_GUINT64_FORMAT
			" kB, available %" G_GUINT64_FORMAT " kB, free %"
			G_GUINT64_FORMAT " kB\n          slab %" G_GUINT64_FORMAT
			" kB (unreclaimable %" G_GUINT64_FORMAT " kB), swap "
			"used %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			" kB\n", m->total, m->available, m->free, m->slab,
			m->sunreclaim, m->swap_used, m->swap_total);
	else
		g_string_append(out, "  memory  not available\n");
	if (t)
		g_string_append_printf(out, "  slab    %u caches, space %.1fK,"
				       " Loss %.1fK\n", t->tot.nr_caches,
				       KB(t->tot.space), KB(t->tot.loss));
	if (v->buddy) {
		guint i;

		g_string_append(out, "  unusable index, order 3/9:");
		for (i = 0; i < v->buddy->len; i++) {
			const struct sa_buddy_zone *z = &g_array_index(v->buddy,
					struct sa_buddy_zone, i);

			if (i && i % 3 == 0)
				g_string_append(out, "\n                            ");
			g_string_append_printf(out, "  %s", sa_esc(z->zone));
			put_milli(out, " ", z, 3);
			put_milli(out, "/", z, 9);
		}
		g_string_append_c(out, '\n');
	}
	if (sa_view_has(v, SA_SRC_PSI))
		g_string_append_printf(out, "  PSI     some %.2f%% full %.2f%% "
				       "(avg10)\n", v->psi.some.avg10,
				       v->psi.full.avg10);
	if (v->ooms)
		g_string_append_printf(out, "  OOM     %u kill%s in the log\n",
				       v->ooms->len, v->ooms->len == 1 ? "" :
				       "s");
}
