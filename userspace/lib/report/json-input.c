// SPDX-License-Identifier: GPL-2.0
/*
 * Our own JSON as an input of diff and merge: a report's call-site rows
 * (report --json) and its vmalloc and percpu rows where it has those
 * sections, a /proc/slab_account's rows (account --json), or a
 * merge's medians (merge --json). The file is hostile like any input:
 * its size is bounded before it is read, its nesting before json-glib
 * parses it (util/json-read.h), every member read is checked for its
 * type, and counters must be >= 0.
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "procfs/account.h"
#include "report/diff.h"
#include "report/merge.h"
#include "util/json.h"
#include "util/json-read.h"

#define ERR(fmt, ...) g_set_error(err, SA_REPORT_ERROR,			\
				  SA_REPORT_ERROR_FORMAT, "%s: " fmt,	\
				  path, ##__VA_ARGS__)

static JsonObject *obj_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;

	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* Row i of a, or NULL if it is not an object */
static JsonObject *row_at(JsonArray *a, guint i)
{
	JsonNode *n = json_array_get_element(a, i);

	return JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static const char *str_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;

	return n && JSON_NODE_HOLDS_VALUE(n) &&
	       json_node_get_value_type(n) == G_TYPE_STRING ?
	       json_node_get_string(n) : NULL;
}

static bool bool_member(JsonObject *o, const char *k)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;

	return n && JSON_NODE_HOLDS_VALUE(n) &&
	       json_node_get_value_type(n) == G_TYPE_BOOLEAN &&
	       json_node_get_boolean(n);
}

/* An integer member: 0 if present, -1 if missing or not an integer. */
static int int_member(JsonObject *o, const char *k, gint64 *v)
{
	JsonNode *n = o ? json_object_get_member(o, k) : NULL;

	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_INT64)
		return -1;
	*v = json_node_get_int(n);
	return 0;
}

/* A counter: an integer >= 0. */
static int count_member(JsonObject *o, const char *k, guint64 *v)
{
	gint64 x;

	if (int_member(o, k, &x) || x < 0)
		return -1;
	*v = x;
	return 0;
}

