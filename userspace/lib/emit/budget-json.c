// SPDX-License-Identifier: GPL-2.0
/*
 * The RAM budget as JSON (json-glib).
 */
#include "emit/emit-budget.h"
#include "util/json.h"

static double pct(gint64 kb, gint64 ram)
{
	return ram ? 100.0 * kb / ram : 0;
}

static void put_known(JsonBuilder *j, const char *k, gint64 v)
{
	json_builder_set_member_name(j, k);
	if (v < 0)
		json_builder_add_null_value(j);
	else
		json_builder_add_int_value(j, v);
}

static void owners(JsonBuilder *j, const struct sa_budget *b)
{
	guint i;

	json_builder_set_member_name(j, "owners");
	json_builder_begin_array(j);
	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		json_builder_begin_object(j);
		sa_json_put_str(j, "key", r->key);
		sa_json_put_str(j, "label", r->label);
		sa_json_put_int(j, "depth", r->depth);
		sa_json_put_int(j, "kb", r->kb);
		sa_json_put_pct(j, "pct", pct(r->kb, b->ram_kb));
		sa_json_put_bool(j, "leaf", r->leaf);
		sa_json_put_bool(j, "unexplained", r->unexplained);
		sa_json_put_str(j, "source", r->source);
		json_builder_end_object(j);
	}
	json_builder_end_array(j);
}

static void zones(JsonBuilder *j, const struct sa_budget *b)
{
	guint i;
	int o;

	json_builder_set_member_name(j, "zones");
	json_builder_begin_array(j);
	for (i = 0; i < b->zones->len; i++) {
		const struct sa_budget_zone *z = &g_array_index(b->zones,
				struct sa_budget_zone, i);

		json_builder_begin_object(j);
		sa_json_put_int(j, "node", z->node);
		sa_json_put_str(j, "zone", z->zone);
		sa_json_put_uint(j, "free_pages", z->free_pages);
		sa_json_put_uint(j, "pcp_pages", z->pcp_pages);
		sa_json_put_uint(j, "managed_pages", z->managed_pages);
		sa_json_put_uint(j, "present_pages", z->present_pages);
		json_builder_set_member_name(j, "free_blocks");
		json_builder_begin_array(j);
		for (o = 0; o < z->nr_orders; o++)
			sa_json_add_uint(j, z->nr_free[o]);
		json_builder_end_array(j);
		json_builder_end_object(j);
	}
	json_builder_end_array(j);
}

JsonNode *sa_budget_to_json(const struct sa_budget *b,
			    const struct sa_budget_input *in)
{
	JsonBuilder *j = json_builder_new();
	JsonNode *n;
	guint i;

	json_builder_begin_object(j);
	sa_json_put_int(j, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(j, "kind", "slabacct-budget");
	sa_json_put_uint(j, "page_size", b->page_size);
	sa_json_put_int(j, "ram_kb", b->ram_kb);
	sa_json_put_str(j, "ram_source", b->ram_source);
	sa_json_put_int(j, "unexplained_kb", b->unexplained_kb);
	sa_json_put_pct(j, "unexplained_pct", pct(b->unexplained_kb,
						  b->ram_kb));
	owners(j, b);
	zones(j, b);
	json_builder_set_member_name(j, "cross_checks");
	json_builder_begin_object(j);
	put_known(j, "iomem_kb", b->iomem_kb);
	put_known(j, "memmap_kb", b->memmap_kb);
	put_known(j, "devicetree_kb", b->devicetree_kb);
	put_known(j, "zoneinfo_present_kb", b->present_kb);
	put_known(j, "dmesg_present_kb", b->dmesg_present_kb);
	put_known(j, "memblock_reserved_kb", b->memblock_reserved_kb);
	json_builder_end_object(j);
	json_builder_set_member_name(j, "notes");
	json_builder_begin_array(j);
	for (i = 0; i < b->notes->len; i++)
		json_builder_add_string_value(j, b->notes->pdata[i]);
	json_builder_end_array(j);
	if (in) {
		json_builder_set_member_name(j, "raw");
		json_builder_begin_object(j);
		for (i = 0; i < SA_BSRC_NR; i++)
			sa_json_put_str(j, sa_budget_source_name(i),
					in->text[i]);
		json_builder_end_object(j);
	}
	json_builder_end_object(j);
	n = json_builder_get_root(j);
	g_object_unref(j);
	return n;
}
