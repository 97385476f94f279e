// SPDX-License-Identifier: GPL-2.0
/*
 * Small formatting helpers shared by the emitters (see emit/emit.h): the
 * text buffer folded to the width, the text name column cut to it, and
 * a CSV field.
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "util/textfold.h"

void sa_text_tail_name(const struct sa_emit *e, int used, const char *s)
{
	/* a name is never cut: the line runs past the width instead */
	fprintf(e->out, "%s\n", sa_esc(s));
}

void sa_text_where(const struct sa_emit *e, int indent, const char *file,
		   int line)
{
	char *w;
	int len, room;

	if (!file)
		return;
	file = sa_esc(file);
	w = line > 0 ? g_strdup_printf("at %s:%d", file, line) :
		g_strdup_printf("in %s", file);
	len = strlen(w);
	room = e->width - indent;
	if (e->width <= 0 || len <= room)
		fprintf(e->out, "%*s%s\n", indent, "", w);
	else if (room > 10)	/* keep the file name and line: cut the path */
		fprintf(e->out, "%*s%.3s~%s\n", indent, "", w,
			w + len - (room - 4));
	else
		fprintf(e->out, "%*s%.*s~\n", indent, "", room - 1, w);
	g_free(w);
}

void sa_csv_str(FILE *f, const char *s)
{
	const char *p;

	if (!s)
		return;
	s = sa_esc(s);		/* no control characters: no \n, no \r */
	if (!strpbrk(s, ",\"")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/*
 * Text: the emitters write to a buffer, which goes out folded to the
 * width (util/textfold.h): what they lay out to fit is left as it is.
 */
int sa_text_begin(struct sa_emit *e, struct sa_text_buf *t)
{
	t->out = e->out;
	t->buf = NULL;
	t->len = 0;
	if (e->width <= 0)
		return 0;
	e->out = open_memstream(&t->buf, &t->len);
	if (!e->out) {
		e->out = t->out;
		return -1;
	}
	return 0;
}

int sa_text_end(struct sa_emit *e, struct sa_text_buf *t)
{
	int ret = 0;

	if (e->out == t->out)
		return 0;
	if (fclose(e->out))
		ret = -1;
	e->out = t->out;
	if (!ret && sa_text_fold_write(e->out, t->buf, t->len, e->width))
		ret = -1;
	free(t->buf);
	t->buf = NULL;
	return ret;
}

void sa_json_begin_member(JsonBuilder *b, const char *k, bool array)
{
	json_builder_set_member_name(b, k);
	if (array)
		json_builder_begin_array(b);
	else
		json_builder_begin_object(b);
}

/* A line cut at the width (text computed first, for the verbose rows). */
void sa_text_put_cut(struct sa_emit *e, char *line)
{
	if (e->width > 0 && (int)strlen(line) > e->width) {
		line[e->width - 1] = '~';
		line[e->width] = 0;
	}
	fprintf(e->out, "%s\n", line);
}

void sa_text_put_secs(FILE *f, guint64 ns)
{
	fprintf(f, "%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT,
		ns / G_GUINT64_CONSTANT(1000000000), (ns % G_GUINT64_CONSTANT(1000000000)) / G_GUINT64_CONSTANT(1000));
}
