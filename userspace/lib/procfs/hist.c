// SPDX-License-Identifier: GPL-2.0
/*
 * hist: the parser of the kernel's histogram files (see procfs/hist.h).
 */
#include <string.h>

#include "procfs/hist.h"
#include "util/input-file.h"
#include "util/textline.h"

#define set_err(error, code, l, at, ...) \
	sa_line_error(error, SA_HIST_ERROR, code, l, at, __VA_ARGS__)

G_DEFINE_QUARK(sa-hist-error-quark, sa_hist_error)

static const char head_tag[] = "# event histogram";
static const char trigger_tag[] = "# trigger info: ";

enum totals_state { NONE, HITS, ENTRIES, DROPPED, DONE };

struct parser {
	struct sa_hist *h;
	guint64 no;
	enum totals_state totals;	/* in the current section */
};

bool sa_hist_sniff(const char *head, size_t len)
{
	return len >= sizeof(head_tag) - 1 &&
	       !memcmp(head, head_tag, sizeof(head_tag) - 1);
}

static gboolean starts(const char *s, size_t len, const char *tag)
{
	size_t n = strlen(tag);

	return len >= n && !memcmp(s, tag, n);
}

static struct sa_hist_section *cur(struct parser *ps)
{
	return &g_array_index(ps->h->sections, struct sa_hist_section,
			      ps->h->sections->len - 1);
}

/* Printable, or a byte of a UTF-8 sequence: what a name may hold. */
static const char *bad_char(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!g_ascii_isprint(s[i]) && !((unsigned char)s[i] & 0x80))
			return s + i;
	return NULL;
}

/*
 * "hist:keys=call_site.sym-offset:vals=hitcount,bytes_alloc:..." : its
 * one key (the modifier off) and whether bytes_req and bytes_alloc are
 * among its values.
 */
static gboolean parse_trigger(struct sa_hist_section *sec,
			      const struct sa_line *l, const char *s,
			      size_t len, GError **error)
{
	char *t = g_strndup(s, len), **attrs, **a;
	gboolean ok = TRUE;

	sec->trigger = t;
	if (!g_str_has_prefix(t, "hist:")) {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, s, "a trigger that is "
			"not a histogram's");
		return FALSE;
	}
	attrs = g_strsplit(t + 5, ":", 64);
	for (a = attrs; *a; a++) {
		char *v = strchr(*a, '='), **vals, **x;

		if (!v)
			continue;
		*v++ = '\0';
		/* a value may end the trigger: "size=2048 [active]" */
		v[strcspn(v, " ")] = '\0';
		if (!strcmp(*a, "keys") || !strcmp(*a, "key")) {
			if (strchr(v, ',')) {
				set_err(error, SA_HIST_ERROR_SYNTAX, l, s,
					"a histogram of more than one key "
					"(%s)", v);
				ok = FALSE;
				break;
			}
			v[strcspn(v, ".")] = '\0';
			g_free(sec->key);
			sec->key = g_strdup(v);
		} else if (!strcmp(*a, "vals") || !strcmp(*a, "values") ||
			   !strcmp(*a, "val")) {
			vals = g_strsplit(v, ",", 64);
			for (x = vals; *x; x++) {
				sec->has_req |= !strcmp(*x, "bytes_req");
				sec->has_alloc |= !strcmp(*x, "bytes_alloc");
			}
			g_strfreev(vals);
		}
	}
	g_strfreev(attrs);
	if (ok && !sec->key) {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, s, "a trigger with no "
			"keys=");
		ok = FALSE;
	}
	return ok;
}

static gboolean hex_u64(const char *s, size_t len, guint64 *v)
{
	size_t i;

	if (!len || len > 16)
		return FALSE;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (!g_ascii_isxdigit(s[i]))
			return FALSE;
		*v = *v << 4 | (guint64)g_ascii_xdigit_value(s[i]);
	}
	return TRUE;
}

/* "func+0x1c/0x50 [mod]" as "func+0x1c [mod]": the size cut */
static char *site_name(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	const char *sp = memchr(s, ' ', len);

	if (slash && (!sp || slash < sp))
		return g_strdup_printf("%.*s%.*s", (int)(slash - s), s,
				       sp ? (int)(s + len - sp) : 0,
				       sp ? sp : "");
	return g_strndup(s, len);
}

