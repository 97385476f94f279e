// SPDX-License-Identifier: GPL-2.0
/*
 * The subsystems section, computed from the call-site rows when the trace
 * ends.
 */
#include <stdbool.h>
#include <string.h>

#include "report/agg/subsys.h"
#include "symbols/symbols.h"

struct ss_state {
	const struct sa_report_opts *opts;
};

static void *ss_create(const struct sa_report_opts *opts,
		       struct sa_pipeline *p)
{
	struct ss_state *st = g_new0(struct ss_state, 1);

	st->opts = opts;
	return st;
}

static void ss_destroy(void *state)
{
	g_free(state);
}

static gint rows_by_bytes(gconstpointer a, gconstpointer b)
{
	const struct sa_subsys_row *x = a, *y = b;

	if (x->bytes_alloc != y->bytes_alloc)
		return x->bytes_alloc > y->bytes_alloc ? -1 : 1;
	return strcmp(x->name, y->name);
}

static gint wrappers_by_bytes(gconstpointer a, gconstpointer b)
{
	const struct sa_wrapper_row *x = a, *y = b;

	if (x->bytes_alloc != y->bytes_alloc)
		return x->bytes_alloc > y->bytes_alloc ? -1 : 1;
	return strcmp(x->func, y->func);
}

/* Find or add the row named name in arr, via idx (name -> index + 1). */
static gpointer row_get(GArray *arr, GHashTable *idx, const char *name,
			gsize size)
{
	gpointer v = g_hash_table_lookup(idx, name);

	if (v)
		return arr->data + (GPOINTER_TO_UINT(v) - 1) * size;
	g_array_set_size(arr, arr->len + 1);
	g_hash_table_insert(idx, (gpointer)name, GUINT_TO_POINTER(arr->len));
	return arr->data + (arr->len - 1) * size;
}

/* Call sites with no source file although --vmlinux/--build-tree was given */
struct unplaced {
	guint64 sites, bytes;
	GString *local;		/* "name (N objects), ..." */
	guint64 local_sites, local_bytes;
	GHashTable *seen;	/* names already in local */
};

static void unplaced_add(struct unplaced *u, struct sa_report *rep,
			 const struct sa_site *s)
{
	guint n = sa_symbols_objects(rep->syms, s->func);

	u->sites++;
	u->bytes += s->bytes_alloc;
	if (n < 2)
		return;
	u->local_sites++;
	u->local_bytes += s->bytes_alloc;
	if (!u->seen) {
		u->seen = g_hash_table_new(g_direct_hash, g_direct_equal);
		u->local = g_string_new(NULL);
	}
	if (!g_hash_table_add(u->seen, (gpointer)s->func))
		return;
	g_string_append_printf(u->local, "%s%s (%u object files)",
			       u->local->len ? ", " : "", s->func, n);
}

static void unplaced_note(struct unplaced *u, struct sa_report *rep)
{
	if (u->local) {
		sa_report_note(rep, "subsystems: %s: local names that several "
			       "object files of the build tree define, so "
			       "--build-tree cannot tell whose copy a call "
			       "site is in; their %" G_GUINT64_FORMAT " call "
			       "sites (%" G_GUINT64_FORMAT " bytes) are in "
			       "the " SA_SUBSYS_UNRESOLVED " row. Built with "
			       "-O2 (kconfig-fragments/callsite.config), such "
			       "helpers are inlined into their callers",
			       u->local->str, u->local_sites,
			       u->local_bytes);
		g_string_free(u->local, TRUE);
		g_hash_table_destroy(u->seen);
	}
	if (u->sites > u->local_sites)
		sa_report_note(rep, "subsystems: %" G_GUINT64_FORMAT " call "
			       "sites (%" G_GUINT64_FORMAT " bytes) have no "
			       "source file: the " SA_SUBSYS_UNRESOLVED " row",
			       u->sites - u->local_sites,
			       u->bytes - u->local_bytes);
}

static void *ss_finish(void *state, struct sa_report *rep)
{
	struct ss_state *st = state;
	struct sa_subsys_result *res = g_new0(struct sa_subsys_result, 1);
	struct sa_callsite_result *cr =
		rep->result[SA_SEC_CALLSITE];
	GHashTable *ri = g_hash_table_new(g_direct_hash, g_direct_equal);
	GHashTable *wi = g_hash_table_new(g_direct_hash, g_direct_equal);
	int depth = st->opts && st->opts->depth > 0 ? st->opts->depth : 0;
	bool has_files = st->opts && (st->opts->vmlinux ||
				      st->opts->build_tree);
	const char *unresolved = g_intern_static_string(SA_SUBSYS_UNRESOLVED);
	struct unplaced up = { 0 };
	guint i;

	res->depth = depth;
	res->source = st->opts && st->opts->vmlinux ? "dwarf" :
		      st->opts && st->opts->build_tree ? "build-tree" :
		      "kallsyms";
	res->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_subsys_row));
	res->wrappers = g_array_new(FALSE, TRUE,
				    sizeof(struct sa_wrapper_row));
	for (i = 0; cr && i < cr->sites->len; i++) {
		const struct sa_site *s = cr->sites->pdata[i];
		struct sa_sym sym = { s->func, 0, s->module, s->file, s->line };
		const char *name = s->call_site ?
			sa_sym_subsystem(&sym, depth) :
			g_intern_string(s->sym);
		struct sa_subsys_row *r;

		if (s->call_site && s->func && !s->module && !s->file &&
		    has_files) {
			name = unresolved;
			unplaced_add(&up, rep, s);
		}
		r = row_get(res->rows, ri, name, sizeof(*r));

		r->name = name;
		r->sites++;
		r->allocs += s->allocs;
		r->bytes_alloc += s->bytes_alloc;
		r->bytes_req += s->bytes_req;
		r->slack += s->slack;
		r->live_alloc += s->live_alloc;
		if (s->wrapper_hint) {
			struct sa_wrapper_row *w = row_get(res->wrappers, wi,
							   s->func,
							   sizeof(*w));

			w->func = s->func;
			w->hint = s->wrapper_hint;
			w->sites++;
			w->allocs += s->allocs;
			w->bytes_alloc += s->bytes_alloc;
		}
	}
	g_array_sort(res->rows, rows_by_bytes);
	g_array_sort(res->wrappers, wrappers_by_bytes);
	g_hash_table_destroy(ri);
	g_hash_table_destroy(wi);
	unplaced_note(&up, rep);
	if (!st->opts || (!st->opts->vmlinux && !st->opts->build_tree))
		sa_report_note(rep, "subsystems: no --vmlinux or --build-tree, "
			       "so sites are grouped by module and symbol");
	return res;
}

static void ss_free_result(void *result)
{
	struct sa_subsys_result *res = result;

	g_array_free(res->rows, TRUE);
	g_array_free(res->wrappers, TRUE);
	g_free(res);
}

const struct sa_agg sa_agg_subsys = {
	.events = 0,
	.create = ss_create,
	.finish = ss_finish,
	.destroy = ss_destroy,
	.free_result = ss_free_result,
};
