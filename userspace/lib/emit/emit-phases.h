/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot phases of the timeline section (report/agg/phases.h) in each
 * format, written by the timeline's writers: text and CSV only when the
 * trace has initcall levels, JSON always (an empty list without).
 */
#ifndef SLABACCT_EMIT_PHASES_H
#define SLABACCT_EMIT_PHASES_H

#include "emit/emit.h"
#include "report/agg/phases.h"

void sa_text_phases(struct sa_emit *e, const struct sa_phases *ph);
void sa_json_phases(struct sa_emit *e, const struct sa_phases *ph);
void sa_csv_phases(struct sa_emit *e, const struct sa_phases *ph);

#endif /* SLABACCT_EMIT_PHASES_H */
