// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON reader (util/json-read.h).
 *
 * json-glib 1.6 and 1.8 parse an array or object by recursion, one C
 * frame per level and a statement "var NAME = " by recursion too, with
 * no bound: a 300 KB file of '[' overflows the stack. The depth is
 * therefore measured first, by a scanner that splits the text into the
 * tokens json-glib's scanner (json-scanner.c, a GScanner configured for
 * JSON) makes of it, because a bracket only nests where that scanner
 * sees one:
 * - a comment starts at '/' and ends at the next '/' (its configuration
 *   pairs "//\n" as the single-line comment and does not scan C
 *   comments), so "/" "* ]] *" "/" is one comment, and "// [[" an empty
 *   comment followed by brackets;
 * - a string is "..." with backslash escapes, where \u takes up to four
 *   hex digits and the character that ends them, and a lone UTF-16
 *   surrogate takes the next two characters when they are not "\u";
 *   or '...' with no escapes;
 * - a number takes letters, digits and '.', and after '.' or '$' the
 *   character that follows whatever it is.
 * Within a text that json-glib accepts, this measures exactly the depth
 * it recurses to; past a point where json-glib fails, it may count more,
 * which only refuses a text json-glib refuses too. json-glib 1.10 scans
 * comments as C does and bounds nesting itself (at 1024 levels), so a
 * text read there may only be refused by the other of the two bounds.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/json-read.h"

enum tok {
	T_EOF, T_OPEN, T_CLOSE, T_STRING, T_VAR, T_WORD, T_NUMBER, T_CHAR,
	T_ERROR
};

struct scan {
	const guchar *p, *end;
	guint line;
};

/* json_scanner_get_char: 0 at the end (the text holds no NUL) */
static guchar get(struct scan *s)
{
	guchar c = s->p < s->end ? *s->p++ : 0;

	if (c == '\n')
		s->line++;
	return c;
}

static guchar peek(const struct scan *s)
{
	return s->p < s->end ? *s->p : 0;
}

