// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline section (report/agg/timeline.c) in text, JSON and CSV.
 */
#include "report/agg/timeline.h"
#include "emit/emit.h"
#include "emit/emit-phases.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

/* ---- text ---- */

/* "-1.2M" right-aligned in width w */
static void put_signed(FILE *f, int w, gint64 v)
{
	char h[16], t[20];

	snprintf(t, sizeof(t), "%s%s", v < 0 ? "-" : "",
		 sa_human(h, v < 0 ? -(guint64)v : (guint64)v));
	fprintf(f, " %*s", w, t);
}

void sa_text_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_timeline_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== timeline (interval ");
	sa_text_put_secs(f, r->interval_ns);
	fprintf(f, " s) ==\n%14s %8s %8s %8s %9s %11s\n", "t_s", "alloc",
		"freed", "untraced", "net", "outstanding");
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *b = &g_array_index(r->bins,
							struct sa_bin, i);
		char t[32];

		snprintf(t, sizeof(t), "%" G_GUINT64_FORMAT ".%06"
			 G_GUINT64_FORMAT, b->start_ns / G_GUINT64_CONSTANT(1000000000),
			 (b->start_ns % G_GUINT64_CONSTANT(1000000000)) / G_GUINT64_CONSTANT(1000));
		fprintf(f, "%14s %8s %8s %8s", t, H(b->alloc_bytes),
			H(b->freed_bytes), H(b->untraced_bytes));
		put_signed(f, 9, b->net);
		put_signed(f, 11, b->outstanding);
		fputc('\n', f);
	}
	sa_text_phases(e, &r->phases);
}

/* ---- json ---- */

void sa_json_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result)
{
	const struct sa_timeline_result *r = result;
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "timeline");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "interval_ns", r->interval_ns);
	sa_json_put_uint(b, "t0_ns", r->t0_ns);
	json_builder_set_member_name(b, "bins");
	json_builder_begin_array(b);
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *x = &g_array_index(r->bins,
							struct sa_bin, i);

		json_builder_begin_object(b);
		sa_json_put_uint(b, "start_ns", x->start_ns);
		sa_json_put_uint(b, "allocs", x->allocs);
		sa_json_put_uint(b, "frees", x->frees);
		sa_json_put_uint(b, "alloc_bytes", x->alloc_bytes);
		sa_json_put_uint(b, "freed_bytes", x->freed_bytes);
		sa_json_put_uint(b, "untraced_frees", x->untraced);
		sa_json_put_uint(b, "untraced_bytes", x->untraced_bytes);
		sa_json_put_int(b, "net", x->net);
		sa_json_put_int(b, "outstanding", x->outstanding);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_phases(e, &r->phases);
	json_builder_end_object(b);
}

/* ---- csv ---- */

void sa_csv_timeline(struct sa_emit *e, const struct sa_report *rep,
		     const void *result)
{
	const struct sa_timeline_result *r = result;
	FILE *f = e->out;
	guint i;

	fprintf(f, "\ntimeline,start_ns,interval_ns,allocs,frees,alloc_bytes,"
		"freed_bytes,net,outstanding,untraced_frees,untraced_bytes\n");
	for (i = 0; i < r->bins->len; i++) {
		const struct sa_bin *b = &g_array_index(r->bins,
							struct sa_bin, i);

		fprintf(f, "timeline,%" U ",%" U ",%" U ",%" U ",%" U ",%" U
			",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" U ",%" U
			"\n", b->start_ns, r->interval_ns, b->allocs, b->frees,
			b->alloc_bytes, b->freed_bytes, b->net,
			b->outstanding, b->untraced, b->untraced_bytes);
	}
	sa_csv_phases(e, &r->phases);
}
