/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabacct report: the aggregator interface, the section table and the
 * plain-struct model that the emitters (emit/) format.
 *
 * How the pieces fit
 *   trace/events.c  the event table: every tracepoint recorded, the id
 *                   (enum sa_ev) the reports read it as, and the fields
 *                   to decode, looked up by name once per event.
 *   trace/check.c   checks a trace.dat's structure (and, in a child
 *                   process, that libtracecmd opens it) before anything
 *                   else reads it: damage is an error with its offset.
 *   trace/reader.c  decodes each record into a struct sa_rec (in reader
 *                   threads, one per core) and hands them, in timestamp
 *                   order, to a sink: here report.c, which feeds every
 *                   aggregator that asked for that event id.
 *   trace/raw.c     the readers' fast path for version 6 files: the
 *                   ring-buffer pages walked in place with kbuffer.
 *   report/table.c  sa_report_table[]: one row per section (enum
 *                   sa_section_id): its --what name and its aggregator.
 *   report/agg/     aggregators: they fill plain structs, never print.
 *   emit/           emitters: they only format what aggregators computed,
 *                   each format with a table of section writers.
 *
 * HOW TO ADD A REPORT SECTION (an aggregator), e.g. reclaim
 *   1. Events: ids in enum sa_ev (trace/events.h: SA_EV_DIRECT_BEGIN,
 *      ...) with their field indices, and one row per tracepoint in
 *      trace/events.c naming the fields to decode into sa_rec.v[]. A
 *      field the format lacks leaves its bit in sa_rec.have clear and
 *      adds a note to the report.
 *   2. report/agg/reclaim.[ch]: the state and
 *        const struct sa_agg sa_agg_reclaim = {
 *            .events  = SA_EVBIT(SA_EV_DIRECT_BEGIN) | ...,
 *            .create  = ..., .event = ..., .finish = ..., .destroy = ...,
 *        };
 *      event() gets every record of those ids in timestamp order; finish()
 *      returns the section's result, a plain struct owned by the report
 *      (freed by .free_result). Another aggregator's live state is
 *      reachable with sa_pipeline_state(p, SA_SEC_CALLSITE) (e.g. the top
 *      live call sites at an OOM kill: sa_callsite_top_live()).
 *   3. An id in enum sa_section_id and its row in report/table.c:
 *        [SA_SEC_RECLAIM] = { "reclaim", "direct reclaim, ...",
 *                             &sa_agg_reclaim },
 *   4. Its writers in emit/<section>.c, one per format, of type sa_emit_fn
 *      (emit/emit.h), each in its format's table (sa_text_sections[] in
 *      emit/frame-text.c, ...).
 *   `--what reclaim` then selects it; the header (origin, lost events,
 *   notes) comes with every format for free. Unit-test the aggregator by
 *   feeding it sa_rec records (tests/unit/report/test-agg-callsite.c).
 */
#ifndef SLABACCT_REPORT_H
#define SLABACCT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "trace/events.h"
#include "trace/check.h"
#include "trace/origin.h"

/* ---- options shared by the aggregators ---- */

/*
 * How allocations are grouped into rows. By call site, an allocation
 * whose call site is an allocation wrapper (symbols/wrappers.h) and that
 * has a kernel stack (record --stacks, trace-cmd record -T) is a row of
 * its own per wrapper and real caller ("kvmalloc_node <- seq_buf_alloc"),
 * which its frees follow; SA_BY_WRAPPER keeps the wrappers' rows as the
 * call sites say; SA_BY_STACK adds stack_depth frames from the caller
 * outwards to every allocation that has a stack.
 */
enum sa_group_by {
	SA_BY_CALLSITE,			/* --by caller (the default) */
	SA_BY_CACHE,
	SA_BY_WRAPPER,
	SA_BY_STACK,
	/* by who the event was for (report/tasks.h) */
	SA_BY_COMM,
	SA_BY_PID,
	SA_BY_CGROUP,
};

struct sa_wrappers;

/* "callsite", "cache", "wrapper", ... (JSON's callsite.by) */
const char *sa_group_by_name(enum sa_group_by by);
/* --by's argument (caller, callsite, cache, ...): 0, or -1 if unknown */
int sa_group_by_parse(const char *name, enum sa_group_by *by);
/* The names --by takes, for messages: "caller, wrapper, ..." */
const char *sa_group_by_names(void);
/* Whether rows are tasks or cgroups rather than call sites or caches */
bool sa_group_by_task(enum sa_group_by by);

