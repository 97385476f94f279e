/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-site row of each format, shared by the callsite and live
 * sections (emit/callsite.c defines them).
 */
#ifndef SLABACCT_EMIT_CALLSITE_H
#define SLABACCT_EMIT_CALLSITE_H

#include "emit/emit.h"

#define SITE_COLS							\
	"kind,site,address,function,module,cache,allocs,frees,bytes_alloc,"	\
	"bytes_req,slack,frag_pct,live,live_bytes,live_req,live_waste,"	\
	"live_frag_pct,pingpong,gfp,age_lt_1ms,age_lt_10ms,age_lt_100ms,"	\
	"age_lt_1s,age_lt_10s,age_ge_10s,freed_untraced"
static const char site_cols[] = SITE_COLS ",file,line";

/* JSON: the totals members into the open object. */
void sa_json_totals(JsonBuilder *b, const struct sa_totals *t);
/* JSON: one site as an object (acct: with its memcg charges). */
void sa_json_site(JsonBuilder *b, const struct sa_site *s, bool acct);
/* CSV: one site's row in table section (acct as in emit/callsite.c). */
void sa_csv_site_row(FILE *f, const char *section, const struct sa_site *s,
		    int acct);

#endif /* SLABACCT_EMIT_CALLSITE_H */