/* "{ KEY: [ADDR] NAME } name: N  name: N ..." or "{ KEY: N } ..." */
static gboolean parse_row(struct parser *ps, const struct sa_line *l,
			  GError **error)
{
	struct sa_hist_section *sec = cur(ps);
	const char *s = l->s, *end = l->s + l->len, *p, *close, *tok, *pos;
	struct sa_hist_row r = { .section = ps->h->sections->len - 1 };
	size_t klen = strlen(sec->key), tlen;
	bool have_hits = false;

	p = s + 1;
	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) < klen + 2 || memcmp(p, sec->key, klen) ||
	    p[klen] != ':') {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, p, "a row without the "
			"key of its trigger (%s)", sec->key);
		return FALSE;
	}
	p += klen + 1;
	while (p < end && *p == ' ')
		p++;
	for (close = end; close > p && close[-1] != '}'; close--)
		;
	if (close == p) {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, p, "a row without its "
			"closing '}'");
		return FALSE;
	}
	close--;
	if (*p == '[') {
		const char *rb = memchr(p, ']', close - p), *n;

		if (!rb || !hex_u64(p + 1, rb - p - 1, &r.key)) {
			set_err(error, SA_HIST_ERROR_SYNTAX, l, p, "a key that "
				"is not [HEX ADDRESS] NAME");
			return FALSE;
		}
		n = rb + 1;
		while (n < close && *n == ' ')
			n++;
		tlen = close - n;
		while (tlen && n[tlen - 1] == ' ')
			tlen--;
		if (tlen > SA_HIST_MAX_NAME || bad_char(n, tlen)) {
			set_err(error, SA_HIST_ERROR_SYNTAX, l, n, "a symbol "
				"name longer than %d bytes or not printable",
				SA_HIST_MAX_NAME);
			return FALSE;
		}
		if (tlen)
			r.sym = site_name(n, tlen);
	} else {
		tlen = 0;
		while (p + tlen < close && p[tlen] != ' ')
			tlen++;
		if (!sa_dec_u64(p, tlen, &r.key)) {
			set_err(error, SA_HIST_ERROR_SYNTAX, l, p, "a key that "
				"is not a number");
			return FALSE;
		}
	}
	/* name: value pairs */
	pos = close + 1;
	for (;;) {
		const char *vtok;
		size_t vlen;
		guint64 v;

		if (!sa_line_token(l, &pos, &tok, &tlen))
			break;
		if (tlen < 2 || tok[tlen - 1] != ':' ||
		    !sa_line_token(l, &pos, &vtok, &vlen) ||
		    !sa_dec_u64(vtok, vlen, &v)) {
			set_err(error, SA_HIST_ERROR_SYNTAX, l, tok, "a value "
				"that is not 'NAME: NUMBER'");
			g_free(r.sym);
			return FALSE;
		}
		tlen--;
		if (tlen == 8 && !memcmp(tok, "hitcount", 8)) {
			r.hitcount = v;
			have_hits = true;
		} else if (tlen == 9 && !memcmp(tok, "bytes_req", 9)) {
			r.bytes_req = v;
		} else if (tlen == 11 && !memcmp(tok, "bytes_alloc", 11)) {
			r.bytes_alloc = v;
		}
	}
	if (!have_hits) {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, close, "a row without "
			"its hitcount");
		g_free(r.sym);
		return FALSE;
	}
	sec->rows++;
	g_array_append_val(ps->h->rows, r);
	return TRUE;
}

/* "    Hits: N", "    Entries: N", "    Dropped: N", in that order */
static gboolean parse_total(struct parser *ps, const struct sa_line *l,
			    GError **error)
{
	static const char *const names[] = { "Hits:", "Entries:", "Dropped:" };
	struct sa_hist_section *sec = cur(ps);
	const char *pos = l->s, *tok, *vtok;
	size_t tlen, vlen;
	guint64 v, *slot[] = { &sec->hits, &sec->entries, &sec->dropped };
	int i = ps->totals - HITS;

	if (!sa_line_token(l, &pos, &tok, &tlen) ||
	    tlen != strlen(names[i]) || memcmp(tok, names[i], tlen) ||
	    !sa_line_token(l, &pos, &vtok, &vlen) ||
	    !sa_dec_u64(vtok, vlen, &v) || sa_line_token(l, &pos, &tok, &tlen)) {
		set_err(error, SA_HIST_ERROR_SYNTAX, l, l->s, "not '%s N' in "
			"the Totals", names[i]);
		return FALSE;
	}
	*slot[i] = v;
	ps->totals++;
	if (ps->totals == DONE)
		sec->totals = true;
	return TRUE;
}

