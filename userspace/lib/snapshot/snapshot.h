/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A system snapshot: the raw text of the files the classic memory tools
 * read (free, vmstat, slabtop, pmap, swapon, sar, PSI, dmesg), captured
 * from a root directory ("/" on a live system, or a copied tree in the
 * tests), so that it can be stored in a trace and parsed again later.
 *
 * Two sources are not a file's text but a compact table built at capture
 * time: the /sys/kernel/slab attributes (one line per cache) and the
 * per-process memory (one line per process, from smaps_rollup or status).
 * The kernel log keeps only its OOM-killer lines.
 *
 * Parsing and computing live in one file per source (procfs/meminfo.h,
 * procfs/vmstat.h, procfs/slabinfo.h, procfs/buddyinfo.h, ...);
 * view.h puts them together.
 */
#ifndef SLABACCT_SNAPSHOT_H
#define SLABACCT_SNAPSHOT_H

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "snapshot/budget.h"
#include "util/json.h"


enum sa_snap_source {
	SA_SRC_MEMINFO,		/* /proc/meminfo */
	SA_SRC_VMSTAT,		/* /proc/vmstat */
	SA_SRC_SLABINFO,	/* /proc/slabinfo */
	SA_SRC_SLAB_SYSFS,	/* /sys/kernel/slab, as a table */
	SA_SRC_BUDDYINFO,	/* /proc/buddyinfo */
	SA_SRC_PAGETYPEINFO,	/* /proc/pagetypeinfo */
	SA_SRC_ZONEINFO,	/* /proc/zoneinfo */
	SA_SRC_SWAPS,		/* /proc/swaps */
	SA_SRC_PSI,		/* /proc/pressure/memory */
	SA_SRC_PROCS,		/* /proc/PID/{smaps_rollup,status}, a table */
	SA_SRC_OOMLOG,		/* OOM lines of /dev/kmsg */
	SA_SRC_NR,
};

/* A /proc/vmstat reading at a moment, for the rates of --interval. */
struct sa_snap_sample {
	double uptime;		/* seconds, from /proc/uptime */
	char *vmstat;
};

struct sa_snapshot {
	gint64 wall_time;	/* microseconds since the epoch */
	double uptime;		/* /proc/uptime, or -1 if unknown */
	char *release;		/* kernel release, or NULL */
	char *root;		/* where it was captured from */
	long page_size;
	char *text[SA_SRC_NR];	/* raw text; NULL if not available */
	char *why[SA_SRC_NR];	/* why not available, when text is NULL */
	GArray *samples;	/* struct sa_snap_sample, oldest first (may
				 * be NULL in a hand-made snapshot) */
	/*
	 * The RAM budget's sources (budget.h), as captured; NULL when the
	 * snapshot has none (sa_snapshot_capture does not take them: the
	 * recorder's snapshot adds them; older traces lack them). JSON
	 * member "budget": {"page_size", "sources": {name: text},
	 * "missing": {name: why}}.
	 */
	struct sa_budget_input *budget;
};

/* "meminfo", "slab_sysfs", ... (stable: used as JSON keys). */
const char *sa_snap_source_name(enum sa_snap_source src);
/* The path it is read from, relative to the root: "proc/meminfo". */
const char *sa_snap_source_path(enum sa_snap_source src);
/* -1 if unknown */
int sa_snap_source_from_name(const char *name);

/*
 * Capture every source under root ("/" for the live system). A source
 * that cannot be read is recorded as not available, with the reason;
 * that is not an error. Returns NULL with *err only if root itself is
 * unusable.
 */
struct sa_snapshot *sa_snapshot_capture(const char *root, GError **err);

/* Append a vmstat sample read now from root. -1 with *err on failure. */
int sa_snapshot_add_sample(struct sa_snapshot *snap, const char *root,
			   GError **err);

void sa_snapshot_free(struct sa_snapshot *snap);

/* Serialize (raw texts and all) to a JSON object, and back. */
JsonNode *sa_snapshot_to_node(const struct sa_snapshot *snap);
struct sa_snapshot *sa_snapshot_from_node(JsonNode *node, GError **err);
/*
 * The same as JSON text (g_free it); the form stored in a trace. The text
 * is read through the one JSON reader (util/json-read.h), name naming it
 * in errors.
 */
char *sa_snapshot_to_json(const struct sa_snapshot *snap, bool pretty);
struct sa_snapshot *sa_snapshot_from_json(const char *text, const char *name,
					  GError **err);
/*
 * A snapshot of the running system, with the RAM budget's sources, as
 * JSON text (g_free), or NULL: what the recorder stores in a trace.
 */
char *sa_snapshot_capture_json(void);

#endif /* SLABACCT_SNAPSHOT_H */
