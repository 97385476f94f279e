/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pprof profile (profile.proto beside this file, pprof's format) built
 * sample by sample and written gzipped, packed by the C that protoc-c
 * generates (util/pprof.c): report --pprof's and memleak --pprof's.
 */
#ifndef SLABACCT_UTIL_PPROF_H
#define SLABACCT_UTIL_PPROF_H

#include <stdbool.h>
#include <stdio.h>
#include <glib.h>

/* Go's heap profile's sample types, in its order */
#define SA_PPROF_HEAP_TYPES	4
extern const char *const sa_pprof_heap_types[SA_PPROF_HEAP_TYPES][2];

struct sa_pprof;

/* false when built without protobuf-c (then *why says so) */
bool sa_pprof_available(const char **why);

/*
 * A profile of n sample types ({type, unit}), its period type
 * {type, unit} and period; one mapping named mapping.
 */
struct sa_pprof *sa_pprof_new(const char *const types[][2], int n,
			      const char *const period_type[2],
			      gint64 period, const char *mapping);
void sa_pprof_free(struct sa_pprof *p);

/* The location of addr in function name (file:line when file), its id */
guint64 sa_pprof_location(struct sa_pprof *p, guint64 addr,
			  const char *name, const char *file, int line);

/*
 * A sample: its locations, leaf first, values[n], and nl labels,
 * labels[2i] the key and labels[2i + 1] the string (NULL: left out).
 */
void sa_pprof_sample(struct sa_pprof *p, const guint64 *locs, guint nlocs,
		     const gint64 *values, const char *const *labels,
		     guint nl);

void sa_pprof_set_duration(struct sa_pprof *p, gint64 ns);

/* Pack, gzip and write to out. 0, or -1 with *err set. */
int sa_pprof_write(struct sa_pprof *p, FILE *out, GError **err);

#endif /* SLABACCT_UTIL_PPROF_H */
