// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo: the /proc/allocinfo parser (see procfs/allocinfo.h).
 */
#include <string.h>

#include "procfs/allocinfo.h"
#include "util/input-file.h"
#include "util/textline.h"

#define set_err(error, code, l, at, ...) \
	sa_line_error(error, SA_ALLOCINFO_ERROR, code, l, at, __VA_ARGS__)

G_DEFINE_QUARK(sa-allocinfo-error-quark, sa_allocinfo_error)

static const char version_tag[] = "allocinfo - version: ";

/* Printable, no spaces: what a file, module or function name may hold. */
static const char *bad_char(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!g_ascii_isgraph(s[i]) && !((unsigned char)s[i] & 0x80))
			return s + i;
	return NULL;
}

static gboolean parse_version(struct sa_allocinfo *ai, const struct sa_line *l,
			      GError **error)
{
	const char *p = l->s + sizeof(version_tag) - 1, *dot;
	const char *end = l->s + l->len;
	guint64 major, minor;

	if (!sa_allocinfo_sniff(l->s, l->len)) {
		set_err(error, SA_ALLOCINFO_ERROR_VERSION, l, l->s,
			"not a /proc/allocinfo file (no 'allocinfo - version: "
			"X.Y' line)");
		return FALSE;
	}
	while (end > p && g_ascii_isspace(end[-1]))
		end--;
	dot = memchr(p, '.', end - p);
	if (!dot || !sa_dec_u64(p, dot - p, &major) ||
	    !sa_dec_u64(dot + 1, end - dot - 1, &minor) || major > G_MAXUINT ||
	    minor > G_MAXUINT) {
		set_err(error, SA_ALLOCINFO_ERROR_VERSION, l, p,
			"bad format version '%.*s'", (int)(end - p), p);
		return FALSE;
	}
	if (major < 1 || major > SA_ALLOCINFO_MAX_MAJOR) {
		set_err(error, SA_ALLOCINFO_ERROR_VERSION, l, p,
			"format version %" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT
			", this slabacct reads versions 1.x to %d.x", major,
			minor, SA_ALLOCINFO_MAX_MAJOR);
		return FALSE;
	}
	ai->major = major;
	ai->minor = minor;
	return TRUE;
}

/* "#     <size>  <calls> <tag info>" */
static gboolean parse_heading(const struct sa_line *l, GError **error)
{
	static const char *const cols[] = { "<size>", "<calls>" };
	const char *pos = l->s + 1, *tok;
	size_t len, i;

	if (!l->len || l->s[0] != '#') {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, l->s,
			"expected the column heading '# <size> <calls> <tag "
			"info>'");
		return FALSE;
	}
	for (i = 0; i < G_N_ELEMENTS(cols); i++) {
		if (!sa_line_token(l, &pos, &tok, &len) ||
		    strlen(cols[i]) != len || memcmp(tok, cols[i], len)) {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l,
				i ? tok : l->s, "expected column '%s' in the "
				"heading", cols[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* "FILE:LINE" */
static gboolean parse_location(struct sa_allocinfo_row *r,
			       const struct sa_line *l, const char *tok,
			       size_t len, GError **error)
{
	const char *colon = NULL, *bad;
	guint64 v;
	size_t i;

	for (i = len; i > 0; i--)
		if (tok[i - 1] == ':') {
			colon = tok + i - 1;
			break;
		}
	if (!colon || colon == tok ||
	    !sa_dec_u64(colon + 1, tok + len - colon - 1, &v) || v > G_MAXUINT) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, tok,
			"expected FILE:LINE, got '%.*s'", (int)len, tok);
		return FALSE;
	}
	if ((bad = bad_char(tok, colon - tok))) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, bad,
			"a control character in the file name");
		return FALSE;
	}
	r->file = g_strndup(tok, colon - tok);
	r->line = v;
	return TRUE;
}

