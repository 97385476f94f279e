// SPDX-License-Identifier: GPL-2.0
/* slabacct diff --fail-on: the rules' grammar, and judging a diff. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "report/threshold.h"

static const char *const scope_names[] = {
	[SA_THRESHOLD_TOTAL] = "total",
	[SA_THRESHOLD_SITE] = "site",
	[SA_THRESHOLD_NEW_SITE] = "new-site",
	[SA_THRESHOLD_VMALLOC_TOTAL] = "vmalloc-total",
	[SA_THRESHOLD_PERCPU_TOTAL] = "percpu-total",
};

bool sa_threshold_is_total(enum sa_threshold_scope scope)
{
	return scope == SA_THRESHOLD_TOTAL ||
	       scope == SA_THRESHOLD_VMALLOC_TOTAL ||
	       scope == SA_THRESHOLD_PERCPU_TOTAL;
}

const char *sa_threshold_scope_name(enum sa_threshold_scope scope)
{
	return scope < G_N_ELEMENTS(scope_names) ? scope_names[scope] : "?";
}

/* The area of a vmalloc-total or percpu-total rule, else -1. */
static int area_of(enum sa_threshold_scope scope)
{
	return scope == SA_THRESHOLD_VMALLOC_TOTAL ? SA_DIFF_AREA_VMALLOC :
	       scope == SA_THRESHOLD_PERCPU_TOTAL ? SA_DIFF_AREA_PERCPU : -1;
}

static const char *const measure_names[] = {
	[SA_DIFF_SORT_BYTES] = "bytes",
	[SA_DIFF_SORT_SLACK] = "slack",
	[SA_DIFF_SORT_ALLOCS] = "allocs",
	[SA_DIFF_SORT_LIVE] = "live",
};

const char *sa_threshold_measure_name(enum sa_diff_sort m)
{
	return m < G_N_ELEMENTS(measure_names) ? measure_names[m] : "?";
}

static int bad(GError **err, const char *rule, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static int bad(GError **err, const char *rule, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "rule '%s': %s", rule, why);
	g_free(why);
	return -1;
}

/* "+64K", "16K", "10%", "+2.5%", "1M" */
static int parse_limit(const char *s, const char *rule,
		       struct sa_threshold_limit *l, GError **err)
{
	static const struct { char c; double mul; } units[] = {
		{ 'K', 1024.0 }, { 'M', 1048576.0 },
		{ 'G', 1073741824.0 }, { 'T', 1099511627776.0 },
	};
	const char *p = s;
	char *end;
	double v;
	guint i;

	if (*p == '+')
		p++;
	if (!g_ascii_isdigit(*p))
		return bad(err, rule, "'%s' is not a limit (a size such as "
			   "+64K, or a percentage such as +10%%)", s);
	v = g_ascii_strtod(p, &end);
	if (!isfinite(v) || v < 0 || end == p)
		return bad(err, rule, "'%s' is not a number", s);
	memset(l, 0, sizeof(*l));
	if (!strcmp(end, "%")) {
		if (v > 1e9)
			return bad(err, rule, "'%s': at most 1000000000%%", s);
		l->pct = true;
		l->percent = v;
		return 0;
	}
	if (*end) {
		for (i = 0; i < G_N_ELEMENTS(units); i++)
			if (g_ascii_toupper(*end) == units[i].c)
				break;
		if (i == G_N_ELEMENTS(units) || end[1])
			return bad(err, rule, "'%s': unknown unit '%s' (K, M, "
				   "G, T: powers of 1024; or %%)", s, end);
		v *= units[i].mul;
	}
	if (v >= 18446744073709551615.0)
		return bad(err, rule, "'%s' is too large", s);
	l->amount = (guint64)v;
	return 0;
}

static int parse_rule(const char *text, struct sa_threshold *r,
		      GError **err)
{
	char *colon = strchr(text, ':'), *what, *slash, **lims = NULL;
	int ret = -1;
	guint i;

	memset(r, 0, sizeof(*r));
	if (!colon || colon == text || !colon[1])
		return bad(err, text, "expected SCOPE:LIMIT, e.g. "
			   "total:+64K or site:+10%%");
	what = g_strndup(text, colon - text);
	slash = strchr(what, '/');
	if (slash)
		*slash++ = '\0';
	g_strstrip(what);
	if (slash)
		g_strstrip(slash);
	for (i = 0; i < G_N_ELEMENTS(scope_names); i++)
		if (!strcmp(what, scope_names[i]))
			break;
	if (i == G_N_ELEMENTS(scope_names)) {
		bad(err, text, "unknown scope '%s' (total, vmalloc-total, "
		    "percpu-total, site, new-site)", what);
		goto out;
	}
	r->scope = i;
	r->measure = SA_DIFF_SORT_BYTES;
	if (slash && sa_diff_sort_parse(slash, &r->measure)) {
		bad(err, text, "unknown measure '%s' (bytes, slack, allocs, "
		    "live)", slash);
		goto out;
	}
	if (area_of(r->scope) >= 0 && r->measure == SA_DIFF_SORT_SLACK) {
		bad(err, text, "%s has no slack (a vmap area or a percpu "
		    "chunk is the size asked): bytes, allocs or live",
		    scope_names[r->scope]);
		goto out;
	}
	lims = g_strsplit(colon + 1, "&", -1);
	for (i = 0; lims[i]; i++) {
		struct sa_threshold_limit *l = &r->limit[i];

		if (i == SA_THRESHOLD_MAX_LIMITS) {
			bad(err, text, "at most %d limits joined by '&'",
			    SA_THRESHOLD_MAX_LIMITS);
			goto out;
		}
		if (parse_limit(g_strstrip(lims[i]), text, l, err))
			goto out;
		if (l->pct && r->scope == SA_THRESHOLD_NEW_SITE) {
			bad(err, text, "a new site has nothing to grow from: "
			    "give a size (new-site:16K), not a percentage");
			goto out;
		}
		r->n_limits++;
	}
	r->text = g_strdup(text);
	ret = 0;
out:
	g_strfreev(lims);
	g_free(what);
	return ret;
}

