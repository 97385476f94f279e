// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON writer (util/json.h), over json-glib's builder and generator.
 */
#include <errno.h>

#include "util/json.h"

void sa_json_put_int(JsonBuilder *b, const char *k, gint64 v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_int_value(b, v);
}

void sa_json_add_uint(JsonBuilder *b, guint64 v)
{
	json_builder_add_int_value(b, v > G_MAXINT64 ? G_MAXINT64 : (gint64)v);
}

void sa_json_put_uint(JsonBuilder *b, const char *k, guint64 v)
{
	json_builder_set_member_name(b, k);
	sa_json_add_uint(b, v);
}

void sa_json_put_pct(JsonBuilder *b, const char *k, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	/*
	 * Rounded as printf rounds it, on the exact value: a tie (15.625) goes
	 * to even, as in the text output and in Python's round(v, 2), not
	 * away from zero as round(v * 100) would take it.
	 */
	json_builder_set_member_name(b, k);
	json_builder_add_double_value(b, g_ascii_strtod(
		g_ascii_formatd(buf, sizeof(buf), "%.2f", v), NULL));
}

void sa_json_put_str(JsonBuilder *b, const char *k, const char *v)
{
	json_builder_set_member_name(b, k);
	if (v)
		json_builder_add_string_value(b, v);
	else
		json_builder_add_null_value(b);
}

void sa_json_put_bool(JsonBuilder *b, const char *k, bool v)
{
	json_builder_set_member_name(b, k);
	json_builder_add_boolean_value(b, v);
}

void sa_json_put_strv(JsonBuilder *b, const char *k, const GPtrArray *v)
{
	guint i;

	json_builder_set_member_name(b, k);
	json_builder_begin_array(b);
	for (i = 0; i < v->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(v, i));
	json_builder_end_array(b);
}

int sa_json_print(JsonBuilder *b, FILE *f, bool pretty)
{
	JsonGenerator *gen = json_generator_new();
	JsonNode *root = json_builder_get_root(b);
	gchar *s;
	int ret = 0;

	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, pretty);
	s = json_generator_to_data(gen, NULL);
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF) {
		if (!errno)
			errno = EIO;
		ret = -1;
	}
	g_free(s);
	json_node_unref(root);
	g_object_unref(gen);
	return ret;
}
