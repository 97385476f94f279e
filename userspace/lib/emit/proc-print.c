// SPDX-License-Identifier: GPL-2.0
/*
 * A /proc/slab_account or /proc/allocinfo snapshot printed back as it
 * is (emit/proc-print.h), for the account command.
 */
#include <string.h>

#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "emit/emit.h"
#include "emit/proc-print.h"
#include "util/json.h"
#include "util/units.h"

#define H(v) sa_human((char[16]){ 0 }, (v))

static void add_orders(JsonBuilder *b, const char *k, const guint64 *v,
		       unsigned int n)
{
	unsigned int i;

	json_builder_set_member_name(b, k);
	json_builder_begin_array(b);
	for (i = 0; i < n; i++)
		json_builder_add_int_value(b, (gint64)v[i]);
	json_builder_end_array(b);
}

/*
 * The keys of uapi/slab_account.h's tables, by type and group: a group a
 * file may not have is null (kmalloc_repeats) or absent (slow_*) when the
 * file had none; unattributed is not in the JSON (yet).
 */
#define JSON_U64(name)		sa_json_put_uint(b, #name, a->name);
#define JSON_S64(name)		sa_json_put_int(b, #name, a->name);
#define JSON_WORD(name)		sa_json_put_str(b, #name, a->name);
#define JSON_SLOT(name) \
	sa_json_put_bool(b, "cache_slot_exact", a->cache_slot_exact);
#define JSON_REQUIRED(name, type)	JSON_##type(name)
#define JSON_REPEATS(name, type) \
	json_builder_set_member_name(b, #name); \
	if (a->kmalloc_repeats_known) \
		json_builder_add_int_value(b, (gint64)a->name); \
	else \
		json_builder_add_null_value(b);
#define JSON_UNATTRIBUTED(name, type)
#define JSON_SLOW(name, type) \
	if (a->slow_known) \
		JSON_##type(name)
#define JSON_KEY(name, type, since, group)	JSON_##group(name, type)
#define JSON_KIND_KEY(name, type, since, group, k) \
	sa_json_put_uint(b, #name, a->kind[k].name);
#define JSON_ORDERS(name, type, since, group) \
	add_orders(b, #name, a->name, a->n_orders);

int sa_account_print_json(FILE *f, const struct sa_account *a)
{
	JsonBuilder *b = json_builder_new();
	size_t i;
	int k, ret;

	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_int(b, "format_version", a->version);
	SLAB_ACCOUNT_KEYS(JSON_KEY)
	json_builder_set_member_name(b, "kinds");
	json_builder_begin_object(b);
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++) {
		json_builder_set_member_name(b, sa_account_kind_name(k));
		json_builder_begin_object(b);
		SLAB_ACCOUNT_KIND_KEYS(JSON_KIND_KEY, k)
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	SLAB_ACCOUNT_ORDER_KEYS(JSON_ORDERS)
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *r = &a->rows[i];

		json_builder_begin_object(b);
		sa_json_put_uint(b, "total", r->total);
		sa_json_put_uint(b, "slack", r->slack);
		sa_json_put_uint(b, "req", r->req);
		sa_json_put_int(b, "live", r->live);
		sa_json_put_int(b, "objs", r->objs);
		sa_json_put_uint(b, "allocs", r->allocs);
		sa_json_put_uint(b, "frees", r->frees);
		sa_json_put_str(b, "kind", sa_account_kind_name(r->kind));
		sa_json_put_str(b, "caller", r->caller);
		if (r->via)
			sa_json_put_str(b, "via", r->via);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);

	ret = sa_json_print(b, f, true);
	g_object_unref(b);
	return ret;
}

int sa_account_print_text(FILE *out, const struct sa_account *a)
{
	struct sa_emit e = { .fmt = SA_FMT_TEXT, .width = 80, .out = out };
	struct sa_account_head h;
	struct sa_text_buf tb;
	size_t i;
	FILE *f;
	int k;

	if (sa_text_begin(&e, &tb))
		return -1;
	f = e.out;
	sa_account_head_of(a, &h);
	fprintf(f, "/proc/slab_account, format %d: %" G_GUINT64_FORMAT
		" allocs, %" G_GUINT64_FORMAT " frees, %" G_GUINT64_FORMAT
		" callers\n", a->version, a->allocs, a->frees, a->callers);
	fprintf(f, "bytes: %" G_GUINT64_FORMAT " allocated, %"
		G_GUINT64_FORMAT " requested, %" G_GUINT64_FORMAT " slack\n",
		a->bytes_alloc, a->bytes_req, a->slack);
	fprintf(f, "live: %" G_GINT64_FORMAT " bytes in %" G_GINT64_FORMAT
		" objects\n", a->live_bytes, a->live_objects);
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++)
		fprintf(f, "%-8s %" G_GUINT64_FORMAT " allocs, %"
			G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
			" slack\n", sa_account_kind_name(k), a->kind[k].allocs,
			a->kind[k].bytes_alloc, a->kind[k].slack);
	/* table sizes and what the module could not account */
	sa_text_account_head(f, "", &h);
	fprintf(f, "%6s %6s %6s %6s %11s %-5s %s\n", "total", "slack",
		"live", "objs", "alloc/free", "kind", "caller");
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *r = &a->rows[i];
		char af[48], *caller = g_strdup(r->caller), *sz;

		/*
		 * "func+0x31/0x60 [mod]", or two of them around " <- ": the
		 * functions' sizes are not shown
		 */
		for (sz = strchr(caller, '/'); sz; sz = strchr(sz, '/')) {
			char *end = sz + strcspn(sz, " ");

			memmove(sz, end, strlen(end) + 1);
		}
		snprintf(af, sizeof(af), "%" G_GUINT64_FORMAT "/%"
			 G_GUINT64_FORMAT, r->allocs, r->frees);
		fprintf(f, "%6s %6s %6s %6" G_GINT64_FORMAT " %11s %-5s ",
			H(r->total), H(r->slack), H(r->live > 0 ? r->live : 0),
			r->objs > 0 ? r->objs : 0, af,
			r->kind == SA_ACCOUNT_CACHE ? "cache" : "kmall");
		sa_text_tail_name(&e, 46, caller);
		g_free(caller);
	}
	return sa_text_end(&e, &tb);
}

