// SPDX-License-Identifier: GPL-2.0
/*
 * JSON member helpers shared by the JSON emitters (see emit.h).
 */
#include <math.h>

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