/* KEY:VALUE pairs after the function (format 2.0+) */
static gboolean parse_pairs(struct sa_allocinfo *ai,
			    struct sa_allocinfo_row *r, const struct sa_line *l,
			    const char *pos, GError **error)
{
	const char *tok, *colon;
	size_t len;

	while (sa_line_token(l, &pos, &tok, &len)) {
		if (ai->major < 2) {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, tok,
				"unexpected '%.*s' after the function (format "
				"%u.%u has no KEY:VALUE pairs)", (int)len, tok,
				ai->major, ai->minor);
			return FALSE;
		}
		colon = memchr(tok, ':', len);
		if (!colon || colon == tok) {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, tok,
				"expected KEY:VALUE, got '%.*s'", (int)len,
				tok);
			return FALSE;
		}
		if (colon - tok == 8 && !memcmp(tok, "accurate", 8)) {
			const char *v = colon + 1;
			size_t vlen = tok + len - v;

			if (vlen == 2 && !memcmp(v, "no", 2)) {
				r->inaccurate = TRUE;
			} else if (!(vlen == 3 && !memcmp(v, "yes", 3))) {
				set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, v,
					"accurate: expected 'no' or 'yes'");
				return FALSE;
			}
		}
		/* other keys: not known to this slabacct, ignored */
	}
	return TRUE;
}

static gboolean parse_row(struct sa_allocinfo *ai, struct sa_allocinfo_row *r,
			  const struct sa_line *l, GError **error)
{
	const char *pos = l->s, *tok, *bad;
	size_t len;
	guint64 calls;

	if (!sa_line_token(l, &pos, &tok, &len) ||
	    !sa_dec_s64(tok, len, &r->bytes)) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l,
			pos == l->s + l->len ? pos : tok,
			"expected the size (bytes, a number)");
		return FALSE;
	}
	if (!sa_line_token(l, &pos, &tok, &len) || !sa_dec_u64(tok, len, &calls)) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l,
			pos == l->s + l->len ? pos : tok,
			"expected the calls (a non-negative number)");
		return FALSE;
	}
	/* the kernel prints a sum caught below zero as unsigned */
	r->calls = (gint64)calls;
	if (!sa_line_token(l, &pos, &tok, &len)) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, pos,
			"missing FILE:LINE");
		return FALSE;
	}
	if (!parse_location(r, l, tok, len, error))
		return FALSE;
	if (!sa_line_token(l, &pos, &tok, &len)) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, pos,
			"missing func:FUNCTION");
		return FALSE;
	}
	if (tok[0] == '[') {
		if (len < 3 || tok[len - 1] != ']') {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, tok,
				"expected [MODULE], got '%.*s'", (int)len, tok);
			return FALSE;
		}
		if ((bad = bad_char(tok + 1, len - 2))) {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, bad,
				"a control character in the module name");
			return FALSE;
		}
		r->module = g_strndup(tok + 1, len - 2);
		if (!sa_line_token(l, &pos, &tok, &len)) {
			set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, pos,
				"missing func:FUNCTION");
			return FALSE;
		}
	}
	if (len < 6 || memcmp(tok, "func:", 5)) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, tok,
			"expected func:FUNCTION, got '%.*s'", (int)len, tok);
		return FALSE;
	}
	if ((bad = bad_char(tok + 5, len - 5))) {
		set_err(error, SA_ALLOCINFO_ERROR_SYNTAX, l, bad,
			"a control character in the function name");
		return FALSE;
	}
	r->function = g_strndup(tok + 5, len - 5);
	return parse_pairs(ai, r, l, pos, error);
}

static void row_clear(struct sa_allocinfo_row *r)
{
	g_free(r->file);
	g_free(r->module);
	g_free(r->function);
}

static void sat_add(gint64 *sum, gint64 v)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*sum = v < 0 ? G_MININT64 : G_MAXINT64;
}

/* A file being parsed, line by line. */
struct parser {
	struct sa_allocinfo *ai;
	GArray *rows;
	enum { VERSION, HEADING, ROWS } state;
	guint64 no;
};

static void parser_init(struct parser *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->ai = g_new0(struct sa_allocinfo, 1);
	ps->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_allocinfo_row));
}

