/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-site section of a /proc/allocinfo input (emit/allocinfo.c),
 * written by the section's text, JSON and CSV writers when the result is
 * one (struct sa_callsite_result.allocinfo).
 */
#ifndef SLABACCT_EMIT_ALLOCINFO_H
#define SLABACCT_EMIT_ALLOCINFO_H

#include "emit/emit.h"

void sa_text_allocinfo_sites(struct sa_emit *e,
			     const struct sa_callsite_result *r);
void sa_json_allocinfo_sites(struct sa_emit *e,
			     const struct sa_callsite_result *r);
/* site_cols: the column names of the callsite table (after "callsite,") */
void sa_csv_allocinfo_sites(struct sa_emit *e, const char *site_cols,
			    const struct sa_callsite_result *r);

#endif /* SLABACCT_EMIT_ALLOCINFO_H */
