// SPDX-License-Identifier: GPL-2.0
/*
 * The RAM budget as CSV: one row per owner (section "owner"), then the
 * free pages per zone and per order (sections "zone", "order").
 */
#include "emit/emit-budget.h"
#include "emit/snapshot-emit.h"

static void num_row(GString *out, const char *section, const char *key,
		    const char *label, int depth, gint64 kb, gint64 ram,
		    bool leaf, const char *source)
{
	char p[32];

	g_ascii_formatd(p, sizeof(p), "%.2f", ram ? 100.0 * kb / ram : 0);
	sa_csv_cell(out, section);
	g_string_append_c(out, ',');
	sa_csv_cell(out, key);
	g_string_append_c(out, ',');
	sa_csv_cell(out, label);
	g_string_append_printf(out, ",%d,%" G_GINT64_FORMAT ",%s,%d,", depth,
			       kb, p, leaf);
	sa_csv_cell(out, source);
	g_string_append_c(out, '\n');
}

void sa_budget_emit_csv(GString *out, const struct sa_budget *b)
{
	guint64 pk = b->page_size / 1024;
	guint i;
	int o;

	g_string_append(out, "section,key,label,depth,kb,pct,leaf,source\n");
	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		num_row(out, "owner", r->key, r->label, r->depth, r->kb,
			b->ram_kb, r->leaf, r->source);
	}
	num_row(out, "total", "unexplained", "unexplained", 0,
		b->unexplained_kb, b->ram_kb, false, "the unexplained leaves");
	for (i = 0; i < b->zones->len; i++) {
		const struct sa_budget_zone *z = &g_array_index(b->zones,
				struct sa_budget_zone, i);
		char *key = g_strdup_printf("%d.%s", z->node, z->zone);

		num_row(out, "zone", key, "free", 0, z->free_pages * pk,
			b->ram_kb, false, "zoneinfo pages free");
		num_row(out, "zone", key, "per-CPU lists", 0,
			z->pcp_pages * pk, b->ram_kb, false,
			"zoneinfo pagesets count");
		for (o = 0; o < z->nr_orders; o++) {
			char *ok = g_strdup_printf("%s.%d", key, o);
			char *lb = g_strdup_printf("%" G_GUINT64_FORMAT
						   " blocks", z->nr_free[o]);

			num_row(out, "order", ok, lb, 0,
				(z->nr_free[o] << o) * pk, b->ram_kb, false,
				"buddyinfo");
			g_free(ok);
			g_free(lb);
		}
		g_free(key);
	}
}