int sa_thresholds_parse(const char *s, struct sa_thresholds *t,
			GError **err)
{
	char **rules = g_strsplit(s, ",", -1);
	int ret = -1;
	guint i;

	memset(t, 0, sizeof(*t));
	for (i = 0; rules[i]; i++) {
		char *r = g_strstrip(rules[i]);

		if (!*r) {
			g_set_error(err, G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE, "rule %u is "
				    "empty (rules are separated by ',')",
				    i + 1);
			goto out;
		}
		if (t->n == SA_THRESHOLD_MAX_RULES) {
			g_set_error(err, G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE, "at most %d "
				    "rules", SA_THRESHOLD_MAX_RULES);
			goto out;
		}
		if (parse_rule(r, &t->rule[t->n], err))
			goto out;
		t->n++;
	}
	if (!t->n) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "no rule given (e.g. total:+64K)");
		goto out;
	}
	ret = 0;
out:
	g_strfreev(rules);
	if (ret)
		sa_thresholds_clear(t);
	return ret;
}

void sa_thresholds_clear(struct sa_thresholds *t)
{
	guint i;

	for (i = 0; i < t->n; i++)
		g_free(t->rule[i].text);
	memset(t, 0, sizeof(*t));
}

/* A value of vals as the measure: live figures below 0 count 0. */
static guint64 value_of(const struct sa_diff_vals *v, enum sa_diff_sort m)
{
	switch (m) {
	case SA_DIFF_SORT_SLACK:
		return v->slack;
	case SA_DIFF_SORT_ALLOCS:
		return v->allocs;
	case SA_DIFF_SORT_LIVE:
		return v->live_bytes > 0 ? (guint64)v->live_bytes : 0;
	default:
		return v->bytes_alloc;
	}
}

int sa_thresholds_judgeable(const struct sa_thresholds *t,
			    const struct sa_diff *d, GError **err)
{
	guint i;
	int k;

	for (i = 0; i < t->n; i++) {
		int a = area_of(t->rule[i].scope);

		for (k = 0; a >= 0 && k < 2; k++) {
			const struct sa_diff_side *s = &d->side[k];
			const char *name = sa_diff_area_name(a);

			if (s->area[a].traced)
				continue;
			g_set_error(err, SA_REPORT_ERROR,
				    SA_REPORT_ERROR_FORMAT, "--fail-on rule "
				    "'%s': %s (%c) has no %s figures (record "
				    "-e %s): nothing to judge",
				    t->rule[i].text, s->file ? s->file : "?",
				    'A' + k, name, name);
			return -1;
		}
	}
	return 0;
}

/* Whether growing from a to b exceeds every limit of r. */
static bool crosses(const struct sa_threshold *r, guint64 a, guint64 b)
{
	int i;

	if (b <= a)
		return false;
	for (i = 0; i < r->n_limits; i++) {
		const struct sa_threshold_limit *l = &r->limit[i];
		guint64 grew = b - a;

		if (l->pct ? (long double)grew * 100 <=
			     (long double)l->percent * a :
			     grew <= l->amount)
			return false;
	}
	return true;
}

static void hit_row(struct sa_threshold_hit *h, const struct sa_diff_row *row,
		    guint64 a, guint64 b)
{
	h->count++;
	if (h->site && b - a <= h->change.mag)
		return;
	g_free(h->site);
	h->site = g_strdup(row->site);
	h->kind = row->kind;
	h->base = a;
	h->change = sa_delta_u64(a, b);
}

guint sa_thresholds_check(const struct sa_thresholds *t,
			  const struct sa_diff *d,
			  struct sa_threshold_result *res)
{
	guint i, j;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < t->n; i++) {
		const struct sa_threshold *r = &t->rule[i];
		struct sa_threshold_hit *h = &res->hit[i];

		if (sa_threshold_is_total(r->scope)) {
			int k = area_of(r->scope);
			const struct sa_diff_vals *ta = k < 0 ?
				&d->side[0].total : &d->side[0].area[k].total;
			const struct sa_diff_vals *tb = k < 0 ?
				&d->side[1].total : &d->side[1].area[k].total;
			guint64 a = value_of(ta, r->measure);
			guint64 b = value_of(tb, r->measure);

			if (crosses(r, a, b)) {
				h->count = 1;
				h->base = a;
				h->change = sa_delta_u64(a, b);
			}
		}
		for (j = 0; !sa_threshold_is_total(r->scope) && d->rows &&
		     j < d->rows->len; j++) {
			const struct sa_diff_row *row =
				&g_array_index(d->rows, struct sa_diff_row, j);
			bool is_new = row->status == SA_DIFF_NEW;
			guint64 a = value_of(&row->a, r->measure);
			guint64 b = value_of(&row->b, r->measure);

			if (row->status == SA_DIFF_GONE ||
			    is_new != (r->scope == SA_THRESHOLD_NEW_SITE))
				continue;
			if (crosses(r, is_new ? 0 : a, b))
				hit_row(h, row, is_new ? 0 : a, b);
		}
		if (h->count)
			res->crossed++;
	}
	return res->crossed;
}

void sa_threshold_result_clear(struct sa_threshold_result *res)
{
	guint i;

	for (i = 0; i < SA_THRESHOLD_MAX_RULES; i++)
		g_free(res->hit[i].site);
	memset(res, 0, sizeof(*res));
}
