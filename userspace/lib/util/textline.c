// SPDX-License-Identifier: GPL-2.0
/*
 * Taking a line of a text input apart (util/textline.h).
 */
#include <stdarg.h>
#include <string.h>

#include "util/textline.h"

gboolean sa_line_token(const struct sa_line *l, const char **pos,
		       const char **tok, size_t *tlen)
{
	const char *p = *pos, *end = l->s + l->len;

	while (p < end && g_ascii_isspace(*p))
		p++;
	if (p == end)
		return FALSE;
	*tok = p;
	while (p < end && !g_ascii_isspace(*p))
		p++;
	*tlen = p - *tok;
	*pos = p;
	return TRUE;
}

char **sa_line_fields(const struct sa_line *l, int *n)
{
	GPtrArray *f = g_ptr_array_new();
	const char *pos = l->s, *tok;
	size_t tlen;

	while (sa_line_token(l, &pos, &tok, &tlen))
		g_ptr_array_add(f, g_strndup(tok, tlen));
	*n = f->len;
	g_ptr_array_add(f, NULL);
	return (char **)g_ptr_array_free(f, FALSE);
}

void sa_line_error(GError **error, GQuark domain, int code,
		   const struct sa_line *l, const char *at,
		   const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, domain, code,
		    "line %" G_GUINT64_FORMAT ", column %u: %s", l->no,
		    (unsigned int)(at - l->s) + 1, msg);
	g_free(msg);
}

gboolean sa_dec_u64(const char *s, size_t len, guint64 *v)
{
	size_t i;

	*v = 0;
	if (!len)
		return FALSE;
	for (i = 0; i < len; i++) {
		guint64 d = (guint64)(s[i] - '0');

		if (!g_ascii_isdigit(s[i]) || *v > G_MAXUINT64 / 10 ||
		    (*v == G_MAXUINT64 / 10 && d > G_MAXUINT64 % 10))
			return FALSE;
		*v = *v * 10 + d;
	}
	return TRUE;
}

gboolean sa_dec_s64(const char *s, size_t len, gint64 *v)
{
	gboolean neg = len > 1 && s[0] == '-';
	guint64 u;

	if (!sa_dec_u64(s + neg, len - neg, &u) ||
	    u > (guint64)G_MAXINT64 + neg)
		return FALSE;
	*v = neg ? (gint64)(0 - u) : (gint64)u;
	return TRUE;
}

gboolean sa_text_lines(const char *text, size_t len, sa_input_line_fn fn,
		       void *data, GError **err)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!fn(data, p, (nl ? nl : end) - p, err))
			return FALSE;
		p = nl ? nl + 1 : end;
	}
	return TRUE;
}
