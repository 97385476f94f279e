// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the JSON reader of slabacct diff and merge
 * (report/json-input.c: a report's, a diff's or a merge's JSON, as one
 * side of a diff or one run of a merge), then what diff and merge do
 * with the sides it accepts: the diff of the input with itself and the
 * merge of it twice, emitted as text, JSON and CSV.
 */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"
#include "report/diff.h"
#include "report/merge.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int load(struct sa_diff_side *s, const char *text, size_t size,
		const struct sa_diff_opts *o)
{
	GError *err = NULL;

	memset(s, 0, sizeof(*s));
	s->file = g_strdup("fuzz.json");
	s->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	if (!sa_diff_side_load_json(s, s->file, text, size, o, &err))
		return 0;
	g_clear_error(&err);
	return -1;
}

static void diff(const char *text, size_t size, const struct sa_diff_opts *o,
		 FILE *null)
{
	struct sa_diff d = { 0 };
	GError *err = NULL;
	int f;

	if (load(&d.side[0], text, size, o) ||
	    load(&d.side[1], text, size, o) ||
	    sa_diff_check_sides(&d, &err)) {
		g_clear_error(&err);
		sa_diff_clear(&d);
		return;
	}
	sa_diff_compute_rows(&d, o);
	sa_diff_view(&d, o);
	for (f = SA_FMT_TEXT; f <= SA_FMT_CSV; f++) {
		struct sa_emit e = { .fmt = f, .out = null, .width = 80 };

		sa_emit_diff(&e, &d);
	}
	sa_diff_clear(&d);
}

static void merge(const char *text, size_t size,
		  const struct sa_diff_opts *o, FILE *null)
{
	struct sa_diff_side s;
	struct sa_merge m;
	GError *err = NULL;
	int i, f;

	sa_merge_init(&m, o->by);
	for (i = 0; i < 2; i++) {
		int bad = load(&s, text, size, o) || sa_merge_add(&m, &s, &err);

		sa_diff_side_clear(&s);
		if (bad) {
			g_clear_error(&err);
			sa_merge_clear(&m);
			return;
		}
	}
	sa_merge_finish(&m, 0);
	for (f = SA_FMT_TEXT; f <= SA_FMT_CSV; f++) {
		struct sa_emit e = { .fmt = f, .out = null, .width = 80 };

		sa_emit_merge(&e, &m);
	}
	sa_merge_clear(&m);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sa_diff_opts o = { .threads = 1 };
	char *text = g_strndup((const char *)data, size);
	FILE *null = fopen("/dev/null", "w");

	/* the last byte chooses the key: by call site or by function */
	o.by = size && (data[size - 1] & 1) ? SA_DIFF_BY_FUNCTION
					    : SA_DIFF_BY_SITE;
	diff(text, size, &o, null);
	merge(text, size, &o, null);
	fclose(null);
	g_free(text);
	return 0;
}
