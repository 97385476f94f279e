// SPDX-License-Identifier: GPL-2.0
/*
 * account: the /proc/slab_account parser (see procfs/account.h, README.md).
 */
#include <stddef.h>
#include <string.h>

#include "procfs/account.h"
#include "util/input-file.h"
#include "util/textline.h"

#define set_err(error, code, l, at, ...) \
	sa_line_error(error, SA_ACCOUNT_ERROR, code, l, at, __VA_ARGS__)

G_DEFINE_QUARK(sa-account-error-quark, sa_account_error)

enum key_type { K_U64, K_S64, K_WORD, K_SLOT, K_ORDERS, K_TEXT };

struct key_desc {
	const char *name;
	enum key_type type;
	size_t off;
	int since;		/* required from this format version on */
	/*
	 * keys added later are optional: known_off flags one as seen; keys
	 * that share a flag come together (all of them, or none)
	 */
	gboolean optional;
	size_t known_off;
};

/* The flag of each group of uapi/slab_account.h's keys (0: required) */
#define KNOWN_REQUIRED		0
#define KNOWN_REPEATS		offsetof(struct sa_account, kmalloc_repeats_known)
#define KNOWN_UNATTRIBUTED	offsetof(struct sa_account, unattributed_known)
#define KNOWN_SLOW		offsetof(struct sa_account, slow_known)

/* The field of a key: its name, but for cache_slot_size (a flag) */
#define FIELD_U64(name)		name
#define FIELD_S64(name)		name
#define FIELD_WORD(name)	name
#define FIELD_ORDERS(name)	name
#define FIELD_SLOT(name)	cache_slot_exact

#define KEY_AT(n, t, f, since, group) \
	{ n, K_##t, offsetof(struct sa_account, f), since, \
	  KNOWN_##group != 0, KNOWN_##group },
#define KEY(name, type, since, group) \
	KEY_AT(#name, type, FIELD_##type(name), since, group)
#define KIND_KEY(name, type, since, group, id, kname) \
	KEY_AT(#kname "_" #name, type, kind[SLAB_ACCOUNT_##id].name, since, \
	       group)
#define KIND_KEYS(id, kname)	SLAB_ACCOUNT_KIND_KEYS(KIND_KEY, id, kname)

/* The header keys of uapi/slab_account.h, and those of a report's */
static const struct key_desc keys[] = {
	SLAB_ACCOUNT_KEYS(KEY)
	/* report --format account of a truncated trace (no module's) */
	{ "trace_truncated", K_TEXT,
	  offsetof(struct sa_account, trace_truncated), 0, TRUE,
	  offsetof(struct sa_account, trace_truncated_known) },
	{ "trace_truncated_at_ns", K_U64,
	  offsetof(struct sa_account, trace_truncated_ns), 0, TRUE,
	  offsetof(struct sa_account, trace_truncated_at_known) },
	SLAB_ACCOUNT_KINDS(KIND_KEYS)
	SLAB_ACCOUNT_ORDER_KEYS(KEY)
};

#define COLUMN(name, title, width)	title,
static const char *const heading[] = { SLAB_ACCOUNT_COLUMNS(COLUMN) };

static const char *const kind_names[SA_ACCOUNT_NR_KINDS] =
	SLAB_ACCOUNT_KIND_NAMES;

const char *sa_account_kind_name(enum sa_account_kind kind)
{
	return kind < SA_ACCOUNT_NR_KINDS ? kind_names[kind] : "?";
}

/* One number token, or an error naming what was expected. */
static gboolean take_num(const struct sa_line *l, const char **pos,
			 gboolean is_signed, gint64 *sv, guint64 *uv,
			 const char *what, GError **error)
{
	const char *tok;
	size_t len;

	if (!sa_line_token(l, pos, &tok, &len)) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, *pos,
			"missing %s", what);
		return FALSE;
	}
	if (is_signed ? !sa_dec_s64(tok, len, sv) :
	    !sa_dec_u64(tok, len, uv)) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, tok,
			"%s: '%.*s' is not a%s number", what, (int)len, tok,
			is_signed ? "" : " non-negative");
		return FALSE;
	}
	return TRUE;
}

