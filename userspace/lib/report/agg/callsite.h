/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-site aggregator: per call site (or per cache with --by cache),
 * allocations, frees, bytes requested and allocated, slack, internal
 * fragmentation, live objects, ping-pong frees and the dominant GFP
 * flags. kmalloc and kmem_cache rows are kept apart: a kmalloc row's
 * slack is the caller's over-request rounded up to a size class, a cache
 * row's slack is the cache's padding.
 *
 * Formulas (also in `slabacct report --help`):
 *   slack       = bytes_alloc - bytes_req, summed over allocations
 *   frag %      = 100 - 100 * req / alloc (as perf kmem)
 *   live        = allocations not freed by the end of the trace
 *   live waste  = live alloc - live req; live frag % likewise
 *   ping-pong   = frees on a different CPU from their allocation
 *   freed untraced = live objects whose pointer was allocated again with
 *                 no free traced in between: freed by a path that fires
 *                 no event (kmem_cache_free_bulk, kfree_bulk, batched RCU
 *                 frees), or by a task the recording left out. They are
 *                 counted per site, and are neither live nor leaks.
 *
 * A large kmalloc traced twice (6.10+ kernels: the allocator's own event,
 * at __kmalloc_large_node_noprof, __kmalloc_node_track_caller_noprof and
 * the like, then the caller's) is one allocation, of the caller. It is
 * told by its shape, whatever the kernel: a kmalloc whose CPU's previous
 * kmem event was a kmalloc of the same ptr, bytes_req and bytes_alloc
 * from another call site, that object still live. The allocation moves
 * to the second call site (a site left with no allocation is dropped),
 * the record is flagged SA_REC_REPEAT for the aggregators after this one,
 * and the repeats are counted (report/report.h: kmalloc_repeats).
 */
#ifndef SLABACCT_AGG_CALLSITE_H
#define SLABACCT_AGG_CALLSITE_H

#include "report/report.h"
#include "uapi/slab_account.h"
#include "util/inttable.h"
#include "util/livemap.h"

/* The kind: uapi/slab_account.h's one enum, by the report's names */
#define sa_kind			slab_account_kind
#define SA_KIND_KMALLOC		SLAB_ACCOUNT_KMALLOC
#define SA_KIND_CACHE		SLAB_ACCOUNT_CACHE
#define SA_KIND_NR		SLAB_ACCOUNT_NR_KINDS

#define SA_GFP_SLOTS	4
#define SA_AGE_BUCKETS	6	/* <1ms <10ms <100ms <1s <10s >=10s */

struct sa_site {
	enum sa_kind kind;
	guint64 call_site;		/* 0 when grouped by cache */
	const char *cache;		/* interned cache name, or NULL */
	/* symbol: filled when the report is finished */
	char *sym;			/* "func+0xoff [module]" / "0xaddr" */
	const char *func, *module, *file;
	int line;
	const char *wrapper_hint;	/* non-NULL for kstrdup & co */
	/*
	 * Attributed through a wrapper by the allocations' kernel stacks
	 * (report/report.h, enum sa_group_by): the wrapper's allocation name
	 * (interned: "kvmalloc_node"), and the frames from the real caller
	 * outwards, interned (one frame but with --by stack). sym is then
	 * "kvmalloc_node <- caller+0xoff", caller_sym "caller+0xoff", and
	 * func, module, file and line are the caller's. NULL: the row is
	 * the call site's own.
	 */
	const char *wrapper;
	const struct sa_stack *frames;
	char *caller_sym;
	/*
	 * With frames, for the folded stacks (emit/folded.c): the frames'
	 * functions, outermost first, joined by ';', and the row's name as
	 * the default view (--by caller) names it: "kvmalloc_node <-
	 * caller+0xoff", or the call site's own "func+0xoff [module]".
	 */
	char *path, *leaf;
	/* counts */
	guint64 allocs, frees;
	guint64 bytes_alloc, bytes_req, slack;
	double frag;			/* % */
	guint64 live, live_alloc, live_req, live_waste;
	double live_frag;		/* % */
	guint64 pingpong;
	guint64 freed_untraced;		/* objects freed without an event */
	guint64 age[SA_AGE_BUCKETS];	/* live objects by age */
	/* GFP flags: the most frequent value of the first SA_GFP_SLOTS */
	guint64 gfp_v[SA_GFP_SLOTS], gfp_n[SA_GFP_SLOTS];
	guint64 gfp;
	char *gfp_str;
	/*
	 * Charged to a memory cgroup (the event's "accounted": its field,
	 * or what its print format computes from gfp_flags), allocations
	 * and their bytes_alloc; counted when the trace says
	 * (sa_callsite_result.accounted_known)
	 */
	guint64 accounted, accounted_bytes;
	gboolean have_req;		/* bytes_req was in the events */
	gboolean inaccurate;		/* allocinfo: marked accurate:no */
};

struct sa_totals {
	guint64 sites;
	guint64 allocs, frees;
	guint64 bytes_alloc, bytes_req, slack;
	double frag;
	guint64 live, live_alloc, live_req, live_waste;
	double live_frag;
	guint64 pingpong;
	guint64 accounted, accounted_bytes;
};

/* A frame's source position, as a call site's (symbols.h: struct sa_sym) */
struct sa_frame_src {
	const char *file;		/* interned */
	int line;
};

struct sa_callsite_result {
	struct sa_totals total[SA_KIND_NR];
	guint64 unmatched_frees;	/* of memory allocated before the trace */
	guint64 null_frees;		/* kfree(NULL) */
	guint64 reused;			/* allocs of a pointer still live: a
					 * free was not seen (the sum of the
					 * rows' freed_untraced) */
	guint64 repeats;		/* large kmallocs traced twice, counted
					 * once (at the second call site) */
	/*
	 * Allocations at a wrapper's call site: attributed to their caller
	 * through their stack; with a stack that does not hold the call
	 * site, or only wrappers beyond it; with no stack (counted when the
	 * trace has stacks at all).
	 */
	guint64 attributed, attrib_not_in_stack, attrib_all_wrappers;
	guint64 wrapper_no_stack;
	/* the trace says which allocations were charged to a memcg */
	bool accounted_known;
	enum sa_group_by by;
	/*
	 * The rows of a /proc/allocinfo snapshot (report/allocinfo.c): one
	 * per allocation site of every allocator (slab, pages, vmalloc,
	 * percpu), kind SA_KIND_KMALLOC though it does not apply, with
	 * live and live_alloc (bytes) only, and func, module, file and line.
	 */
	bool allocinfo;
	GPtrArray *sites;		/* struct sa_site *, every row */
	/*
	 * With --vmlinux, the file:line of each address of the rows' stacks
	 * (their frames, and the call site of a row with frames that is not
	 * a wrapper's), resolved while the symbols are at hand: one entry
	 * per distinct address that has one, however many rows share it
	 * (sa_callsite_frame_src)
	 */
	struct sa_inttable frame_idx;	/* address -> index in frame_src */
	GArray *frame_src;		/* struct sa_frame_src, or NULL */
	GPtrArray *shown;		/* the rows to print, sorted; a view */
	guint64 hidden;			/* rows left out by --top/--min-bytes */
};

extern const struct sa_agg sa_agg_callsite;

/* Ages: the bucket of an age in ns, and the buckets' labels. */
int sa_age_bucket(guint64 age_ns);
const char *sa_age_label(int bucket);
/* "kmalloc" or "cache", for SA_KIND_* */
const char *sa_kind_name(int kind);

/*
 * The file:line of the stacks' addresses (agg/frame-src.c): keep sym's
 * for addr (once; nothing without a file), and look it up: false when
 * --vmlinux gave none.
 */
struct sa_sym;
void sa_callsite_frame_src_put(struct sa_callsite_result *r, guint64 addr,
			       const struct sa_sym *sym);
bool sa_callsite_frame_src(const struct sa_callsite_result *r, guint64 addr,
			   struct sa_frame_src *out);

/* Slack, frag % and the live figures of a row, from its counts. */
void sa_site_derive(struct sa_site *s);

/* The per-kind totals of res->sites (after sa_site_derive of each). */
void sa_callsite_totals(struct sa_callsite_result *res);

/* Live state for the other aggregators (state is the callsite state). */
typedef void (*sa_live_fn)(const struct sa_live_obj *o, void *data);
void sa_callsite_foreach_live(void *state, sa_live_fn fn, void *data);
/* Row idx while the trace is read; after finish, NULL for a dropped row. */
struct sa_site *sa_callsite_site(void *state, guint32 idx);

/*
 * The n sites with the most live bytes now, while the trace is read (for
 * an OOM kill). Returns a new array of struct sa_site * (not owned).
 */
GPtrArray *sa_callsite_top_live(void *state, guint n);

void sa_site_free(struct sa_site *s);

#endif /* SLABACCT_AGG_CALLSITE_H */