struct sa_report_opts {
	enum sa_group_by by;
	int stack_depth;		/* SA_BY_STACK's frames; 0: 4 */
	/* the wrapper set (symbols/wrappers.h); NULL: the built-in one */
	const struct sa_wrappers *wrappers;
	/* the names added to it (--wrapper), NULL-terminated, or NULL: a
	 * name the trace's kallsyms lacks is a note */
	const char *const *wrapper_names;
	bool objects;			/* live: list every object */
	guint64 interval_ns;		/* timeline bin width; 0 = automatic */
	const char *vmlinux;		/* DWARF for file:line */
	bool force_vmlinux;		/* use it even if it is not the
					 * traced kernel's build */
	const char *build_tree;		/* object files for grouping */
	int depth;			/* subsystem directory depth */
	int threads;			/* 0 = automatic */
	bool no_raw;			/* read through libtracecmd's
					 * iterator, not trace/raw.c */
	/*
	 * Called now and then while the trace is read (from the calling
	 * thread), with the bytes of event data read and in the file; see
	 * util/progress.h. NULL: none.
	 */
	void (*progress)(void *data, guint64 done, guint64 total);
	void *progress_data;
};

/* ---- the aggregator interface ---- */

struct sa_pipeline;
struct sa_report;

struct sa_agg {
	guint64 events;		/* SA_EVBIT mask of the ids it consumes */
	void *(*create)(const struct sa_report_opts *opts,
			struct sa_pipeline *p);
	void (*event)(void *state, struct sa_rec *r);
	/*
	 * Compute the section's result (owned by the report from then on).
	 * The trace is still open: symbols can be resolved through rep->syms.
	 */
	void *(*finish)(void *state, struct sa_report *rep);
	void (*destroy)(void *state);
	void (*free_result)(void *result);
};

/*
 * The report sections, in table (and output) order. The call-site one
 * always runs: the others are computed from its live-object map and rows.
 */
enum sa_section_id {
	SA_SEC_CALLSITE,
	SA_SEC_LIVE,
	SA_SEC_SUBSYS,
	SA_SEC_TIMELINE,
	SA_SEC_PAGES,
	SA_SEC_RECLAIM,
	SA_SEC_COMPACTION,
	SA_SEC_OOM,
	SA_SEC_VMALLOC,
	SA_SEC_PERCPU,
	SA_SEC_COVERAGE,
	SA_SEC_BUDGET,		/* not in "all" (report/agg/budget.h) */
	SA_SEC_NR,
};
#define SA_SECBIT(s)	(1u << (s))

/* Another aggregator's state while the trace is read, or NULL. */
void *sa_pipeline_state(struct sa_pipeline *p, enum sa_section_id id);

struct sa_section {
	const char *what;		/* --what name */
	const char *summary;
	const struct sa_agg *agg;
};

/* The table in report/table.c, indexed by enum sa_section_id. */
extern const struct sa_section sa_report_table[SA_SEC_NR];
#define SA_MAX_SECTIONS	SA_SEC_NR

/*
 * Parse a --what list ("callsite,live", "all") into a mask of table rows;
 * "all" is every row but budget, which is asked by name.
 * Returns 0, or -1 with *bad set to a copy of the unknown name.
 */
int sa_what_parse(const char *list, guint32 *mask, char **bad);
int sa_section_index(const char *what);

/* ---- the report model ---- */

struct sa_symbols;
struct tep_handle;

