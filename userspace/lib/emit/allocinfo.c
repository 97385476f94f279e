// SPDX-License-Identifier: GPL-2.0
/*
 * The call-site section of a /proc/allocinfo input, in text, JSON and
 * CSV: per allocation site its live bytes and live allocations, its
 * function, module and file:line, and nothing a snapshot of the kernel's
 * allocation profiling does not have (report/allocinfo.c). The other
 * writers of the section hand allocinfo rows over to these.
 */
#include "report/agg/callsite.h"
#include "emit/emit.h"
#include "emit/emit-allocinfo.h"

#define U G_GUINT64_FORMAT
#define H(v) sa_human((char[16]){ 0 }, (v))

void sa_text_allocinfo_sites(struct sa_emit *e,
			     const struct sa_callsite_result *r)
{
	const struct sa_totals *t = &r->total[SA_KIND_KMALLOC];
	FILE *f = e->out;
	guint i;

	fprintf(f, "\n== call sites (/proc/allocinfo: live now, every "
		"allocator) ==\n");
	fprintf(f, "# live %s in %" U " allocations at %" U " sites\n",
		H(t->live_alloc), t->live, t->sites);
	fprintf(f, "%7s %9s %s\n", "live_b", "calls", "site");
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		fprintf(f, "%7s %9" U " ", H(s->live_alloc), s->live);
		sa_text_tail_name(e, 18, s->sym);
		sa_text_where(e, 8, s->file, s->line);
		if (s->inaccurate)
			fprintf(f, "        accurate: no (the kernel missed "
				"some allocations)\n");
	}
	if (r->hidden)
		fprintf(f, "# %" U " more rows left out (--top/--min-bytes)\n",
			r->hidden);
}

void sa_json_allocinfo_sites(struct sa_emit *e,
			     const struct sa_callsite_result *r)
{
	const struct sa_totals *t = &r->total[SA_KIND_KMALLOC];
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "callsite");
	json_builder_begin_object(b);
	sa_json_put_str(b, "by", "allocinfo");
	json_builder_set_member_name(b, "totals");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "any");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "sites", t->sites);
	sa_json_put_uint(b, "live", t->live);
	sa_json_put_uint(b, "live_bytes", t->live_alloc);
	json_builder_end_object(b);
	json_builder_end_object(b);
	sa_json_put_uint(b, "rows_hidden", r->hidden);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		json_builder_begin_object(b);
		sa_json_put_str(b, "kind", "any");
		sa_json_put_str(b, "site", s->sym);
		sa_json_put_str(b, "function", s->func);
		sa_json_put_str(b, "module", s->module);
		sa_json_put_str(b, "file", s->file);
		sa_json_put_int(b, "line", s->line);
		sa_json_put_uint(b, "live", s->live);
		sa_json_put_uint(b, "live_bytes", s->live_alloc);
		json_builder_set_member_name(b, "accurate");
		json_builder_add_boolean_value(b, !s->inaccurate);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void sa_csv_allocinfo_sites(struct sa_emit *e, const char *site_cols,
			    const struct sa_callsite_result *r)
{
	const struct sa_totals *t = &r->total[SA_KIND_KMALLOC];
	FILE *f = e->out;
	guint i;
	int k;

	/* the tables of a trace's report, what allocinfo lacks left empty */
	fprintf(f, "\ncallsite_totals,kind,sites,allocs,frees,bytes_alloc,"
		"bytes_req,slack,frag_pct,live,live_bytes,live_waste,"
		"pingpong,unmatched_frees,null_frees,reused_without_free\n");
	fprintf(f, "callsite_totals,any,%" U ",,,,,,,%" U ",%" U ",,,,,\n",
		t->sites, t->live, t->live_alloc);
	fprintf(f, "\ncallsite,%s\n", site_cols);
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		fputs("callsite,any,", f);
		sa_csv_str(f, s->sym);
		fputs(",,", f);
		sa_csv_str(f, s->func);
		fputc(',', f);
		sa_csv_str(f, s->module);
		/* cache, allocs ... frag_pct */
		fputs(",,,,,,,", f);
		fprintf(f, ",%" U ",%" U, s->live, s->live_alloc);
		/* live_req ... freed_untraced */
		for (k = 0; k < 5 + SA_AGE_BUCKETS + 1; k++)
			fputc(',', f);
		fputc(',', f);
		sa_csv_str(f, s->file);
		fprintf(f, ",%d\n", s->line);
	}
}
