// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct report of a /proc/allocinfo snapshot: the kernel's allocation
 * profiling counts, per allocation site (a code tag: file:line and
 * function), the bytes and allocations live now. Those become the rows of
 * the call-site section, with their live figures only, so the same
 * emitters format them. A site is the place the allocation is written in
 * the source, whatever allocator and wrapper it goes through (kmalloc,
 * kmem_cache, pages, vmalloc, percpu, kvmalloc, kstrdup...).
 */
#include <string.h>

#include "procfs/allocinfo.h"
#include "report/counted.h"

/* Rows of the same site (an inline function's tag in several files) are
 * one row: keyed by module, file, line and function. */
static char *site_key(const struct sa_allocinfo_row *r)
{
	return g_strdup_printf("%s\t%s\t%u\t%s", r->module ? r->module : "",
			       r->file, r->line, r->function);
}

struct merged {
	struct sa_site *site;
	gint64 bytes, calls;
};

struct sa_report *sa_report_from_allocinfo(const char *path,
					   const struct sa_report_opts *opts,
					   GError **err)
{
	struct sa_callsite_result *res;
	struct sa_report *rep;
	struct sa_allocinfo *ai;
	GHashTable *by_key;
	GArray *m;
	guint64 negative = 0, dups = 0;
	size_t i;

	ai = sa_allocinfo_load(path, err);
	if (!ai)
		return NULL;
	rep = sa_counted_report_new(path, opts, &res);
	rep->allocinfo = ai;
	rep->allocinfo_head = g_new0(struct sa_allocinfo_head, 1);
	sa_allocinfo_head_of(ai, rep->allocinfo_head);
	sa_report_note(rep, "a /proc/allocinfo snapshot: the bytes and "
		       "allocations live at each allocation site, of every "
		       "allocator; no totals, requested bytes, slack, frees, "
		       "ping-pong, GFP flags, ages or other sections");
	if (ai->n_inaccurate)
		sa_report_note(rep, "sites marked accurate:no (the kernel "
			       "missed some of their allocations): %zu",
			       ai->n_inaccurate);
	res->allocinfo = true;
	by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	m = g_array_new(FALSE, TRUE, sizeof(struct merged));
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];
		char *key = site_key(r);
		gpointer idx;
		struct merged *x;

		if (g_hash_table_lookup_extended(by_key, key, NULL, &idx)) {
			x = &g_array_index(m, struct merged,
					   GPOINTER_TO_UINT(idx));
			dups++;
			g_free(key);
		} else {
			struct merged n = { g_new0(struct sa_site, 1), 0, 0 };

			n.site->kind = SA_KIND_KMALLOC;
			n.site->func = r->function;
			n.site->module = r->module;
			n.site->file = r->file;
			n.site->line = r->line;
			n.site->sym = r->module ?
				g_strdup_printf("%s [%s]", r->function,
						r->module) :
				g_strdup(r->function);
			g_hash_table_insert(by_key, key,
					    GUINT_TO_POINTER(m->len));
			g_array_append_val(m, n);
			x = &g_array_index(m, struct merged, m->len - 1);
		}
		x->site->inaccurate |= r->inaccurate;
		x->bytes = sa_counted_add_signed(x->bytes, r->bytes);
		x->calls = sa_counted_add_signed(x->calls, r->calls);
	}
	for (i = 0; i < m->len; i++) {
		struct merged *x = &g_array_index(m, struct merged, i);
		struct sa_site *s = x->site;

		/* sites with nothing live are not rows, as in a trace */
		if (!x->bytes && !x->calls) {
			sa_site_free(s);
			continue;
		}
		if (x->bytes < 0 || x->calls < 0)
			negative++;
		s->live = x->calls > 0 ? x->calls : 0;
		s->live_alloc = x->bytes > 0 ? x->bytes : 0;
		g_ptr_array_add(res->sites, s);
	}
	if (dups)
		sa_report_note(rep, "rows that repeat a site (an inline "
			       "function's tag in several files): %"
			       G_GUINT64_FORMAT "; each site is one row, "
			       "their counts summed", dups);
	if (negative)
		sa_report_note(rep, "sites read below zero (counters caught "
			       "while they moved), shown as 0: %"
			       G_GUINT64_FORMAT, negative);
	g_array_free(m, TRUE);
	g_hash_table_destroy(by_key);
	sa_counted_report_end(rep, res);
	return rep;
}
