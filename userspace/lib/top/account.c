// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/slab_account source of slabacct top: each sample parses the
 * file (procfs/account.h). Lost: allocations the module could not give a row
 * (table full) or track (live map full).
 */
#include "procfs/account.h"
#include "top/top.h"

static int account_sample(struct sa_top_source *s, GPtrArray *rows,
			  guint64 *lost, GError **err)
{
	struct sa_account *a = sa_account_load(s->priv, err);
	size_t i;

	if (!a)
		return -1;
	for (i = 0; i < a->n_rows; i++) {
		const struct sa_account_row *ar = &a->rows[i];

		sa_top_row_add(rows, &(struct sa_top_row){
			.site = ar->caller,
			.kind = sa_account_kind_name(ar->kind),
			.allocs = ar->allocs, .frees = ar->frees,
			.bytes_alloc = ar->total, .bytes_req = ar->req,
			.slack = ar->slack, .live = ar->objs,
			.live_bytes = ar->live });
	}
	*lost = a->dropped + a->map_full;
	sa_account_free(a);
	return 0;
}

static void account_close(struct sa_top_source *s)
{
	g_free(s->priv);
	g_free(s->desc);
	g_free(s);
}

struct sa_top_source *sa_top_source_account(const char *path, GError **err)
{
	struct sa_top_source *s = g_new0(struct sa_top_source, 1);
	struct sa_account *a = sa_account_load(path, err);

	/* a first read, so a missing or foreign file fails here */
	if (!a) {
		g_free(s);
		return NULL;
	}
	sa_account_free(a);
	s->desc = g_strdup(path);
	s->priv = g_strdup(path);
	s->sample = account_sample;
	s->close = account_close;
	return s;
}
