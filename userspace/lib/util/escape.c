// SPDX-License-Identifier: GPL-2.0
/* Escaping the input's strings for text and CSV output (util/escape.h). */
#include <stdbool.h>
#include <string.h>

#include "util/escape.h"

/* Length of the valid UTF-8 sequence at s (of at most n bytes), or 0. */
static size_t utf8_len(const guchar *s, size_t n)
{
	gunichar c = g_utf8_get_char_validated((const gchar *)s, n);

	if (c == (gunichar)-1 || c == (gunichar)-2)
		return 0;
	return g_unichar_to_utf8(c, NULL);
}

/* Whether the n bytes at s print as they are. */
static bool clean(const guchar *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f || s[i] == '\\')
			return false;
	return true;
}

char *sa_esc_len(const char *str, size_t n)
{
	const guchar *s = (const guchar *)str;
	GString *out = g_string_sized_new(n + 8);
	size_t i = 0, k;

	while (i < n) {
		guchar c = s[i];

		if (c >= 0x20 && c < 0x7f) {
			if (c == '\\')
				g_string_append_c(out, '\\');
			g_string_append_c(out, c);
			i++;
			continue;
		}
		k = c >= 0x80 ? utf8_len(s + i, n - i) : 0;
		/* a valid sequence other than a C1 control (U+0080..U+009F) */
		if (k > 1 && !(c == 0xc2 && s[i + 1] < 0xa0)) {
			g_string_append_len(out, (const char *)s + i, k);
			i += k;
			continue;
		}
		/* C1: both bytes, so that it reads U+0080.. */
		if (k == 2) {
			g_string_append_printf(out, "\\x%02x", c);
			c = s[++i];
		}
		g_string_append_printf(out, "\\x%02x", c);
		i++;
	}
	return g_string_free(out, FALSE);
}

const char *sa_esc(const char *s)
{
	const char *r;
	char *e;

	if (!s || clean((const guchar *)s, strlen(s)))
		return s;
	e = sa_esc_len(s, strlen(s));
	r = g_intern_string(e);
	g_free(e);
	return r;
}