static JsonArray *rows_of(JsonObject *o)
{
	JsonNode *n = o ? json_object_get_member(o, "rows") : NULL;

	return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

/* The kind of a row (enum slab_account_kind), -1 neither. */
static int kind_of(const char *k)
{
	static const char *const names[] = SLAB_ACCOUNT_KIND_NAMES;
	int i;

	for (i = 0; k && i < SLAB_ACCOUNT_NR_KINDS; i++)
		if (!strcmp(k, names[i]))
			return i;
	return -1;
}

struct rows {
	guint n;
	int *kinds;
	const char **names;
	struct sa_diff_vals *vals;
};

static void rows_alloc(struct rows *r, guint n)
{
	r->n = n;
	r->kinds = g_new0(int, n + 1);
	r->names = g_new0(const char *, n + 1);
	r->vals = g_new0(struct sa_diff_vals, n + 1);
}

static void rows_free(struct rows *r)
{
	g_free(r->kinds);
	g_free(r->names);
	g_free(r->vals);
}

/* The report's rows: sections.callsite.rows[] */
static int report_rows(JsonObject *root, const char *path, struct rows *r,
		       GError **err)
{
	JsonObject *cs = obj_member(obj_member(root, "sections"), "callsite");
	const char *by = str_member(cs, "by");
	JsonArray *a = rows_of(cs);
	gint64 hidden = 0;
	guint i;

	if (!cs || !a)
		return ERR("a report without its callsite section"), -1;
	if (by && strcmp(by, "callsite"))
		return ERR("a report --by %s: call sites are compared, not "
			   "caches", by), -1;
	if (int_member(cs, "rows_hidden", &hidden) || hidden)
		return ERR("a report cut by --top or --min-bytes (%" G_GINT64_FORMAT
			   " rows left out): write it without them", hidden),
			-1;
	rows_alloc(r, json_array_get_length(a));
	for (i = 0; i < r->n; i++) {
		JsonObject *o = row_at(a, i);
		struct sa_diff_vals *v = &r->vals[i];

		r->names[i] = str_member(o, "site");
		r->kinds[i] = kind_of(str_member(o, "kind"));
		if (!r->names[i] || r->kinds[i] < 0 ||
		    count_member(o, "allocs", &v->allocs) ||
		    count_member(o, "frees", &v->frees) ||
		    count_member(o, "bytes_alloc", &v->bytes_alloc) ||
		    count_member(o, "bytes_req", &v->bytes_req) ||
		    count_member(o, "slack", &v->slack) ||
		    int_member(o, "live", &v->live) ||
		    int_member(o, "live_bytes", &v->live_bytes))
			return ERR("callsite row %u: a site, a kind (kmalloc, "
				   "cache) and counters >= 0 expected", i), -1;
	}
	return 0;
}

static guint64 sat_add(guint64 a, guint64 b)
{
	return g_uint64_checked_add(&a, a, b) ? a : G_MAXUINT64;
}

/*
 * A report's coverage section (emit/coverage.c), if it has one with
 * slabinfo: its totals, whose rest must be slabinfo - traced.
 */
static int report_coverage(struct sa_diff_side *s, JsonObject *root,
			   const char *path, GError **err)
{
	JsonObject *sec = obj_member(obj_member(root, "sections"),
				     "coverage");
	JsonObject *tot = obj_member(sec, "totals");
	struct sa_diff_coverage c = { .known = true };
	JsonNode *n = sec ? json_object_get_member(sec, "slabinfo") : NULL;

	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_BOOLEAN ||
	    !json_node_get_boolean(n))
		return 0;	/* none, or not available */
	if (!tot || count_member(tot, "traced_bytes", &c.traced_bytes) ||
	    count_member(tot, "slab_bytes", &c.slab_bytes) ||
	    count_member(tot, "traced_objs", &c.traced_objs) ||
	    count_member(tot, "slab_objs", &c.slab_objs) ||
	    int_member(tot, "rest_bytes", &c.rest_bytes) ||
	    int_member(tot, "rest_objs", &c.rest_objs) ||
	    c.traced_bytes > G_MAXINT64 || c.slab_bytes > G_MAXINT64 ||
	    c.traced_objs > G_MAXINT64 || c.slab_objs > G_MAXINT64 ||
	    c.rest_bytes != (gint64)c.slab_bytes - (gint64)c.traced_bytes ||
	    c.rest_objs != (gint64)c.slab_objs - (gint64)c.traced_objs)
		return ERR("the coverage section's totals: traced_bytes, "
			   "slab_bytes, traced_objs, slab_objs >= 0 and "
			   "rest_bytes, rest_objs = slabinfo - traced "
			   "expected"), -1;
	s->cov = c;
	return 0;
}

/*
 * A report's vmalloc or percpu section (emit/areas.c), if it has one:
 * its rows as the trace's (site, allocs, bytes, frees, live,
 * live_bytes), which must add up to its totals. A section that is not an
 * object, has rows without having the events, more rows than
 * SA_JSON_INPUT_AREA_ROWS, a bad row or rows that do not add up is an
 * error, never skipped.
 */