static gboolean parse_value(struct sa_account *a, const struct key_desc *k,
			    const struct sa_line *l, const char *pos,
			    GError **error)
{
	char *field = (char *)a + k->off;
	const char *tok, *end = l->s + l->len;
	size_t len;
	unsigned int n = 0;

	switch (k->type) {
	case K_TEXT:
		/* the rest of the line, without its surrounding blanks */
		while (pos < end && g_ascii_isspace(*pos))
			pos++;
		while (end > pos && g_ascii_isspace(end[-1]))
			end--;
		if (pos == end) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, pos,
				"%s: missing value", k->name);
			return FALSE;
		}
		g_free(*(char **)field);
		*(char **)field = g_strndup(pos, end - pos);
		return TRUE;
	case K_U64:
	case K_S64:
		if (!take_num(l, &pos, k->type == K_S64, (gint64 *)field,
			      (guint64 *)field, k->name, error))
			return FALSE;
		break;
	case K_WORD:
	case K_SLOT:
		if (!sa_line_token(l, &pos, &tok, &len)) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, pos,
				"%s: missing value", k->name);
			return FALSE;
		}
		if (k->type == K_WORD) {
			g_free(*(char **)field);
			*(char **)field = g_strndup(tok, len);
		} else if (len == 5 && !memcmp(tok, "exact", 5)) {
			*(gboolean *)field = TRUE;
		} else if (len == 6 && !memcmp(tok, "object", 6)) {
			*(gboolean *)field = FALSE;
		} else {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, tok,
				"%s: expected 'exact' or 'object'", k->name);
			return FALSE;
		}
		break;
	case K_ORDERS:
		while (sa_line_token(l, &(const char *){ pos }, &tok, &len)) {
			if (n == SA_ACCOUNT_MAX_ORDERS) {
				set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, tok,
					"%s: more than %d orders", k->name,
					SA_ACCOUNT_MAX_ORDERS);
				return FALSE;
			}
			if (!take_num(l, &pos, FALSE, NULL,
				      (guint64 *)field + n, k->name, error))
				return FALSE;
			n++;
		}
		if (!n || (a->n_orders && n != a->n_orders)) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, end,
				"%s: %u orders, expected %u", k->name, n,
				a->n_orders ? a->n_orders : 1);
			return FALSE;
		}
		a->n_orders = n;
		return TRUE;
	}
	if (sa_line_token(l, &pos, &tok, &len)) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, tok,
			"%s: unexpected '%.*s' after the value", k->name,
			(int)len, tok);
		return FALSE;
	}
	return TRUE;
}

/* "key: value"; unknown keys are skipped. */
static gboolean parse_header(struct sa_account *a, const struct sa_line *l,
			     guint64 *seen, GError **error)
{
	const char *colon = memchr(l->s, ':', l->len);
	size_t klen, i;

	if (!colon || colon == l->s) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, l->s,
			"expected 'key: value' or the column heading");
		return FALSE;
	}
	klen = colon - l->s;
	for (i = 0; i < klen; i++) {
		if (!g_ascii_isalnum(l->s[i]) && l->s[i] != '_') {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, l->s + i,
				"bad character in a key");
			return FALSE;
		}
	}
	for (i = 0; i < G_N_ELEMENTS(keys); i++) {
		if (strlen(keys[i].name) != klen ||
		    memcmp(keys[i].name, l->s, klen))
			continue;
		if (*seen & (1ULL << i)) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, l->s,
				"duplicate key '%s'", keys[i].name);
			return FALSE;
		}
		*seen |= 1ULL << i;
		if (keys[i].optional)
			*(gboolean *)((char *)a + keys[i].known_off) = TRUE;
		return parse_value(a, &keys[i], l, colon + 1, error);
	}
	return TRUE;
}

static gboolean parse_heading(const struct sa_line *l, GError **error)
{
	const char *pos = l->s + 1, *tok;
	size_t len, i;

	for (i = 0; i < G_N_ELEMENTS(heading); i++) {
		if (!sa_line_token(l, &pos, &tok, &len) ||
		    strlen(heading[i]) != len || memcmp(tok, heading[i], len)) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l,
				i ? tok : l->s,
				"expected column '%s' in the heading",
				heading[i]);
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean parse_row(struct sa_account_row *r, const struct sa_line *l,
			  GError **error)
{
	const char *pos = l->s, *tok, *slash, *end = l->s + l->len;
	size_t len, k;

	if (!take_num(l, &pos, FALSE, NULL, &r->total, "total", error) ||
	    !take_num(l, &pos, FALSE, NULL, &r->slack, "slack", error) ||
	    !take_num(l, &pos, FALSE, NULL, &r->req, "req", error) ||
	    !take_num(l, &pos, TRUE, &r->live, NULL, "live", error) ||
	    !take_num(l, &pos, TRUE, &r->objs, NULL, "objs", error))
		return FALSE;
	if (!sa_line_token(l, &pos, &tok, &len) ||
	    !(slash = memchr(tok, '/', len)) ||
	    !sa_dec_u64(tok, slash - tok, &r->allocs) ||
	    !sa_dec_u64(slash + 1, tok + len - slash - 1,
		       &r->frees)) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, pos == end ? end : tok,
			"expected ALLOCS/FREES");
		return FALSE;
	}
	if (!sa_line_token(l, &pos, &tok, &len)) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, pos, "missing kind");
		return FALSE;
	}
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++)
		if (strlen(kind_names[k]) == len && !memcmp(tok, kind_names[k], len))
			break;
	if (k == SA_ACCOUNT_NR_KINDS) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, tok,
			"kind '%.*s' is neither kmalloc nor cache", (int)len,
			tok);
		return FALSE;
	}
	r->kind = k;
	while (pos < end && g_ascii_isspace(*pos))
		pos++;
	while (end > pos && g_ascii_isspace(end[-1]))
		end--;
	if (pos == end) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, pos, "missing caller");
		return FALSE;
	}
	/*
	 * A row read while its counters move, or while a reset clears them,
	 * can show req > total; the module prints its slack as 0 (older
	 * ones as total - req, wrapped). Such a row is kept, slack 0.
	 */
	if (r->req > r->total && (!r->slack || r->slack == r->total - r->req)) {
		r->slack = 0;
	} else if (r->req > r->total || r->total - r->req != r->slack) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, l, l->s,
			"slack is not total - req");
		return FALSE;
	}
	r->caller = g_strndup(pos, end - pos);
	/* "WRAPPER_SITE <- CALLER": the row of a wrapper's caller */
	tok = strstr(r->caller, SLAB_ACCOUNT_VIA_SEP);
	if (tok)
		r->via = g_strndup(r->caller, tok - r->caller);
	return TRUE;
}

