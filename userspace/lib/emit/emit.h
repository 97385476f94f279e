/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emitters: they format a finished report and compute nothing. Each
 * format has a frame, emit/frame-<format>.c (the header: origin, lost
 * events, notes; its table of section writers; the footer), and one
 * writer per report section (named in sa_report_table[]). A section's
 * writers in every format share one file, emit/<section>.c, as its
 * aggregator has report/agg/<section>.c.
 *   text  under 80 columns by default
 *   json  one object through json-glib, with schema_version
 *   csv   "# key: value" header lines, then one table per section whose
 *         first column is the section name, with stable column names
 */
#ifndef SLABACCT_EMIT_H
#define SLABACCT_EMIT_H

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "report/agg/callsite.h"
#include "util/escape.h"
#include "util/json.h"
#include "report/report.h"
#include "util/units.h"

enum sa_format {
	SA_FMT_TEXT,
	SA_FMT_JSON,
	SA_FMT_CSV,
	SA_FMT_ACCOUNT,		/* the /proc/slab_account layout */
	SA_FMT_HTML,		/* the JSON model in a self-contained page */
	SA_FMT_OPENMETRICS,	/* metrics: OpenMetrics 1.0 text */
	SA_FMT_PROMETHEUS,	/* metrics: Prometheus text 0.0.4 */
	SA_FMT_FOLDED,		/* stacks, folded: emit/folded.c */
};

/* The weight of a folded stack: the --sort key of the same name. */
enum sa_fold_key {
	SA_FOLD_BYTES,		/* bytes allocated */
	SA_FOLD_HITS,		/* allocations */
	SA_FOLD_LIVE,		/* live bytes at the end */
	SA_FOLD_SLACK,		/* bytes allocated - requested */
	SA_FOLD_NR,
};
int sa_fold_key_parse(const char *s, enum sa_fold_key *key);

/*
 * Text under the width: between sa_text_begin and sa_text_end, e->out is
 * a buffer, written to the real output folded to e->width
 * (util/textfold.h). Both return 0, or -1 (errno).
 */
struct sa_text_buf {
	FILE *out;
	char *buf;
	size_t len;
};

struct sa_emit {
	enum sa_format fmt;
	FILE *out;
	int width;		/* text: columns (80) */
	bool verbose;		/* text: every column, second line per row */
	JsonBuilder *jb;	/* json: inside the "sections" object */
	struct sa_text_buf tb;	/* text: the report being folded */
	enum sa_fold_key fold_key;	/* folded: the weight */
};
int sa_text_begin(struct sa_emit *e, struct sa_text_buf *t);
int sa_text_end(struct sa_emit *e, struct sa_text_buf *t);

/* Parse "text", "json", "csv", "account", "html", "openmetrics",
 * "prometheus". -1 if unknown. */
int sa_format_parse(const char *s, enum sa_format *fmt);

/*
 * Write rep in e->fmt to e->out: the header, then the sections of
 * rep->sections in table order. Returns 0 or -1 (errno) on a write error.
 */
int sa_emit_report(struct sa_emit *e, const struct sa_report *rep);

/* A section's writer in one format. */
typedef void (*sa_emit_fn)(struct sa_emit *e, const struct sa_report *rep,
			   const void *result);

/*
 * An output format of the report: sa_emit_report calls begin (the
 * header), the writer of each selected section from sections[] (NULL: the
 * format writes the whole report in begin), then end. begin and end
 * return 0 or -1 (errno). A new format is one emitter file that defines
 * its struct sa_format_ops, and its row in emit.c's table.
 */
struct sa_format_ops {
	const char *name;	/* --format NAME */
	int (*begin)(struct sa_emit *e, const struct sa_report *rep);
	const sa_emit_fn *sections;	/* [SA_SEC_NR], or NULL */
	int (*end)(struct sa_emit *e, const struct sa_report *rep);
};
extern const struct sa_format_ops sa_format_text, sa_format_json,
	sa_format_csv, sa_format_account, sa_format_html,
	sa_format_openmetrics, sa_format_prometheus, sa_format_folded;

/* The section writers of each format, by enum sa_section_id. */
extern const sa_emit_fn sa_text_sections[SA_SEC_NR];
extern const sa_emit_fn sa_json_sections[SA_SEC_NR];
extern const sa_emit_fn sa_csv_sections[SA_SEC_NR];

/* The emitters of each section, by format. */
void sa_text_header(struct sa_emit *e, const struct sa_report *rep);
void sa_text_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);
void sa_text_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result);
void sa_text_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result);
void sa_text_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);

