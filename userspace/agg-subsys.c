// SPDX-License-Identifier: GPL-2.0
/*
 * The subsystems section, computed from the call-site rows when the trace
 * ends.
 */
#include <string.h>

#include "agg-subsys.h"
#include "symbols.h"

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

static void *ss_finish(void *state, struct sa_report *rep)
{
	struct ss_state *st = state;
	struct sa_subsys_result *res = g_new0(struct sa_subsys_result, 1);
	struct sa_callsite_result *cr =
		rep->result[sa_section_index("callsite")];
	GHashTable *ri = g_hash_table_new(g_direct_hash, g_direct_equal);
	GHashTable *wi = g_hash_table_new(g_direct_hash, g_direct_equal);
	int depth = st->opts && st->opts->depth > 0 ? st->opts->depth : 0;
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
		struct sa_subsys_row *r = row_get(res->rows, ri, name,
						  sizeof(*r));

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
