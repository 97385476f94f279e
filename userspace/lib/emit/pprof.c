// SPDX-License-Identifier: GPL-2.0
/*
 * report --pprof: the call-site rows as pprof's profile.proto, built and
 * written by util/pprof.c (protobuf-c, gzip).
 *
 * The sample types are those of Go's heap profile, in its order, so that
 * pprof's heap views (-sample_index=alloc_space, inuse_space, ...) apply:
 * alloc_objects/count, alloc_space/bytes, inuse_objects/count and
 * inuse_space/bytes, the period type space/bytes. The counts are exact
 * (a trace holds every allocation), so the period is 1.
 *
 * A sample is a row of the call-site section with its stack, leaf first:
 * the call site (a wrapper's row: the wrapper, "kvmalloc_node"), then
 * the frames from the caller outwards (--by stack); a row without a
 * stack is the call site alone. A location is an address (call site or
 * return address) in one function, one location per address; a function
 * is a kernel symbol, with its source file, and a location its line,
 * where the report resolved them (--vmlinux): the call site's, and every
 * frame's (agg/callsite.h: sa_callsite_frame_src), as the report's
 * file:line reads (through inlined code, the line that calls into it).
 * A wrapper's leaf stands for every call site in the wrapper: no line.
 * Labels: the row's kind and cache. Rows of no allocation and no live
 * object are left out.
 */
#include <string.h>

#include "emit/pprof.h"
#include "report/report.h"
#include "report/agg/callsite.h"
#include "trace/stack.h"
#include "util/pprof.h"

bool sa_pprof_report_available(const char **why)
{
	return sa_pprof_available(why);
}

/* "func+0xoff [module]" -> "func"; an address stays as it is */
static char *func_of(const char *sym)
{
	return g_strndup(sym, strcspn(sym, "+ "));
}

static const char *const kind_names[] = {
	[SA_KIND_KMALLOC] = "kmalloc", [SA_KIND_CACHE] = "cache",
};

static void add_sample(struct sa_pprof *p,
		       const struct sa_callsite_result *r,
		       const struct sa_site *s)
{
	struct sa_frame_src src;
	guint32 n = s->frames ? s->frames->n : 0, i;
	guint64 *locs = g_new(guint64, 1 + n);
	gint64 values[SA_PPROF_HEAP_TYPES] = {
		s->allocs, s->bytes_alloc, s->live, s->live_alloc,
	};
	const char *labels[4] = {
		"kind", s->kind < G_N_ELEMENTS(kind_names) ?
			kind_names[s->kind] : NULL,
		"cache", s->cache,
	};
	gchar **comps = NULL;
	char *leaf;

	/* the leaf: the call site, or the wrapper of an attributed row */
	if (s->wrapper)
		leaf = g_strdup(s->wrapper);
	else if (n && s->leaf)
		leaf = func_of(s->leaf);
	else if (s->func)
		leaf = g_strdup(s->func);
	else
		leaf = func_of(s->sym ? s->sym : "?");
	if (!n)
		src = (struct sa_frame_src){ s->file, s->line };
	else if (s->wrapper || !sa_callsite_frame_src(r, s->call_site, &src))
		src = (struct sa_frame_src){ NULL, 0 };
	locs[0] = sa_pprof_location(p, s->call_site, leaf, src.file,
				    src.line);
	g_free(leaf);

	/* the frames, from the caller outwards: path is outermost first */
	if (n && s->path) {
		comps = g_strsplit(s->path, ";", -1);
		if (g_strv_length(comps) != n) {
			g_strfreev(comps);
			comps = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		char addr[32];
		const char *name = comps ? comps[n - 1 - i] : NULL;

		if (!name) {
			snprintf(addr, sizeof(addr), "0x%" G_GINT64_MODIFIER
				 "x", s->frames->ip[i]);
			name = addr;
		}
		if (!sa_callsite_frame_src(r, s->frames->ip[i], &src))
			src = (struct sa_frame_src){ NULL, 0 };
		locs[1 + i] = sa_pprof_location(p, s->frames->ip[i], name,
						src.file, src.line);
	}
	g_strfreev(comps);
	sa_pprof_sample(p, locs, 1 + n, values, labels, 2);
	g_free(locs);
}

int sa_pprof_report_write(FILE *out, const struct sa_report *rep,
			  GError **err)
{
	static const char *const period[2] = { "space", "bytes" };
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	struct sa_pprof *p;
	const char *why;
	guint i;
	int ret;

	if (!sa_pprof_available(&why)) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOSYS, "%s", why);
		return -1;
	}
	p = sa_pprof_new(sa_pprof_heap_types, SA_PPROF_HEAP_TYPES, period, 1,
			 "[kernel.kallsyms]");
	for (i = 0; r && i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (s->allocs || s->live)
			add_sample(p, r, s);
	}
	if (rep->last_ts > rep->first_ts)
		sa_pprof_set_duration(p, rep->last_ts - rep->first_ts);
	ret = sa_pprof_write(p, out, err);
	sa_pprof_free(p);
	return ret;
}
