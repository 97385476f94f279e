// SPDX-License-Identifier: GPL-2.0
/*
 * CSV output of a snapshot: section,name,field,value, one figure a row.
 */
#include <string.h>

#include "util/escape.h"
#include "emit/snapshot-emit.h"
#include "snapshot/figures.h"

void sa_csv_cell(GString *out, const char *s)
{
	const char *p;

	s = sa_esc(s);		/* no control characters: no \n, no \r */
	if (!strpbrk(s, ",\"")) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

void sa_snapshot_emit_csv(GString *out, const struct sa_snapshot_view *v)
{
	GArray *figs = sa_snapshot_figures(v);
	guint i;

	g_string_append(out, "section,name,field,value\n");
	for (i = 0; i < figs->len; i++) {
		const struct sa_figure *f = &g_array_index(figs,
				struct sa_figure, i);
		sa_csv_cell(out, f->section);
		g_string_append_c(out, ',');
		sa_csv_cell(out, f->name);
		g_string_append_c(out, ',');
		sa_csv_cell(out, f->field);
		g_string_append_c(out, ',');
		if (f->text)
			sa_csv_cell(out, f->text);
		else
			sa_figure_append_value(out, f->value);
		g_string_append_c(out, '\n');
	}
	g_array_unref(figs);
}
