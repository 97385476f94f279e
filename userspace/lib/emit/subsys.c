// SPDX-License-Identifier: GPL-2.0
/*
 * The subsys section (report/agg/subsys.c) in text, JSON and CSV.
 */
#include <string.h>

#include "report/agg/subsys.h"
#include "emit/emit.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

/* ---- text ---- */

void sa_text_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_subsys_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== subsystems (from %s", sa_esc(r->source));
	if (r->depth)
		fprintf(f, ", depth %d", r->depth);
	fprintf(f, ") ==\n%7s %7s %7s %7s %5s %s\n", "alloc", "slack",
		"allocs", "live_b", "sites", "subsystem");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		fprintf(f, "%7s %7s %7" G_GUINT64_FORMAT " %7s %5"
			G_GUINT64_FORMAT " ", H(s->bytes_alloc), H(s->slack),
			s->allocs, H(s->live_alloc), s->sites);
		sa_text_tail_name(e, 42, s->name);
	}
	if (!r->wrappers->len)
		return;
	fprintf(f, "\nallocation wrappers (their callers are hidden):\n");
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		fprintf(f, "%7s %7" G_GUINT64_FORMAT " %s\n",
			H(w->bytes_alloc), w->allocs, sa_esc(w->func));
	}
	fprintf(f, "# %s\n", ((struct sa_wrapper_row *)
			      r->wrappers->data)->hint);
}

/* ---- json ---- */

void sa_json_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result)
{
	const struct sa_subsys_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "subsys");
	json_builder_begin_object(b);
	sa_json_put_str(b, "source", r->source);
	sa_json_put_int(b, "depth", r->depth);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "subsystem", s->name);
		sa_json_put_uint(b, "sites", s->sites);
		sa_json_put_uint(b, "allocs", s->allocs);
		sa_json_put_uint(b, "bytes_alloc", s->bytes_alloc);
		sa_json_put_uint(b, "bytes_req", s->bytes_req);
		sa_json_put_uint(b, "slack", s->slack);
		sa_json_put_uint(b, "live_bytes", s->live_alloc);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "wrappers");
	json_builder_begin_array(b);
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "function", w->func);
		sa_json_put_uint(b, "sites", w->sites);
		sa_json_put_uint(b, "allocs", w->allocs);
		sa_json_put_uint(b, "bytes_alloc", w->bytes_alloc);
		sa_json_put_str(b, "hint", w->hint);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* ---- csv ---- */

void sa_csv_subsys(struct sa_emit *e, const struct sa_report *rep,
		   const void *result)
{
	const struct sa_subsys_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\nsubsys,subsystem,source,sites,allocs,bytes_alloc,"
		"bytes_req,slack,live_bytes\n");
	for (i = 0; i < r->rows->len; i++) {
		const struct sa_subsys_row *s =
			&g_array_index(r->rows, struct sa_subsys_row, i);

		fputs("subsys,", f);
		sa_csv_str(f, s->name);
		fputc(',', f);
		sa_csv_str(f, r->source);
		fprintf(f, ",%" U ",%" U ",%" U ",%" U ",%" U ",%" U "\n",
			s->sites, s->allocs, s->bytes_alloc,
			s->bytes_req, s->slack, s->live_alloc);
	}
	fprintf(f, "\nwrapper,function,sites,allocs,bytes_alloc\n");
	for (i = 0; i < r->wrappers->len; i++) {
		const struct sa_wrapper_row *w =
			&g_array_index(r->wrappers, struct sa_wrapper_row, i);

		fputs("wrapper,", f);
		sa_csv_str(f, w->func);
		fprintf(f, ",%" U ",%" U ",%" U "\n", w->sites, w->allocs,
			w->bytes_alloc);
	}
}
