/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot view flattened to figures (section, name, field, value):
 * the rows of the CSV output, and what snapshot diffs compare.
 */
#ifndef SLABACCT_SNAPSHOT_FIGURES_H
#define SLABACCT_SNAPSHOT_FIGURES_H

#include "snapshot/view.h"

struct sa_figure {
	const char *section;	/* static: "memory", "slab_cache", ... */
	char *name;		/* "" when the section has one row */
	char *field;
	double value;
	char *text;		/* a non-numeric value, or NULL */
};

/* Every figure of the view, in a stable order. */
GArray *sa_snapshot_figures(const struct sa_snapshot_view *v);

/* A value as CSV shows it: integers whole, others with 4 decimals. */
void sa_figure_append_value(GString *out, double v);


#endif /* SLABACCT_SNAPSHOT_FIGURES_H */