struct sa_report {
	char *file;
	struct sa_trace_origin origin;
	bool origin_known;		/* origin came from the trace options */
	guint64 first_ts, last_ts;	/* of the records read */
	guint64 nr_records;		/* every record in the file */
	guint64 nr_used;		/* records some aggregator consumed */
	guint64 ev_count[SA_EV_NR];
	bool ev_present[SA_EV_NR];	/* the format is in the trace */
	guint64 missed_events;		/* ring-buffer pages flagged lost */
	guint64 missed_pages_unknown;	/* pages lost, count unknown */
	/*
	 * Large kmallocs traced twice (6.10+: the allocator's own event,
	 * then the caller's), counted once, at the caller; known when the
	 * call-site aggregator read the trace.
	 */
	bool kmalloc_repeats_known;
	guint64 kmalloc_repeats;
	/*
	 * Kernel stacks recorded with the events (record --stacks, trace-cmd
	 * record -T), each attached to its event; those with no event (after
	 * events lost in the buffer) are counted apart.
	 */
	guint64 stacks, stacks_lost;
	GPtrArray *notes;		/* char *: what could not be computed */
	GError *error;			/* an aggregator cannot go on:
					 * the read fails with it */
	guint32 sections;		/* mask of sa_report_table rows */
	void *result[SA_MAX_SECTIONS];	/* per table row */
	/* a /proc/slab_account input (procfs/account.h): its header,
	 * shown instead of the trace-only origin fields; NULL for a trace */
	struct sa_account_head *account;
	/* a /proc/allocinfo input (procfs/allocinfo.h), shown instead of
	 * the origin; its rows' names are what the call-site rows point to.
	 * NULL for a trace */
	struct sa_allocinfo *allocinfo;
	struct sa_allocinfo_head *allocinfo_head;
	/* a saved hist file (procfs/hist.h): its rows' names are what the
	 * call-site rows point to. NULL for a trace */
	struct sa_hist *hist;
	struct sa_symbols *syms;	/* only while the trace is open */
	struct tep_handle *tep;		/* only while the trace is open */
	const struct sa_report_opts *opts;
};

/*
 * Read path with libtracecmd and run the selected sections over it.
 * Returns the report, or NULL with *err naming the file (and the offset,
 * when the damage is at a known place).
 */
struct sa_report *sa_report_read(const char *path, guint32 sections,
				 const struct sa_report_opts *opts,
				 GError **err);
void sa_report_free(struct sa_report *rep);

/*
 * The call-site section of a saved /proc/slab_account snapshot
 * (report/account.c). Returns NULL with *err naming the file, line and
 * column if path is not one.
 */
struct sa_report *sa_report_from_account(const char *path,
					 const struct sa_report_opts *opts,
					 GError **err);

/*
 * The call-site section of a saved /proc/allocinfo (report/allocinfo.c):
 * one row per allocation site (file:line and function) with live bytes
 * and allocations. Returns NULL with *err naming the file, line and
 * column if path is not one.
 */
struct sa_report *sa_report_from_allocinfo(const char *path,
					   const struct sa_report_opts *opts,
					   GError **err);

/*
 * The call-site section of a saved hist file of `boot cmdline --hist`
 * (report/hist.c): allocations and bytes per call site, counted in the
 * kernel; the histograms' Dropped as lost events. Returns NULL with *err
 * naming the file (and the line) if path is not one.
 */
struct sa_report *sa_report_from_hist(const char *path,
				      const struct sa_report_opts *opts,
				      GError **err);

/* Add a note ("kmalloc has no bytes_req: slack not computed"), once. */
void sa_report_note(struct sa_report *rep, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

/*
 * An aggregator cannot go on (a bound of the input is passed): the read
 * stops and fails with this message after the file's name. Once.
 */
void sa_report_fail(struct sa_report *rep, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

/* Whether no kmem event at all was found. */
bool sa_report_no_kmem(const struct sa_report *rep);

/*
 * The records used, by what they are: kmem's (slab and pages), vmalloc's,
 * percpu's, and the others (reclaim, compaction, OOM, boot phases).
 */
struct sa_record_kinds {
	guint64 kmem, vmalloc, percpu, other;
};
void sa_report_record_kinds(const struct sa_report *rep,
			    struct sa_record_kinds *k);
/*
 * "vmalloc and percpu", "vmalloc" or "percpu": those of the trace's
 * records, or NULL if it has neither.
 */
const char *sa_report_area_records(const struct sa_report *rep);

/* The report's GErrors: the trace reader's domain (trace/check.h). */
#define SA_REPORT_ERROR			SA_TRACE_ERROR
#define SA_REPORT_ERROR_OPEN		SA_TRACE_ERROR_OPEN
#define SA_REPORT_ERROR_FORMAT		SA_TRACE_ERROR_FORMAT
#define SA_REPORT_ERROR_VMLINUX		(SA_TRACE_ERROR_FORMAT + 1)

#endif /* SLABACCT_REPORT_H */