static gboolean parse_line(void *data, const char *s, size_t len,
			   GError **error)
{
	struct parser *ps = data;
	struct sa_line l = { .s = s, .len = len, .no = ++ps->no };
	struct sa_hist_section sec = { 0 };

	if (len > SA_HIST_MAX_LINE) {
		set_err(error, SA_HIST_ERROR_BOUND, &l, s, "a line longer "
			"than %d bytes", SA_HIST_MAX_LINE);
		return FALSE;
	}
	if (l.no == 1 && !sa_hist_sniff(s, len)) {
		set_err(error, SA_HIST_ERROR_FORMAT, &l, s, "not a histogram "
			"(no '# event histogram' line)");
		return FALSE;
	}
	if (ps->totals > NONE && ps->totals < DONE)
		return parse_total(ps, &l, error);
	if (starts(s, len, head_tag)) {
		if (ps->h->sections->len >= SA_HIST_MAX_SECTIONS) {
			set_err(error, SA_HIST_ERROR_BOUND, &l, s, "more than "
				"%d histograms", SA_HIST_MAX_SECTIONS);
			return FALSE;
		}
		if (ps->h->sections->len && !cur(ps)->totals) {
			set_err(error, SA_HIST_ERROR_CUT, &l, s, "a histogram "
				"that ends before its Totals");
			return FALSE;
		}
		g_array_append_val(ps->h->sections, sec);
		ps->totals = NONE;
		return TRUE;
	}
	if (starts(s, len, trigger_tag)) {
		struct sa_hist_section *c = cur(ps);

		if (c->trigger) {
			set_err(error, SA_HIST_ERROR_SYNTAX, &l, s, "a second "
				"trigger in one histogram");
			return FALSE;
		}
		if (bad_char(s, len)) {
			set_err(error, SA_HIST_ERROR_SYNTAX, &l, bad_char(s,
				len), "a trigger that is not printable");
			return FALSE;
		}
		return parse_trigger(c, &l, s + sizeof(trigger_tag) - 1,
				     len - (sizeof(trigger_tag) - 1), error);
	}
	if (!len || s[0] == '#')
		return TRUE;
	if (ps->totals == DONE) {
		set_err(error, SA_HIST_ERROR_SYNTAX, &l, s, "a line after the "
			"Totals of its histogram");
		return FALSE;
	}
	if (!cur(ps)->trigger) {
		set_err(error, SA_HIST_ERROR_SYNTAX, &l, s, "a line before "
			"the histogram's '# trigger info:'");
		return FALSE;
	}
	if (s[0] == '{') {
		if (ps->h->rows->len >= SA_HIST_MAX_ROWS) {
			set_err(error, SA_HIST_ERROR_BOUND, &l, s, "more than "
				"%d rows", SA_HIST_MAX_ROWS);
			return FALSE;
		}
		return parse_row(ps, &l, error);
	}
	if (len == 7 && !memcmp(s, "Totals:", 7)) {
		ps->totals = HITS;
		return TRUE;
	}
	set_err(error, SA_HIST_ERROR_SYNTAX, &l, s, "neither a row, a "
		"comment nor the Totals");
	return FALSE;
}

static void parser_init(struct parser *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->h = g_new0(struct sa_hist, 1);
	ps->h->sections = g_array_new(FALSE, TRUE,
				      sizeof(struct sa_hist_section));
	ps->h->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_hist_row));
}

static struct sa_hist *parser_end(struct parser *ps, gboolean ok,
				  GError **error)
{
	struct sa_line l = { .s = "", .len = 0, .no = ps->no };
	guint i;

	if (ok && !ps->h->sections->len) {
		set_err(error, SA_HIST_ERROR_FORMAT, &l, l.s, "empty input");
		ok = FALSE;
	}
	for (i = 0; ok && i < ps->h->sections->len; i++) {
		const struct sa_hist_section *sec = &g_array_index(
			ps->h->sections, struct sa_hist_section, i);

		if (!sec->totals || sec->rows != sec->entries) {
			set_err(error, SA_HIST_ERROR_CUT, &l, l.s, "histogram "
				"%u of %u is cut short: %s", i + 1,
				ps->h->sections->len, sec->totals ?
				"its rows are not its Entries" :
				"it ends before its Totals");
			ok = FALSE;
		}
	}
	if (!ok) {
		sa_hist_free(ps->h);
		return NULL;
	}
	return ps->h;
}

struct sa_hist *sa_hist_parse(const char *text, size_t len, GError **error)
{
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_text_lines(text, len, parse_line, &ps, error);
	return parser_end(&ps, ok, error);
}

struct sa_hist *sa_hist_load(const char *path, GError **error)
{
	struct sa_hist *h;
	struct parser ps;
	gboolean ok;

	parser_init(&ps);
	ok = sa_input_lines(path, SA_HIST_MAX_LINE, parse_line, &ps, error);
	if (!ok && error && *error && (*error)->domain != SA_HIST_ERROR) {
		sa_hist_free(ps.h);
		return NULL;
	}
	h = parser_end(&ps, ok, error);
	if (!h)
		g_prefix_error(error, "%s: ", path);
	return h;
}

void sa_hist_free(struct sa_hist *h)
{
	guint i;

	if (!h)
		return;
	for (i = 0; i < h->sections->len; i++) {
		struct sa_hist_section *s = &g_array_index(h->sections,
			struct sa_hist_section, i);

		g_free(s->trigger);
		g_free(s->key);
	}
	for (i = 0; i < h->rows->len; i++)
		g_free(g_array_index(h->rows, struct sa_hist_row, i).sym);
	g_array_free(h->sections, TRUE);
	g_array_free(h->rows, TRUE);
	g_free(h);
}
