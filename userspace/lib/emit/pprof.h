/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --pprof: the call-site rows as a gzipped profile.proto, the
 * format of pprof (util/pprof.h), written with protobuf-c.
 */
#ifndef SLABACCT_EMIT_PPROF_H
#define SLABACCT_EMIT_PPROF_H

#include <stdbool.h>
#include <stdio.h>
#include <glib.h>

struct sa_report;

/*
 * Write the call-site rows of rep to out as a gzip-compressed pprof
 * Profile, with the sample types of Go's heap profile: alloc_objects/
 * count, alloc_space/bytes, inuse_objects/count, inuse_space/bytes
 * (allocations, bytes allocated, live objects and live bytes at the
 * end). A sample is a row: its stack leaf first (the call site, then
 * the frames of --by stack outwards), or the call site alone; with
 * --vmlinux, each location with its line and each function with its
 * file (agg/callsite.h: sa_callsite_frame_src). Returns 0, or -1 with
 * *err set.
 */
int sa_pprof_report_write(FILE *out, const struct sa_report *rep,
			  GError **err);

/* false when the CLI was built without protobuf-c (then *why says so) */
bool sa_pprof_report_available(const char **why);

#endif /* SLABACCT_EMIT_PPROF_H */
