// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report of a /proc/slab_account snapshot: its rows become the
 * call-site section, so the same emitters (text, JSON, CSV, account)
 * format it. A snapshot has no events: ping-pong, GFP flags, ages and
 * the other sections are not in it, and the report says so.
 */
#include <string.h>

#include "procfs/account.h"
#include "report/counted.h"

struct sa_report *sa_report_from_account(const char *path,
					 const struct sa_report_opts *opts,
					 GError **err)
{
	struct sa_callsite_result *res;
	struct sa_report *rep;
	struct sa_account *a;
	size_t i;

	a = sa_account_load(path, err);	/* the error names the file */
	if (!a)
		return NULL;
	rep = sa_counted_report_new(path, opts, &res);
	rep->account = g_new0(struct sa_account_head, 1);
	sa_account_head_of(a, rep->account);
	sa_report_note(rep, "a /proc/slab_account snapshot: no ping-pong, "
		       "GFP flags, ages, live waste or other sections");
	if (a->dropped || a->map_full)
		sa_report_note(rep, "the module's tables overflowed: %"
			       G_GUINT64_FORMAT " allocations without a row, %"
			       G_GUINT64_FORMAT " not tracked as live",
			       a->dropped, a->map_full);
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *r = &a->rows[i];
		struct sa_site *s = g_new0(struct sa_site, 1);

		s->kind = r->kind == SA_ACCOUNT_CACHE ? SA_KIND_CACHE :
			  SA_KIND_KMALLOC;
		s->sym = g_strdup(r->caller);
		s->allocs = r->allocs;
		s->frees = r->frees;
		s->bytes_alloc = r->total;
		s->bytes_req = r->req;
		s->have_req = TRUE;
		s->live = r->objs > 0 ? r->objs : 0;
		s->live_alloc = r->live > 0 ? r->live : 0;
		s->live_req = s->live_alloc;	/* not in the snapshot */
		sa_site_derive(s);
		g_ptr_array_add(res->sites, s);
	}
	res->unmatched_frees = a->untracked_frees;
	res->reused = a->lost_frees;
	sa_counted_report_end(rep, res);
	sa_account_free(a);
	return rep;
}
