// SPDX-License-Identifier: GPL-2.0
/*
 * Small formatting helpers shared by the emitters (see emit.h): JSON
 * members, and the text name column cut to the width.
 */
#include <math.h>
#include <string.h>

#include "emit.h"

void sa_json_put_int(JsonBuilder *b, const char *k, gint64 v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_int_value(b, v);
}

void sa_json_put_pct(JsonBuilder *b, const char *k, double v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_double_value(b, round(v * 100.0) / 100.0);
}

void sa_json_put_str(JsonBuilder *b, const char *k, const char *v)
{
	json_builder_set_member_name(b, k);
	if (v)
		json_builder_add_string_value(b, v);
	else
		json_builder_add_null_value(b);
}

void sa_text_tail_name(const struct sa_emit *e, int used, const char *s)
{
	int room, len, mlen;
	const char *mod;

	s = sa_esc(s);
	room = e->width - used;
	len = strlen(s);
	mod = strstr(s, " [");
	mlen = mod ? (int)strlen(mod) : 0;

	if (room < 8)
		room = 8;
	if (e->width <= 0 || len <= room)
		fprintf(e->out, "%s\n", s);
	else if (mod && room - mlen >= 8)	/* keep " [module]" */
		fprintf(e->out, "%.*s~%s\n", room - mlen - 1, s, mod);
	else
		fprintf(e->out, "%.*s~\n", room - 1, s);
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