static gboolean parse_version(struct sa_account *a, const struct sa_line *l,
			      GError **error)
{
	static const char tag[] = "# " SLAB_ACCOUNT_PROC_NAME " ";
	const char *pos = l->s + sizeof(tag) - 1;
	guint64 v;

	if (l->len < sizeof(tag) || memcmp(l->s, tag, sizeof(tag) - 1)) {
		set_err(error, SA_ACCOUNT_ERROR_VERSION, l, l->s,
			"not a /proc/slab_account file (no '# slab_account "
			"VERSION' line)");
		return FALSE;
	}
	if (!sa_dec_u64(pos, l->s + l->len - pos, &v)) {
		set_err(error, SA_ACCOUNT_ERROR_VERSION, l, pos,
			"bad format version");
		return FALSE;
	}
	if (v < SA_ACCOUNT_FORMAT_OLDEST || v > SA_ACCOUNT_FORMAT_VERSION) {
		set_err(error, SA_ACCOUNT_ERROR_VERSION, l, pos,
			"format version %" G_GUINT64_FORMAT ", this slabacct "
			"reads versions %d to %d", v, SA_ACCOUNT_FORMAT_OLDEST,
			SA_ACCOUNT_FORMAT_VERSION);
		return FALSE;
	}
	a->version = (int)v;
	return TRUE;
}

/*
 * A key is missing if it is required, or optional and another key of its
 * group (the same known flag) is there: a group is never read in part.
 */
static gboolean check_missing(const struct sa_account *a, guint64 seen,
			      const struct sa_line *l, GError **error)
{
	size_t i, j;

	for (i = 0; i < G_N_ELEMENTS(keys); i++) {
		if (seen & (1ULL << i))
			continue;
		if (!keys[i].optional && keys[i].since <= a->version) {
			set_err(error, SA_ACCOUNT_ERROR_MISSING, l, l->s,
				"header key '%s' is missing", keys[i].name);
			return FALSE;
		}
		if (!keys[i].optional ||
		    !*(const gboolean *)((const char *)a + keys[i].known_off))
			continue;
		for (j = 0; j < G_N_ELEMENTS(keys); j++)
			if ((seen & (1ULL << j)) && keys[j].optional &&
			    keys[j].known_off == keys[i].known_off)
				break;
		set_err(error, SA_ACCOUNT_ERROR_MISSING, l, l->s,
			"header key '%s' is missing, though '%s' is there "
			"(they come together)", keys[i].name,
			j < G_N_ELEMENTS(keys) ? keys[j].name : "?");
		return FALSE;
	}
	return TRUE;
}

/*
 * Totals summed from rows read mid-update can have req > alloc too: their
 * slack is 0, whatever the file says (an older module wrapped it).
 */
static void clamp_slack(struct sa_account *a)
{
	int k;

	if (a->bytes_req > a->bytes_alloc)
		a->slack = 0;
	for (k = 0; k < SA_ACCOUNT_NR_KINDS; k++)
		if (a->kind[k].bytes_req > a->kind[k].bytes_alloc)
			a->kind[k].slack = 0;
}

/* A file being parsed, line by line. */
struct parser {
	struct sa_account *a;
	GArray *rows;
	enum { VERSION, HEADER, ROWS } state;
	guint64 seen;
	unsigned int no;
};

static void parser_init(struct parser *ps)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(keys) <= 64);
	memset(ps, 0, sizeof(*ps));
	ps->a = g_new0(struct sa_account, 1);
	ps->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_account_row));
}