int sa_allocinfo_print_json(FILE *f, const struct sa_allocinfo *ai)
{
	JsonBuilder *b = json_builder_new();
	char *v = g_strdup_printf("%u.%u", ai->major, ai->minor);
	size_t i;
	int ret;

	json_builder_begin_object(b);
	sa_json_put_int(b, "schema_version", SA_JSON_SCHEMA_VERSION);
	sa_json_put_str(b, "input", "/proc/allocinfo");
	sa_json_put_str(b, "format_version", v);
	sa_json_put_uint(b, "tags", ai->n_rows);
	sa_json_put_uint(b, "live_tags", ai->n_live);
	sa_json_put_uint(b, "inaccurate", ai->n_inaccurate);
	sa_json_put_int(b, "live_bytes", ai->bytes);
	sa_json_put_int(b, "live", ai->calls);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];

		json_builder_begin_object(b);
		sa_json_put_int(b, "bytes", r->bytes);
		sa_json_put_int(b, "calls", r->calls);
		sa_json_put_str(b, "file", r->file);
		sa_json_put_int(b, "line", r->line);
		sa_json_put_str(b, "module", r->module);
		sa_json_put_str(b, "function", r->function);
		sa_json_put_bool(b, "accurate", !r->inaccurate);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	ret = sa_json_print(b, f, true);
	g_object_unref(b);
	g_free(v);
	return ret;
}

int sa_allocinfo_print_text(FILE *out, const struct sa_allocinfo *ai)
{
	struct sa_emit e = { .fmt = SA_FMT_TEXT, .width = 80, .out = out };
	struct sa_text_buf tb;
	size_t i;
	FILE *f;

	if (sa_text_begin(&e, &tb))
		return -1;
	f = e.out;
	fprintf(f, "/proc/allocinfo, format %u.%u: %zu allocation sites, %zu "
		"with live allocations, %zu marked inaccurate\n", ai->major,
		ai->minor, ai->n_rows, ai->n_live, ai->n_inaccurate);
	fprintf(f, "live: %" G_GINT64_FORMAT " bytes in %" G_GINT64_FORMAT
		" allocations\n", ai->bytes, ai->calls);
	fprintf(f, "%7s %9s %s\n", "live_b", "calls", "site");
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];
		char *site;

		if (!r->bytes && !r->calls)
			continue;
		site = r->module ? g_strdup_printf("%s [%s]", r->function,
						   r->module) :
			g_strdup(r->function);
		fprintf(f, "%7s %9" G_GINT64_FORMAT " ",
			H(r->bytes > 0 ? r->bytes : 0), r->calls);
		sa_text_tail_name(&e, 18, site);
		sa_text_where(&e, 8, r->file, r->line);
		if (r->inaccurate)
			fprintf(f, "        accurate: no\n");
		g_free(site);
	}
	return sa_text_end(&e, &tb);
}