/* The next line, len bytes at s (no '\n'). */
static gboolean parse_line(void *data, const char *s, size_t len,
			   GError **error)
{
	struct parser *ps = data;
	struct sa_line l = { .s = s, .len = len, .no = ++ps->no };
	struct sa_allocinfo_row r = { 0 };

	if (len > SA_ALLOCINFO_MAX_LINE) {
		set_err(error, SA_ALLOCINFO_ERROR_BOUND, &l, s, "a line longer "
			"than %d bytes", SA_ALLOCINFO_MAX_LINE);
		return FALSE;
	}
	if (ps->state == VERSION) {
		if (!parse_version(ps->ai, &l, error))
			return FALSE;
		ps->state = HEADING;
		return TRUE;
	}
	if (ps->state == HEADING) {
		if (!parse_heading(&l, error))
			return FALSE;
		ps->state = ROWS;
		return TRUE;
	}
	if (!len)
		return TRUE;
	if (ps->rows->len >= SA_ALLOCINFO_MAX_ROWS) {
		set_err(error, SA_ALLOCINFO_ERROR_BOUND, &l, s, "more than %d "
			"allocation sites", SA_ALLOCINFO_MAX_ROWS);
		return FALSE;
	}
	if (!parse_row(ps->ai, &r, &l, error)) {
		row_clear(&r);
		return FALSE;
	}
	g_array_append_val(ps->rows, r);
	return TRUE;
}

/* The parsed file, or NULL (then ps is freed) with *error set. */
static struct sa_allocinfo *parser_end(struct parser *ps, gboolean ok,
				       GError **error)
{
	struct sa_allocinfo *ai = ps->ai;
	size_t i;

	if (ok && ps->state != ROWS) {
		struct sa_line l = { .s = "", .len = 0, .no = ps->no };

		set_err(error, ps->state == VERSION ?
			SA_ALLOCINFO_ERROR_VERSION : SA_ALLOCINFO_ERROR_SYNTAX,
			&l, l.s, ps->state == VERSION ? "empty input" :
			"the file ends before the column heading");
		ok = FALSE;
	}
	ai->n_rows = ps->rows->len;
	ai->rows = (struct sa_allocinfo_row *)g_array_free(ps->rows, FALSE);
	if (!ok) {
		sa_allocinfo_free(ai);
		return NULL;
	}
	for (i = 0; i < ai->n_rows; i++) {
		const struct sa_allocinfo_row *r = &ai->rows[i];

		sat_add(&ai->bytes, r->bytes);
		sat_add(&ai->calls, r->calls);
		ai->n_live += r->calls > 0;
		ai->n_inaccurate += r->inaccurate;
	}
	return ai;
}

struct sa_allocinfo *sa_allocinfo_parse(const char *text, size_t len,
					GError **error)
{
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_text_lines(text, len, parse_line, &ps, error);
	return parser_end(&ps, ok, error);
}

struct sa_allocinfo *sa_allocinfo_load(const char *path, GError **error)
{
	struct sa_allocinfo *ai;
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_input_lines(path, SA_ALLOCINFO_MAX_LINE, parse_line, &ps,
			    error);
	/* I/O errors name the file already */
	if (!ok && error && *error && (*error)->domain != SA_ALLOCINFO_ERROR) {
		sa_allocinfo_free(parser_end(&ps, TRUE, NULL));
		return NULL;
	}
	ai = parser_end(&ps, ok, error);
	if (!ai)
		g_prefix_error(error, "%s: ", path);
	return ai;
}

void sa_allocinfo_free(struct sa_allocinfo *ai)
{
	size_t i;

	if (!ai)
		return;
	for (i = 0; i < ai->n_rows; i++)
		row_clear(&ai->rows[i]);
	g_free(ai->rows);
	g_free(ai);
}

void sa_allocinfo_head_of(const struct sa_allocinfo *ai,
			  struct sa_allocinfo_head *h)
{
	h->major = ai->major;
	h->minor = ai->minor;
	h->tags = ai->n_rows;
	h->live_tags = ai->n_live;
	h->inaccurate = ai->n_inaccurate;
}

gboolean sa_allocinfo_sniff(const char *text, size_t len)
{
	return len >= sizeof(version_tag) - 1 &&
	       !memcmp(text, version_tag, sizeof(version_tag) - 1);
}