static int report_area(struct sa_diff_side *s, JsonObject *root,
		       enum sa_diff_area area, const char *path,
		       const struct sa_diff_opts *o, GError **err)
{
	const char *name = sa_diff_area_name(area);
	JsonObject *secs = obj_member(root, "sections");
	JsonNode *sn = secs ? json_object_get_member(secs, name) : NULL;
	JsonObject *sec, *tot;
	JsonNode *pn;
	JsonArray *a;
	struct sa_diff_vals sum = { 0 }, want = { 0 };
	struct rows r = { 0 };
	guint64 live = 0, live_bytes = 0;
	guint i;

	if (!sn)
		return 0;	/* report --what without it */
	sec = JSON_NODE_HOLDS_OBJECT(sn) ? json_node_get_object(sn) : NULL;
	pn = sec ? json_object_get_member(sec, "present") : NULL;
	a = rows_of(sec);
	tot = obj_member(sec, "totals");
	if (!pn || !JSON_NODE_HOLDS_VALUE(pn) ||
	    json_node_get_value_type(pn) != G_TYPE_BOOLEAN || !a || !tot)
		return ERR("the %s section: an object with present, totals "
			   "and rows expected", name), -1;
	if (json_array_get_length(a) > SA_JSON_INPUT_AREA_ROWS)
		return ERR("the %s section has %u rows, more than %u",
			   name, json_array_get_length(a),
			   SA_JSON_INPUT_AREA_ROWS), -1;
	if (!json_node_get_boolean(pn)) {
		if (json_array_get_length(a))
			return ERR("the %s section has rows but not its "
				   "events (present: false)", name), -1;
		return 0;
	}
	if (count_member(tot, "allocs", &want.allocs) ||
	    count_member(tot, "bytes", &want.bytes_alloc) ||
	    count_member(tot, "frees", &want.frees) ||
	    count_member(tot, "live", &live) ||
	    count_member(tot, "live_bytes", &live_bytes))
		return ERR("the %s section's totals: allocs, bytes, frees, "
			   "live and live_bytes >= 0 expected", name), -1;
	rows_alloc(&r, json_array_get_length(a));
	for (i = 0; i < r.n; i++) {
		JsonObject *x = row_at(a, i);
		struct sa_diff_vals *v = &r.vals[i];
		guint64 l = 0, lb = 0;

		r.names[i] = str_member(x, "site");
		r.kinds[i] = sa_diff_area_kind(area);
		if (!r.names[i] || !*r.names[i] ||
		    strlen(r.names[i]) > SA_JSON_INPUT_NAME_MAX ||
		    count_member(x, "allocs", &v->allocs) ||
		    count_member(x, "bytes", &v->bytes_alloc) ||
		    count_member(x, "frees", &v->frees) ||
		    count_member(x, "live", &l) ||
		    count_member(x, "live_bytes", &lb)) {
			rows_free(&r);
			return ERR("%s row %u: a site (at most %d bytes) and "
				   "counters >= 0 expected", name, i,
				   SA_JSON_INPUT_NAME_MAX), -1;
		}
		v->live = l;
		v->live_bytes = lb;
		sum.allocs = sat_add(sum.allocs, v->allocs);
		sum.bytes_alloc = sat_add(sum.bytes_alloc, v->bytes_alloc);
		sum.frees = sat_add(sum.frees, v->frees);
		sum.live = sat_add(sum.live, l);
		sum.live_bytes = sat_add(sum.live_bytes, lb);
	}
	want.live = live;
	want.live_bytes = live_bytes;
	if (memcmp(&sum, &want, sizeof(sum))) {
		rows_free(&r);
		return ERR("the %s section's rows do not add up to its "
			   "totals (cut or altered)", name), -1;
	}
	s->area[area].traced = true;
	sa_diff_side_add_rows(s, r.n, r.kinds, r.names, r.vals, o->by);
	rows_free(&r);
	return 0;
}

/*
 * A head's number keys (uapi/slab_account.h's SLAB_ACCOUNT_KEYS), each
 * read if there; a group of keys a file may not have is known when all
 * of its keys are there (else they are 0).
 */
