// SPDX-License-Identifier: GPL-2.0
/*
 * The RAM budget as text: a tree of owners with kB, % of RAM and the
 * source of each figure, under 80 columns.
 */
#include <string.h>

#include "emit/emit-budget.h"
#include "util/escape.h"
#include "util/units.h"

#define LABEL_W	29

static double pct(gint64 kb, gint64 ram)
{
	return ram ? 100.0 * kb / ram : 0;
}

static void row_line(GString *out, const struct sa_budget_row *r,
		     gint64 ram)
{
	char label[64];

	g_snprintf(label, sizeof(label), "%*s%s", 2 * r->depth, "",
		   r->label);
	g_string_append_printf(out, "%-*s %10" G_GINT64_FORMAT " %6.1f  %s\n",
			       LABEL_W, label, r->kb, pct(r->kb, ram),
			       r->source);
}

static void zones_text(GString *out, const struct sa_budget *b)
{
	guint i;
	int j;

	if (!b->zones->len)
		return;
	g_string_append(out, "\nFree pages per zone (zoneinfo; blocks per "
			"order from buddyinfo):\n");
	for (i = 0; i < b->zones->len; i++) {
		const struct sa_budget_zone *z = &g_array_index(b->zones,
				struct sa_budget_zone, i);

		g_string_append_printf(out, "  node %d %-8s free %"
				       G_GUINT64_FORMAT " pages, per-CPU %"
				       G_GUINT64_FORMAT ", managed %"
				       G_GUINT64_FORMAT "\n", z->node,
				       sa_esc(z->zone), z->free_pages,
				       z->pcp_pages, z->managed_pages);
		if (!z->nr_orders)
			continue;
		g_string_append(out, "    order 0..:");
		for (j = 0; j < z->nr_orders; j++)
			g_string_append_printf(out, " %" G_GUINT64_FORMAT,
					       z->nr_free[j]);
		g_string_append_c(out, '\n');
	}
}

void sa_budget_emit_text(GString *out, const struct sa_budget *b)
{
	gint64 res = 0, mem = 0;
	char h[16];
	guint i;

	sa_human(h, (guint64)b->ram_kb * 1024);
	g_string_append_printf(out, "RAM budget: %" G_GINT64_FORMAT " kB "
			       "(%s%s) from %s, pages of %" G_GUINT64_FORMAT
			       " KiB\n\n", b->ram_kb, h,
			       g_ascii_isalpha(h[strlen(h) - 1]) ? "iB" : " B",
			       b->ram_source, b->page_size / 1024);
	g_string_append_printf(out, "%-*s %10s %6s  %s\n", LABEL_W, "owner",
			       "kB", "%", "source");
	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		row_line(out, r, b->ram_kb);
		if (r->unexplained && g_str_has_prefix(r->key, "reserved"))
			res = r->kb;
		else if (r->unexplained)
			mem = r->kb;
	}
	g_string_append_printf(out, "\n%-*s %10" G_GINT64_FORMAT " %6.1f  "
			       "%s\n", LABEL_W, "unexplained", b->unexplained_kb,
			       pct(b->unexplained_kb, b->ram_kb),
			       "the two lines above");
	g_string_append_printf(out, "  = %" G_GINT64_FORMAT " kB reserved "
			       "at boot + %" G_GINT64_FORMAT " kB of the "
			       "page allocator%s\n", res, mem,
			       b->unexplained_kb < 0 ?
			       " (negative: counted twice)" : "");
	if (b->present_kb >= 0 && b->present_kb != b->ram_kb)
		g_string_append_printf(out, "  the zones' present pages are %"
				       G_GINT64_FORMAT " kB: %" G_GINT64_FORMAT
				       " kB of RAM the kernel did not keep\n",
				       b->present_kb,
				       b->ram_kb - b->present_kb);
	if (b->memblock_reserved_kb >= 0)
		g_string_append_printf(out, "  memblock's reserved ranges "
				       "(debugfs): %" G_GINT64_FORMAT " kB, "
				       "what was freed after boot included\n",
				       b->memblock_reserved_kb);
	zones_text(out, b);
	if (b->notes->len)
		g_string_append(out, "\nNotes:\n");
	for (i = 0; i < b->notes->len; i++)
		g_string_append_printf(out, "  %s\n",
				       sa_esc(b->notes->pdata[i]));
}