static bool is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static bool ident_first(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ident_nth(int c)
{
	return ident_first(c) || c == '-' || (c >= '0' && c <= '9');
}

static bool alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* json_scanner_get_unichar: up to 4 hex digits, and the one that ends them */
static gunichar unichar(struct scan *s)
{
	gunichar u = 0;
	int i;

	for (i = 0; i < 4; i++) {
		guchar c = get(s);

		if (!is_hex(c))
			break;
		u += (gunichar)g_ascii_xdigit_value(c) << ((3 - i) * 4);
	}
	return u;
}

/* A "..." string, its opening quote read */
static enum tok dq_string(struct scan *s)
{
	bool bad = false;
	guchar c;

	while ((c = get(s)) != 0) {
		if (c == '"' || bad)
			return bad ? T_ERROR : T_STRING;
		if (c != '\\')
			continue;
		c = get(s);
		if (c == 'u' && is_hex(peek(s))) {
			gunichar u = unichar(s), v;

			if (u < 0xd800 || u > 0xdfff)
				continue;
			/* a surrogate: the pair's second half, if "\u" */
			if (get(s) != '\\' || get(s) != 'u')
				continue;
			v = unichar(s);
			if (v < 0xdc00 || v > 0xdfff || u > 0xdbff)
				bad = true;
		} else if (c >= '0' && c <= '7') {
			/* up to two more octal digits */
			if (peek(s) >= '0' && peek(s) <= '7') {
				get(s);
				if (peek(s) >= '0' && peek(s) <= '7')
					get(s);
			}
		}
	}
	return T_ERROR;		/* the text ends within the string */
}

/* A number, its first character c read */
static enum tok number(struct scan *s, guchar c)
{
	bool hex = c == '$';
	guchar last = c;

	if (c == '.' || c == '$') {
		last = get(s);
	} else if (c == '0' && (peek(s) == 'x' || peek(s) == 'X' ||
				peek(s) == 'b' || peek(s) == 'B')) {
		hex = peek(s) == 'x' || peek(s) == 'X';
		get(s);
		last = get(s);
	}
	for (;;) {
		c = peek(s);
		if (!alnum(c) && c != '.' &&
		    !((c == '+' || c == '-') && !hex &&
		      (last == 'e' || last == 'E')))
			break;
		last = get(s);
	}
	return T_NUMBER;
}

/* json_scanner_get_token_i: the next token, comments and blanks skipped */
static enum tok token(struct scan *s)
{
	for (;;) {
		guchar c = get(s);

		if (ident_first(c)) {
			const guchar *w = s->p - 1;

			while (ident_nth(peek(s)))
				get(s);
			return s->p - w == 3 && !memcmp(w, "var", 3) ?
			       T_VAR : T_WORD;
		}
		switch (c) {
		case 0:
			return T_EOF;
		case ' ': case '\t': case '\r': case '\n':
			continue;
		case '/':
			while ((c = get(s)) != 0 && c != '/')
				;
			if (!c)
				return T_ERROR;
			continue;
		case '\'':
			while ((c = get(s)) != 0 && c != '\'')
				;
			return c ? T_STRING : T_ERROR;
		case '"':
			return dq_string(s);
		case '[': case '{':
			return T_OPEN;
		case ']': case '}':
			return T_CLOSE;
		case '.': case '$':
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			return number(s, c);
		default:
			return T_CHAR;
		}
	}
}

/*
 * The depth (up to max) and the values (up to max_values: arrays,
 * objects, strings, member names, numbers, words) of a text: 0 within
 * both, else -1 with *line where it goes past one, *many if the values.
 */
static int measure(const char *text, gsize len, guint max, guint max_values,
		   guint *line, bool *many)
{
	struct scan s = { (const guchar *)text, (const guchar *)text + len, 1 };
	guint depth = 0, chain = 0, values = 0;
	bool name = false;
	enum tok t;

	*many = false;
	/* json_parser_load skips a UTF-8 byte order mark */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		s.p += 3;
	/*
	 * depth: the arrays and objects open; chain: at the top, the
	 * statements "var NAME = " that json_parse_statement recurses into,
	 * until the value assigned ends.
	 */
	while ((t = token(&s)) != T_EOF) {
		bool was_name = name;

		name = false;
		if (t != T_CLOSE && t != T_CHAR && t != T_ERROR &&
		    ++values > max_values) {
			*many = true;
			goto deep;
		}
		if (t == T_OPEN && ++depth + chain > max)
			goto deep;
		if (depth) {
			if (t == T_CLOSE && !--depth)
				chain = 0;
			continue;
		}
		if (t == T_VAR && !was_name) {
			name = true;
			if (++chain > max)
				goto deep;
		} else if ((t == T_STRING || t == T_NUMBER || t == T_WORD ||
			    t == T_VAR) && !was_name) {
			chain = 0;	/* a value: the statement ends */
		}
	}
	return 0;
deep:
	*line = s.line;
	return -1;
}

int sa_json_depth_check(const char *text, gsize len, guint max, guint *line)
{
	bool many;

	return measure(text, len, max, G_MAXUINT, line, &many);
}

/* "<data>:L:C: Parse error: MSG" as "name: not valid JSON: line L, ..." */
static void parse_error(GError **err, const char *name, const GError *e)
{
	guint l, c;
	int n = 0;
	const char *m = e->message, *rest;

	if (sscanf(m, "<data>:%u:%u: %n", &l, &c, &n) == 2 && n > 0) {
		rest = strstr(m + n, ": ");
		g_set_error(err, JSON_PARSER_ERROR, e->code,
			    "%s: not valid JSON: line %u, column %u: %s",
			    name, l, c, rest ? rest + 2 : m + n);
	} else {
		g_set_error(err, JSON_PARSER_ERROR, e->code,
			    "%s: not valid JSON: %s", name, m);
	}
}

JsonNode *sa_json_read(const char *text, gsize len, const char *name,
		       GError **err)
{
	JsonParser *p;
	JsonNode *root = NULL;
	const char *end;
	GError *e = NULL;
	guint line = 1;
	bool many;
	gsize i;

	if (!text)
		text = "";
	if (!g_utf8_validate(text, len, &end)) {
		for (i = 0; text + i < end; i++)
			line += text[i] == '\n';
		g_set_error(err, JSON_PARSER_ERROR,
			    JSON_PARSER_ERROR_INVALID_DATA,
			    "%s: line %u: not UTF-8 text, so not JSON", name,
			    line);
		return NULL;
	}
	if (measure(text, len, SA_JSON_READ_DEPTH, SA_JSON_READ_VALUES, &line,
		    &many)) {
		if (many)
			g_set_error(err, JSON_PARSER_ERROR,
				    JSON_PARSER_ERROR_INVALID_DATA,
				    "%s: line %u: more than %u JSON values, "
				    "the most slabacct reads", name, line,
				    SA_JSON_READ_VALUES);
		else
			g_set_error(err, JSON_PARSER_ERROR,
				    JSON_PARSER_ERROR_INVALID_DATA,
				    "%s: line %u: JSON nested deeper than %d "
				    "levels, the most slabacct reads", name,
				    line, SA_JSON_READ_DEPTH);
		return NULL;
	}
	p = json_parser_new();
	if (!json_parser_load_from_data(p, text, len, &e)) {
		parse_error(err, name, e);
		g_error_free(e);
	} else if (!json_parser_get_root(p)) {
		g_set_error(err, JSON_PARSER_ERROR,
			    JSON_PARSER_ERROR_INVALID_DATA,
			    "%s: %s, no JSON value", name,
			    len ? "only blanks and comments" : "an empty file");
	} else {
		root = json_node_ref(json_parser_get_root(p));
	}
	g_object_unref(p);
	return root;
}