#define KNOWN_REQUIRED		TRUE
#define KNOWN_REPEATS		h->kmalloc_repeats_known
#define KNOWN_UNATTRIBUTED	h->unattributed_known
#define KNOWN_SLOW		h->slow_known
#define MISSING_REQUIRED	(void)0
#define MISSING_REPEATS		(KNOWN_REPEATS = FALSE)
#define MISSING_UNATTRIBUTED	(KNOWN_UNATTRIBUTED = FALSE)
#define MISSING_SLOW		(KNOWN_SLOW = FALSE)
#define HEAD_READ_U64(name, group) \
	if (count_member(o, #name, &h->name)) \
		MISSING_##group;
#define HEAD_READ_S64(name, group) \
	if (int_member(o, #name, &h->name)) \
		MISSING_##group;
#define HEAD_READ_WORD(name, group)
#define HEAD_READ_SLOT(name, group)
#define HEAD_READ(name, type, since, group)	HEAD_READ_##type(name, group)
#define HEAD_FORGET_U64(name, group) \
	if (!KNOWN_##group) \
		h->name = 0;
#define HEAD_FORGET_S64		HEAD_FORGET_U64
#define HEAD_FORGET_WORD(name, group)
#define HEAD_FORGET_SLOT(name, group)
#define HEAD_FORGET(name, type, since, group)	HEAD_FORGET_##type(name, group)

/* What a /proc/slab_account input's header says (report's "input", or
 * the account JSON's root). */
static void account_head(JsonObject *o, struct sa_diff_side *s)
{
	struct sa_account_head *h = g_new0(struct sa_account_head, 1);
	const char *slot = str_member(o, "cache_slot_size");
	gint64 v = 0;

	if (!int_member(o, "format_version", &v))
		h->version = v;
	h->cache_slot_exact = slot ? !strcmp(slot, "exact") :
		bool_member(o, "cache_slot_exact");
	h->kmalloc_repeats_known = h->unattributed_known = h->slow_known =
		TRUE;
	SLAB_ACCOUNT_KEYS(HEAD_READ)
	SLAB_ACCOUNT_KEYS(HEAD_FORGET)
	s->account = h;
	s->source = "account";
}

/*
 * A report's lost.truncated, or a merge's run's truncated: {why, at_ns}
 * (at_ns null when not known). A member that is there but not of that
 * shape is an error, never read as complete.
 */
static int truncated_of(struct sa_diff_side *s, JsonObject *lost,
			const char *path, GError **err)
{
	JsonNode *n = lost ? json_object_get_member(lost, "truncated") : NULL;
	JsonObject *t = obj_member(lost, "truncated");
	const char *why;
	JsonNode *at;

	if (!n)
		return 0;
	if (!t)
		return ERR("lost.truncated: an object expected"), -1;
	why = str_member(t, "why");
	at = json_object_get_member(t, "at_ns");
	if (!why || !at)
		return ERR("lost.truncated: a why and an at_ns expected"), -1;
	if (!JSON_NODE_HOLDS_NULL(at)) {
		if (count_member(t, "at_ns", &s->truncated_ns))
			return ERR("lost.truncated: at_ns must be a count "
				   ">= 0 or null"), -1;
		s->truncated_at_known = true;
	}
	g_free(s->truncated);
	s->truncated = g_strdup(why);
	return 0;
}

static int load_report(struct sa_diff_side *s, JsonObject *root,
		       const char *path, const struct sa_diff_opts *o,
		       GError **err)
{
	JsonObject *input = obj_member(root, "input");
	JsonObject *lost = obj_member(root, "lost");
	struct rows r = { 0 };

	if (report_rows(root, path, &r, err)) {
		rows_free(&r);
		return -1;
	}
	if (input) {
		account_head(input, s);
	} else {
		s->source = "trace";
		s->kernel = g_strdup(str_member(obj_member(root, "origin"),
						"kernel_release"));
		if (bool_member(lost, "known"))
			s->lost_known = !count_member(lost, "events", &s->lost);
		if (truncated_of(s, lost, path, err)) {
			rows_free(&r);
			return -1;
		}
	}
	sa_diff_side_add_rows(s, r.n, r.kinds, r.names, r.vals, o->by);
	rows_free(&r);
	if (report_area(s, root, SA_DIFF_AREA_VMALLOC, path, o, err) ||
	    report_area(s, root, SA_DIFF_AREA_PERCPU, path, o, err) ||
	    report_coverage(s, root, path, err))
		return -1;
	return 0;
}

/* account --json: rows of total, slack, req, live, objs, allocs, frees */
static int load_account_json(struct sa_diff_side *s, JsonObject *root,
			     const char *path, const struct sa_diff_opts *o,
			     GError **err)
{
	JsonArray *a = rows_of(root);
	struct rows r = { 0 };
	guint i;

	if (!a)
		return ERR("a /proc/slab_account JSON without rows"), -1;
	rows_alloc(&r, json_array_get_length(a));
	for (i = 0; i < r.n; i++) {
		JsonObject *x = row_at(a, i);
		struct sa_diff_vals *v = &r.vals[i];

		r.names[i] = str_member(x, "caller");
		r.kinds[i] = kind_of(str_member(x, "kind"));
		if (!r.names[i] || r.kinds[i] < 0 ||
		    count_member(x, "total", &v->bytes_alloc) ||
		    count_member(x, "slack", &v->slack) ||
		    count_member(x, "req", &v->bytes_req) ||
		    count_member(x, "allocs", &v->allocs) ||
		    count_member(x, "frees", &v->frees) ||
		    int_member(x, "live", &v->live_bytes) ||
		    int_member(x, "objs", &v->live)) {
			rows_free(&r);
			return ERR("row %u: a caller, a kind (kmalloc, cache) "
				   "and counters >= 0 expected", i), -1;
		}
	}
	account_head(root, s);
	sa_diff_side_add_rows(s, r.n, r.kinds, r.names, r.vals, o->by);
	rows_free(&r);
	return 0;
}

/* One measure's median of a merge's row or totals. */
static int median_of(JsonObject *o, int m, guint64 *v)
{
	return count_member(obj_member(o, sa_merge_measure_name(m)), "median",
			    v);
}

static int medians(JsonObject *o, struct sa_diff_vals *v)
{
	guint64 live = 0, live_bytes = 0;

	if (median_of(o, SA_MERGE_ALLOCS, &v->allocs) ||
	    median_of(o, SA_MERGE_FREES, &v->frees) ||
	    median_of(o, SA_MERGE_BYTES, &v->bytes_alloc) ||
	    median_of(o, SA_MERGE_REQ, &v->bytes_req) ||
	    median_of(o, SA_MERGE_SLACK, &v->slack) ||
	    median_of(o, SA_MERGE_LIVE, &live) ||
	    median_of(o, SA_MERGE_LIVE_BYTES, &live_bytes))
		return -1;
	v->live = live > G_MAXINT64 ? G_MAXINT64 : (gint64)live;
	v->live_bytes = live_bytes > G_MAXINT64 ? G_MAXINT64 :
			(gint64)live_bytes;
	return 0;
}

/*
 * merge --json as a baseline: each site is its median run, and so are
 * the totals (the median of the runs' totals, not the sum of the sites'
 * medians). A site with a median of 0 (in fewer than half the runs) is
 * not in the baseline: in B it is new.
 */
static int load_merge(struct sa_diff_side *s, JsonObject *root,
		      const char *path, const struct sa_diff_opts *o,
		      GError **err)
{
	const char *by = str_member(root, "by");
	JsonObject *lost = obj_member(root, "lost");
	JsonArray *a = rows_of(root), *runs;
	struct sa_diff_vals total = { 0 };
	struct rows r = { 0 };
	gint64 hidden = 0;
	guint i, n = 0;
	JsonNode *rn = json_object_get_member(root, "runs");

	runs = rn && JSON_NODE_HOLDS_ARRAY(rn) ? json_node_get_array(rn) : NULL;
	if (!a || !runs || !json_array_get_length(runs) ||
	    medians(obj_member(root, "totals"), &total))
		return ERR("a merge without its runs, totals or rows"), -1;
	if (!by || strcmp(by, o->by == SA_DIFF_BY_FUNCTION ? "function" :
			  "site"))
		return ERR("merged by %s: compare it --by %s", by ? by : "?",
			   by ? by : "site"), -1;
	if (int_member(root, "rows_hidden", &hidden) || hidden)
		return ERR("a merge cut by --top (%" G_GINT64_FORMAT " rows "
			   "left out): merge without it for a baseline",
			   hidden), -1;
	rows_alloc(&r, json_array_get_length(a));
	for (i = 0; i < r.n; i++) {
		JsonNode *x = json_array_get_element(a, i);
		JsonObject *ro = JSON_NODE_HOLDS_OBJECT(x) ?
				 json_node_get_object(x) : NULL;
		int kind = kind_of(str_member(ro, "kind"));
		const char *name = str_member(ro, "site");
		struct sa_diff_vals v = { 0 };

		if (!name || kind < 0 || medians(ro, &v)) {
			rows_free(&r);
			return ERR("row %u: a site, a kind (kmalloc, cache) "
				   "and each measure's median expected", i),
				-1;
		}
		if (!memcmp(&v, &(struct sa_diff_vals){ 0 }, sizeof(v)))
			continue;	/* not in the median run */
		r.kinds[n] = kind;
		r.names[n] = name;
		r.vals[n++] = v;
	}
	s->source = "merge";
	s->runs = json_array_get_length(runs);
	s->kernel = g_strdup(str_member(root, "kernel_release"));
	if (bool_member(lost, "known"))
		s->lost_known = !count_member(lost, "events", &s->lost);
	/* runs that stopped early: the baseline's figures are incomplete */
	for (i = 0; i < s->runs; i++) {
		JsonNode *x = json_array_get_element(runs, i);
		/* any value there marks the run: never read as complete */
		if (JSON_NODE_HOLDS_OBJECT(x) &&
		    json_object_has_member(json_node_get_object(x),
					   "truncated"))
			s->truncated_runs++;
	}
	if (s->truncated_runs)
		s->truncated = g_strdup_printf("%u of its %u runs stopped "
					       "early", s->truncated_runs,
					       s->runs);
	sa_diff_side_add_rows(s, n, r.kinds, r.names, r.vals, o->by);
	s->total = total;
	rows_free(&r);
	return 0;
}

/* report --json or account --json of a /proc/allocinfo snapshot */
static bool allocinfo_json(JsonObject *root)
{
	static const char kind[] = "/proc/allocinfo";
	JsonNode *in = root ? json_object_get_member(root, "input") : NULL;

	if (!in)
		return false;
	if (JSON_NODE_HOLDS_VALUE(in) &&
	    json_node_get_value_type(in) == G_TYPE_STRING)
		return !strcmp(json_node_get_string(in), kind);
	return JSON_NODE_HOLDS_OBJECT(in) &&
	       !g_strcmp0(str_member(json_node_get_object(in), "kind"), kind);
}

int sa_diff_side_load_json(struct sa_diff_side *s, const char *path,
			   const char *text, gsize len,
			   const struct sa_diff_opts *o, GError **err)
{
	JsonNode *node;
	JsonObject *root;
	const char *tool;
	GError *e = NULL;
	gint64 schema = 0;
	int ret = -1;

	node = sa_json_read(text, len, path, &e);
	if (!node) {
		g_set_error_literal(err, SA_REPORT_ERROR,
				    SA_REPORT_ERROR_FORMAT, e->message);
		g_error_free(e);
		return -1;
	}
	root = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	tool = str_member(root, "tool");
	if (int_member(root, "schema_version", &schema) ||
	    schema != SA_JSON_SCHEMA_VERSION) {
		ERR("not slabacct's JSON of schema_version %d",
		    SA_JSON_SCHEMA_VERSION);
		goto out;
	}
	if (allocinfo_json(root)) {
		ERR("the JSON of a /proc/allocinfo snapshot, live figures "
		    "only: diff reads two saved /proc/allocinfo themselves");
		goto out;
	}
	if (tool && !strcmp(tool, "slabacct report"))
		ret = load_report(s, root, path, o, err);
	else if (tool && !strcmp(tool, "slabacct merge"))
		ret = load_merge(s, root, path, o, err);
	else if (!tool && json_object_has_member(root, "format_version"))
		ret = load_account_json(s, root, path, o, err);
	else
		ERR("JSON of '%s', not of slabacct report, merge or account",
		    tool ? tool : "?");
out:
	json_node_unref(node);
	return ret;
}
