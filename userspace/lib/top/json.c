// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct top's view as JSON (see top/top.h), one object per refresh:
 *
 *   {"schema_version": 1, "source": "...", "sort": "rate",
 *    "sample": 2, "interval_ms": 1000,
 *    "lost": {"interval": 0, "total": 0},
 *    "totals": {"sites": 64, "allocs_per_s": ..., "bytes_per_s": ...,
 *               "slack": ..., "live_bytes": ...},
 *    "sites": [{"kind": "cache", "site": "vm_area_dup+0x1e",
 *               "allocs": ..., "frees": ..., "bytes_alloc": ...,
 *               "bytes_req": ..., "slack": ..., "live": ...,
 *               "live_bytes": ..., "allocs_per_s": ...,
 *               "bytes_per_s": ...}, ...]}
 *
 * Counts are since the source started counting; rates (whole numbers per
 * second) are over the last interval, 0 in the first sample; lost.interval
 * is what the source lost in that interval, lost.total since its start.
 */
#include "util/json.h"
#include "top/top.h"

/* A rate, per second: rounded to a whole number, as the view shows it */
static void put_rate(JsonBuilder *b, const char *k, double v)
{
	sa_json_put_int(b, k, (gint64)(v + 0.5));
}

static void put_row(JsonBuilder *b, const struct sa_top_row *r)
{
	json_builder_begin_object(b);
	sa_json_put_str(b, "kind", r->kind);
	sa_json_put_str(b, "site", r->site);
	sa_json_put_uint(b, "allocs", r->allocs);
	sa_json_put_uint(b, "frees", r->frees);
	sa_json_put_uint(b, "bytes_alloc", r->bytes_alloc);
	sa_json_put_uint(b, "bytes_req", r->bytes_req);
	sa_json_put_uint(b, "slack", r->slack);
	sa_json_put_int(b, "live", r->live);
	sa_json_put_int(b, "live_bytes", r->live_bytes);
	put_rate(b, "allocs_per_s", r->alloc_rate);
	put_rate(b, "bytes_per_s", r->byte_rate);
	json_builder_end_object(b);
}

char *sa_top_json(const struct sa_top *t, int max_rows)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *g;
	JsonNode *root;
	char *s;
	guint i;

	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "source", t->src->desc);
	sa_json_put_str(b, "sort", sa_top_sort_name(t->sort));
	sa_json_put_uint(b, "sample", t->samples);
	sa_json_put_int(b, "interval_ms",
			(gint64)(t->interval_s * 1000 + 0.5));
	json_builder_set_member_name(b, "lost");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "interval", t->lost_interval);
	sa_json_put_uint(b, "total", t->lost);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	sa_json_put_int(b, "sites", t->rows->len);
	put_rate(b, "allocs_per_s", t->alloc_rate);
	put_rate(b, "bytes_per_s", t->byte_rate);
	sa_json_put_uint(b, "slack", t->slack);
	sa_json_put_int(b, "live_bytes", t->live_bytes);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "sites");
	json_builder_begin_array(b);
	for (i = 0; i < t->rows->len && (!max_rows || (int)i < max_rows); i++)
		put_row(b, t->rows->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);

	root = json_builder_get_root(b);
	g = json_generator_new();
	json_generator_set_root(g, root);
	s = json_generator_to_data(g, NULL);
	g_object_unref(g);
	json_node_unref(root);
	g_object_unref(b);
	return s;
}
