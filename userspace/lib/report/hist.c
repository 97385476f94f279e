// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report of a saved hist file (procfs/hist.h): the kernel's
 * histograms of kmem:kmalloc and kmem:kmem_cache_alloc keyed by call site
 * (`slabacct boot cmdline --hist`), counted in the kernel from the moment
 * the trigger was set. They become the call-site rows, allocations and
 * bytes only, so the same emitters format them; the histograms' Dropped
 * (an event that found the map full) is the report's lost events.
 *
 * Which histograms count: those with bytes_alloc among their values (the
 * hit counts and bytes of each site); if none has it, those with
 * bytes_req. bytes_req, where a histogram has it, fills the rows'
 * requested bytes. A histogram keyed by anything but call_site is
 * refused; one with neither value (a free's) is left out with a note.
 */
#include <string.h>

#include "procfs/hist.h"
#include "report/counted.h"

struct sa_report *sa_report_from_hist(const char *path,
				      const struct sa_report_opts *opts,
				      GError **err)
{
	struct sa_callsite_result *res;
	struct sa_report *rep;
	struct sa_hist *h;
	GHashTable *by_key;
	bool any_alloc = false, has_req = false, counts;
	guint64 dropped = 0, hits = 0;
	guint i, skipped = 0, used = 0;

	h = sa_hist_load(path, err);
	if (!h)
		return NULL;
	for (i = 0; i < h->sections->len; i++) {
		const struct sa_hist_section *sec = &g_array_index(
			h->sections, struct sa_hist_section, i);

		if (strcmp(sec->key, "call_site")) {
			g_set_error(err, SA_HIST_ERROR, SA_HIST_ERROR_FORMAT,
				    "%s: histogram %u is keyed by %s, not "
				    "call_site: not one of `slabacct boot "
				    "cmdline --hist`", path, i + 1, sec->key);
			sa_hist_free(h);
			return NULL;
		}
		any_alloc |= sec->has_alloc;
		has_req |= sec->has_req;
		dropped = sa_counted_add(dropped, sec->dropped);
	}
	rep = sa_counted_report_new(path, opts, &res);
	rep->hist = h;
	/* the histograms' Dropped is what every format shows as lost */
	rep->origin.lost_known = true;
	rep->origin.lost_total = dropped;
	rep->origin.recorder = g_strdup("the kernel's hist triggers "
					"(events/kmem/*/hist)");
	by_key = g_hash_table_new(g_int64_hash, g_int64_equal);
	for (i = 0; i < h->rows->len; i++) {
		const struct sa_hist_row *r = &g_array_index(h->rows,
			struct sa_hist_row, i);
		const struct sa_hist_section *sec = &g_array_index(
			h->sections, struct sa_hist_section, r->section);
		struct sa_site *s;
		char *fn;

		counts = any_alloc ? sec->has_alloc : sec->has_req;
		if (!counts && !sec->has_req)
			continue;
		s = g_hash_table_lookup(by_key, &r->key);
		if (!s) {
			s = g_new0(struct sa_site, 1);
			s->kind = SA_KIND_KMALLOC;
			s->call_site = r->key;
			s->sym = r->sym ? g_strdup(r->sym) :
				 g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
						 r->key);
			/* the function's name, without +0xoff or
			 * [module]: interned, as the trace's rows' are */
			fn = g_strndup(s->sym, strcspn(s->sym, "+ "));
			s->func = g_intern_string(fn);
			g_free(fn);
			g_ptr_array_add(res->sites, s);
			g_hash_table_insert(by_key, &s->call_site, s);
		}
		if (counts) {
			s->allocs = sa_counted_add(s->allocs, r->hitcount);
			s->bytes_alloc = sa_counted_add(s->bytes_alloc,
							r->bytes_alloc);
			hits = sa_counted_add(hits, r->hitcount);
		}
		if (sec->has_req)
			s->bytes_req = sa_counted_add(s->bytes_req,
						      r->bytes_req);
	}
	g_hash_table_destroy(by_key);
	for (i = 0; i < h->sections->len; i++) {
		const struct sa_hist_section *sec = &g_array_index(
			h->sections, struct sa_hist_section, i);

		if (!sec->has_alloc && !sec->has_req)
			skipped++;
		else
			used++;
	}
	sa_report_note(rep, "counts from the kernel's hist triggers, not "
		       "events: allocations and bytes per call site since "
		       "the trigger was set (%u histogram%s, %" G_GUINT64_FORMAT
		       " allocations); no frees, so no live figures, ages "
		       "or order", used, used == 1 ? "" : "s", hits);
	if (dropped)
		sa_report_note(rep, "the histograms were full: %"
			       G_GUINT64_FORMAT " allocations dropped (a "
			       "larger size= in the trigger keeps them)",
			       dropped);
	if (skipped)
		sa_report_note(rep, "histograms with neither bytes_alloc nor "
			       "bytes_req (a free's?) left out: %u", skipped);
	for (i = 0; i < res->sites->len; i++) {
		struct sa_site *s = res->sites->pdata[i];

		/* no bytes_req: no slack rather than all of it */
		if (!has_req)
			s->bytes_req = s->bytes_alloc;
		sa_site_derive(s);
	}
	if (!has_req)
		sa_report_note(rep, "no histogram has bytes_req: requested "
			       "bytes shown as allocated, slack not "
			       "computed");
	sa_counted_report_end(rep, res);
	return rep;
}
