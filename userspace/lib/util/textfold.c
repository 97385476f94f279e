// SPDX-License-Identifier: GPL-2.0
/*
 * Folding text to a width: see util/textfold.h.
 */
#include <errno.h>
#include <string.h>

#include "util/textfold.h"

/* Bytes of the first n characters of s (UTF-8), at most len. */
static size_t bytes_of(const char *s, size_t len, long n)
{
	const char *p = s, *end = s + len;

	while (n-- > 0 && p < end) {
		const char *q = g_utf8_find_next_char(p, end);

		p = q ? q : end;
	}
	return p - s;
}

/*
 * The continuation prefix of a line: its indent (and "#"), two columns
 * more; for an option line of help text, the column of its description.
 */
static char *continuation(const char *l, size_t len)
{
	size_t i = 0, j;

	if (l[0] == '#') {
		i = 1;
		while (i < len && l[i] == ' ')
			i++;
		return g_strdup_printf("#%*s", (int)(i - 1 + 2), "");
	}
	while (i < len && l[i] == ' ')
		i++;
	if (i > 0 && i < len && l[i] == '-') {
		/* "  -t, --top=N     show ...": after the first run of 2+
		 * spaces, if it is not too far right */
		for (j = i; j + 1 < len; j++)
			if (l[j] == ' ' && l[j + 1] == ' ')
				break;
		while (j < len && l[j] == ' ')
			j++;
		if (j < len && j <= 40)
			return g_strnfill(j, ' ');
	}
	return g_strnfill(i + 2, ' ');
}

static void fold_line(GString *out, const char *l, size_t len, int width)
{
	char *cont = continuation(l, len);
	glong cont_w = g_utf8_strlen(cont, -1), lead_w = 0;
	size_t skip = strspn(l, "# ");	/* a break needs a word before it */

	for (;;) {
		glong room = width - lead_w;
		size_t cut, at;

		if (g_utf8_strlen(l, len) <= room || room < 8) {
			g_string_append_len(out, l, len);
			break;
		}
		cut = bytes_of(l, len, room);
		at = cut;
		while (at > skip && l[at] != ' ')
			at--;
		while (at > skip && l[at - 1] == ' ')
			at--;
		if (at <= skip)
			at = cut;	/* a word longer than a whole line */
		g_string_append_len(out, l, at);
		g_string_append_c(out, '\n');
		l += at;
		len -= at;
		while (len && *l == ' ') {
			l++;
			len--;
		}
		if (!len)
			break;
		g_string_append(out, cont);
		lead_w = cont_w;
		skip = 0;
	}
	g_free(cont);
}

char *sa_text_fold(const char *text, int width)
{
	GString *out = g_string_sized_new(strlen(text) + 64);
	const char *p = text;

	if (width <= 0)
		return g_strdup(text);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fold_line(out, p, len, width);
		if (!nl)
			break;
		g_string_append_c(out, '\n');
		p = nl + 1;
	}
	return g_string_free(out, FALSE);
}

int sa_text_fold_write(FILE *f, const char *text, size_t len, int width)
{
	char *t = g_strndup(text, len);
	char *folded = sa_text_fold(t, width);
	size_t n = strlen(folded);
	int ret = fwrite(folded, 1, n, f) == n ? 0 : -1;

	g_free(t);
	g_free(folded);
	return ret;
}
