// SPDX-License-Identifier: GPL-2.0
/*
 * The live section (report/agg/live.c) in text, JSON and CSV: the sites
 * with objects still allocated at the end, in the call-site row of each
 * format (emit/emit-callsite.h).
 */
#include <string.h>

#include "report/agg/live.h"
#include "emit/emit.h"
#include "emit/emit-callsite.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

/* ---- text ---- */

void sa_text_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_live_result *r = result;
	FILE *f = e->out;
	guint i;
	int b;

	fprintf(f, "\n== live at the end of the trace ==\n");
	fprintf(f, "# %" G_GUINT64_FORMAT " objects, %s (waste %s, frag "
		"%.1f%%) at %" G_GUINT64_FORMAT " sites\n", r->total.live,
		H(r->total.live_alloc), H(r->total.live_waste),
		r->total.live_frag, r->total.sites);
	if (r->freed_untraced)
		fprintf(f, "# not live: %" G_GUINT64_FORMAT " objects freed "
			"without a trace event\n", r->freed_untraced);
	fprintf(f, "# by age:");
	for (b = 0; b < SA_AGE_BUCKETS; b++)
		fprintf(f, " %s %" G_GUINT64_FORMAT, sa_age_label(b),
			r->age[b]);
	fprintf(f, "\n%7s %7s %6s %6s %6s %6s %6s %s\n", "live_b", "objs",
		"<10ms", "<1s", "<10s", ">=10s", "kind", "site");
	for (i = 0; i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		fprintf(f, "%7s %7" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
			" %6" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT " %6"
			G_GUINT64_FORMAT " %6s ", H(s->live_alloc), s->live,
			s->age[0] + s->age[1], s->age[2] + s->age[3], s->age[4],
			s->age[5], s->kind == SA_KIND_KMALLOC ? "kmall" :
			"cache");
		sa_text_tail_name(e, 55, s->sym);
		sa_text_where(e, 8, s->file, s->line);
	}
	if (r->sites_hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more sites left out "
			"(--top)\n", r->sites_hidden);
	if (!r->objects)
		return;
	fprintf(f, "\n%18s %6s %11s %7s %-15s %s\n", "ptr", "bytes",
		"age_s", "pid", "comm", "site");
	for (i = 0; i < r->objects->len; i++) {
		const struct sa_live_row *o = &g_array_index(r->objects,
							     struct sa_live_row,
							     i);

		fprintf(f, "%#18" G_GINT64_MODIFIER "x %6u ", o->ptr,
			o->bytes_alloc);
		sa_text_put_secs(f, o->age_ns);
		fprintf(f, " %7d %-15.15s ", o->pid, sa_esc(o->comm));
		sa_text_tail_name(e, 62, o->site->sym);
	}
	if (r->objects_hidden)
		fprintf(f, "# %" G_GUINT64_FORMAT " more objects left out "
			"(--top)\n", r->objects_hidden);
}

/* ---- json ---- */

void sa_json_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result)
{
	const struct sa_live_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;
	int k;

	json_builder_set_member_name(b, "live");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	sa_json_totals(b, &r->total);
	sa_json_put_uint(b, "freed_untraced", r->freed_untraced);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "age");
	json_builder_begin_object(b);
	for (k = 0; k < SA_AGE_BUCKETS; k++)
		sa_json_put_uint(b, sa_age_label(k), r->age[k]);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->sites->len; i++)
		sa_json_site(b, r->sites->pdata[i], false);
	json_builder_end_array(b);
	sa_json_put_uint(b, "rows_hidden", r->sites_hidden);
	if (r->objects)
		sa_json_put_uint(b, "objects_hidden", r->objects_hidden);
	if (r->objects) {
		json_builder_set_member_name(b, "objects");
		json_builder_begin_array(b);
		for (i = 0; i < r->objects->len; i++) {
			const struct sa_live_row *o =
				&g_array_index(r->objects, struct sa_live_row,
					       i);
			char *p = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
						  o->ptr);

			json_builder_begin_object(b);
			sa_json_put_str(b, "ptr", p);
			sa_json_put_int(b, "bytes_alloc", o->bytes_alloc);
			sa_json_put_int(b, "bytes_req", o->bytes_req);
			sa_json_put_uint(b, "age_ns", o->age_ns);
			sa_json_put_int(b, "pid", o->pid);
			sa_json_put_str(b, "comm", o->comm);
			sa_json_put_str(b, "site", o->site->sym);
			json_builder_end_object(b);
			g_free(p);
		}
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
}

/* ---- csv ---- */

void sa_csv_live(struct sa_emit *e, const struct sa_report *rep,
		 const void *result)
{
	const struct sa_live_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\nlive,%s\n", site_cols);
	for (i = 0; i < r->sites->len; i++)
		sa_csv_site_row(f, "live", r->sites->pdata[i], 0);
	if (!r->objects)
		return;
	fprintf(f, "\nlive_object,ptr,bytes_alloc,bytes_req,age_ns,pid,comm,"
		"site\n");
	for (i = 0; i < r->objects->len; i++) {
		const struct sa_live_row *o = &g_array_index(r->objects,
							     struct sa_live_row,
							     i);

		fprintf(f, "live_object,0x%" G_GINT64_MODIFIER "x,%u,%u,%" U
			",%d,", o->ptr, o->bytes_alloc, o->bytes_req,
			o->age_ns, o->pid);
		sa_csv_str(f, o->comm);
		fputc(',', f);
		sa_csv_str(f, o->site->sym);
		fputc('\n', f);
	}
}