void sa_json_header(struct sa_emit *e, const struct sa_report *rep);
void sa_json_callsite(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);
void sa_json_live(struct sa_emit *e, const struct sa_report *rep,
		  const void *result);
void sa_json_subsys(struct sa_emit *e, const struct sa_report *rep,
		    const void *result);
void sa_json_timeline(struct sa_emit *e, const struct sa_report *rep,
		      const void *result);
/* Serialize the builder's root to e->out. */
int sa_json_write(struct sa_emit *e);
/* The report's JSON model around its sections (json and html). */
int sa_json_model_begin(struct sa_emit *e, const struct sa_report *rep);
void sa_json_model_end(struct sa_emit *e);
/* Member k of the open object, opened as an array or an object. */
void sa_json_begin_member(JsonBuilder *b, const char *k, bool array);

void sa_csv_header(struct sa_emit *e, const struct sa_report *rep);
void sa_csv_callsite(struct sa_emit *e, const struct sa_report *rep,
		     const void *result);
void sa_csv_live(struct sa_emit *e, const struct sa_report *rep,
		 const void *result);
void sa_csv_subsys(struct sa_emit *e, const struct sa_report *rep,
		   const void *result);
void sa_csv_timeline(struct sa_emit *e, const struct sa_report *rep,
		     const void *result);
/* A CSV field, quoted when it needs to be. */
void sa_csv_str(FILE *f, const char *s);

/* Text: s as the last column of a line whose first used columns are
 * taken, cut with '~' to the width (e->width, 0 = no limit), keeping
 * its " <- caller" or " [module]" end where they leave room. */
void sa_text_tail_name(const struct sa_emit *e, int used, const char *s);
/* Text: "at FILE:LINE" (or "in FILE" without a line) on a line of its
 * own, indented; a path too long for the width loses its beginning. */
void sa_text_where(const struct sa_emit *e, int indent, const char *file,
		   int line);
/* Text: a line cut at the width with '~' (line is changed). */
void sa_text_put_cut(struct sa_emit *e, char *line);
/* Text: ns as seconds with six decimals. */
void sa_text_put_secs(FILE *f, guint64 ns);

void sa_account_emit(struct sa_emit *e, const struct sa_report *rep);

/*
 * The call-site view of rep as metrics (emit/openmetrics.c): OpenMetrics
 * (SA_FMT_OPENMETRICS) or the Prometheus text format (SA_FMT_PROMETHEUS)
 * of node_exporter's textfile collector; what the view leaves out is one
 * site="other" series per kind.
 */
void sa_openmetrics_emit(struct sa_emit *e, const struct sa_report *rep);
/* slabacct merge as metrics: one summary per measure and site. */
struct sa_merge;
int sa_openmetrics_emit_merge(struct sa_emit *e, const struct sa_merge *m);

/*
 * The header of a /proc/slab_account input (emit/input.c), in place of a
 * trace's origin: text lines starting with lead ("# "), JSON's "input"
 * member, CSV "# key: value" lines whose keys start with prefix.
 */
struct sa_account_head;
void sa_text_account_head(FILE *f, const char *lead,
			  const struct sa_account_head *h);
void sa_json_account_head(JsonBuilder *b, const struct sa_account_head *h);
/* The slow_* keys (SLAB_ACCOUNT_SLOW_KEYS) into the open object, if known */
void sa_json_account_slow(JsonBuilder *b, const struct sa_account_head *h);
void sa_csv_account_head(FILE *f, const char *prefix,
			 const struct sa_account_head *h);

/*
 * The header of a /proc/allocinfo input (emit/input.c), likewise: its
 * format version and how many sites it has, live and marked inaccurate.
 */
struct sa_allocinfo_head;
void sa_text_allocinfo_head(FILE *f, const char *lead,
			    const struct sa_allocinfo_head *h);
void sa_json_allocinfo_head(JsonBuilder *b,
			    const struct sa_allocinfo_head *h);
void sa_csv_allocinfo_head(FILE *f, const char *prefix,
			   const struct sa_allocinfo_head *h);

/*
 * HTML (emit/html.c): the page around a JSON model (a report's or a
 * diff's), or around e->jb's root like sa_json_write (which it frees).
 */
int sa_html_page(FILE *out, JsonNode *model, const char *title);
int sa_html_write(struct sa_emit *e);

/* slabacct diff in e->fmt (text, json or csv). Returns 0 or -1. */
struct sa_diff;
int sa_emit_diff(struct sa_emit *e, const struct sa_diff *d);

/* slabacct merge in e->fmt (text, json, csv or html; emit/merge.c). */
struct sa_merge;
int sa_emit_merge(struct sa_emit *e, const struct sa_merge *m);

#endif /* SLABACCT_EMIT_H */