/* The next line, len bytes at s (no '\n'). */
static gboolean parse_line(struct parser *ps, const char *s, size_t len,
			   GError **error)
{
	struct sa_line l = { .s = s, .len = len, .no = ++ps->no };
	struct sa_account_row r = { 0 };

	if (len > SA_ACCOUNT_MAX_LINE) {
		set_err(error, SA_ACCOUNT_ERROR_SYNTAX, &l, s, "a line longer "
			"than %d bytes", SA_ACCOUNT_MAX_LINE);
		return FALSE;
	}
	if (ps->state == VERSION) {
		if (!parse_version(ps->a, &l, error))
			return FALSE;
		ps->state = HEADER;
	} else if (ps->state == HEADER && len && s[0] == '#') {
		if (!parse_heading(&l, error) ||
		    !check_missing(ps->a, ps->seen, &l, error))
			return FALSE;
		if (ps->a->sites > SA_ACCOUNT_MAX_SITES) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, &l, s, "sites: "
				"%" G_GUINT64_FORMAT " is more than a table "
				"can have (%d)", ps->a->sites,
				SA_ACCOUNT_MAX_SITES);
			return FALSE;
		}
		ps->state = ROWS;
	} else if (ps->state == HEADER) {
		if (len && !parse_header(ps->a, &l, &ps->seen, error))
			return FALSE;
	} else if (len) {
		if (ps->rows->len >= ps->a->sites) {
			set_err(error, SA_ACCOUNT_ERROR_SYNTAX, &l, s, "more "
				"rows than the %" G_GUINT64_FORMAT " sites "
				"of the table", ps->a->sites);
			return FALSE;
		}
		if (!parse_row(&r, &l, error))
			return FALSE;
		g_array_append_val(ps->rows, r);
	}
	return TRUE;
}

/* The parsed file, or NULL (then ps is freed) with *error set. */
static struct sa_account *parser_end(struct parser *ps, gboolean ok,
				     GError **error)
{
	struct sa_account *a = ps->a;

	if (ok && ps->state != ROWS) {
		struct sa_line l = { .s = "", .len = 0, .no = ps->no };

		set_err(error, ps->state == VERSION ? SA_ACCOUNT_ERROR_VERSION :
			SA_ACCOUNT_ERROR_MISSING, &l, l.s,
			ps->state == VERSION ? "empty input" :
			"the file ends before the column heading");
		ok = FALSE;
	}
	a->n_rows = ps->rows->len;
	a->rows = (struct sa_account_row *)g_array_free(ps->rows, FALSE);
	if (ok) {
		clamp_slack(a);
		return a;
	}
	sa_account_free(a);
	return NULL;
}

static gboolean load_line(void *data, const char *s, size_t len,
			  GError **error)
{
	return parse_line(data, s, len, error);
}

struct sa_account *sa_account_parse(const char *text, size_t len,
				    GError **error)
{
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_text_lines(text, len, load_line, &ps, error);
	return parser_end(&ps, ok, error);
}

/*
 * Parse line by line: the format bounds a line and the rows (sites), so
 * what is read and kept is bounded whatever the file holds.
 */
struct sa_account *sa_account_load(const char *path, GError **error)
{
	struct sa_account *a;
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_input_lines(path, SA_ACCOUNT_MAX_LINE, load_line, &ps, error);
	/* I/O errors name the file already */
	if (!ok && error && *error && (*error)->domain != SA_ACCOUNT_ERROR) {
		sa_account_free(parser_end(&ps, TRUE, NULL));
		return NULL;
	}
	a = parser_end(&ps, ok, error);
	if (!a)
		g_prefix_error(error, "%s: ", path);
	return a;
}

void sa_account_free(struct sa_account *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n_rows; i++) {
		g_free(a->rows[i].caller);
		g_free(a->rows[i].via);
	}
	g_free(a->rows);
	g_free(a->sort);
	g_free(a->trace_truncated);
	g_free(a);
}

#define HEAD_COPY_U64(name)	h->name = a->name;
#define HEAD_COPY_S64(name)	h->name = a->name;
#define HEAD_COPY_WORD(name)
#define HEAD_COPY_SLOT(name)	h->cache_slot_exact = a->cache_slot_exact;
#define HEAD_COPY(name, type, since, group)	HEAD_COPY_##type(name)

void sa_account_head_of(const struct sa_account *a,
			struct sa_account_head *h)
{
	h->version = a->version;
	SLAB_ACCOUNT_KEYS(HEAD_COPY)
	h->kmalloc_repeats_known = a->kmalloc_repeats_known;
	h->unattributed_known = a->unattributed_known;
	h->slow_known = a->slow_known;
}
