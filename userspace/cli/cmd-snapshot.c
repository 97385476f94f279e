// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct snapshot: the classic memory statistics (free, vmstat, slabtop,
 * swapon, sar -B/-r/-S/-W/-H, PSI, the OOM kills of dmesg), captured and
 * explained.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "util/input-file.h"
#include "util/json-read.h"
#include "util/outfile.h"
#include "snapshot/diff.h"
#include "emit/snapshot-emit.h"
#include "util/textfold.h"

static const char description[] =
	"Reads /proc/meminfo, vmstat, slabinfo (or /sys/kernel/slab), buddyinfo,\n"
	"pagetypeinfo, zoneinfo, swaps, pressure/memory, every process's\n"
	"smaps_rollup (or status) and the OOM lines of /dev/kmsg. A source that\n"
	"is missing is shown as not available; the rest still works.\n"
	"\n"
	"Formulas:\n"
	"  free: used = MemTotal - MemAvailable, buff/cache = Buffers + Cached\n"
	"    + SReclaimable (procps 4)\n"
	"  slab (tools/mm/slabinfo): space = slabs * (PAGE_SIZE << order),\n"
	"    Loss = space - objects * object_size,\n"
	"    eff % = objects * object_size * 100 / space\n"
	"  unusable free space index, order j, per zone:\n"
	"    (free - sum_{i>=j} n_i * 2^i) / free, free = sum_i n_i * 2^i\n"
	"  rates (sar -B/-W): counter increase / seconds; vmeff % =\n"
	"    pgsteal / (pgscank + pgscand)\n"
	"\n"
	"Examples:\n"
	"  slabacct snapshot                        the report, as text\n"
	"  slabacct snapshot --interval 1 --count 5 with 5 one-second rates\n"
	"  slabacct snapshot --json -o snap.json    JSON (--raw: with sources)\n"
	"  slabacct snapshot --save raw.json        the raw snapshot, to load\n"
	"  slabacct snapshot --load raw.json --csv  again later\n"
	"  slabacct snapshot --compare a.json b.json";

/* A saved snapshot: its processes and caches, some MB at most */
#define SA_SNAPSHOT_MAX_JSON	(256u << 20)

/* A raw snapshot, or a snapshot report that carries one under "raw". */
static struct sa_snapshot *load(const char *path)
{
	struct sa_snapshot *snap = NULL;
	JsonNode *root, *node;
	GError *e = NULL;
	char *text;
	gsize len;

	text = sa_input_read(path, SA_SNAPSHOT_MAX_JSON, &len, &e);
	if (!text) {
		sa_err("snapshot", "%s", e->message);
		g_error_free(e);
		return NULL;
	}
	root = sa_json_read(text, len, path, &e);
	g_free(text);
	if (!root) {
		sa_err("snapshot", "%s", e->message);
		g_error_free(e);
		return NULL;
	}
	node = root;
	if (JSON_NODE_HOLDS_OBJECT(root) &&
	    json_object_has_member(json_node_get_object(root), "raw"))
		node = json_object_get_member(json_node_get_object(root),
					      "raw");
	snap = sa_snapshot_from_node(node, &e);
	if (!snap) {
		sa_err("snapshot", "%s: %s", path, e->message);
		g_error_free(e);
	}
	json_node_unref(root);
	return snap;
}

static struct sa_snapshot *capture(const char *root, double interval,
				   int count)
{
	struct sa_snapshot *first, *last;
	GError *e = NULL;
	GArray *tmp;
	int i;

	first = sa_snapshot_capture(root, &e);
	if (!first)
		goto fail;
	if (interval <= 0)
		return first;
	for (i = 0; i < count; i++) {
		g_usleep((gulong)(interval * G_USEC_PER_SEC));
		if (sa_snapshot_add_sample(first, root, &e))
			goto fail;
	}
	/* the figures of the end, with the samples of the whole interval */
	last = sa_snapshot_capture(root, &e);
	if (!last)
		goto fail;
	tmp = last->samples;
	last->samples = first->samples;
	first->samples = tmp;
	sa_snapshot_free(first);
	return last;
fail:
	sa_err("snapshot", "%s", e->message);
	g_error_free(e);
	sa_snapshot_free(first);
	return NULL;
}

static int write_out(const char *path, const struct sa_outfile_opts *of,
		     GString *s)
{
	return sa_output_write("snapshot", path, of, s->str, s->len);
}

/* Text, folded to 80 columns (util/textfold.h). */
static int write_folded(const char *path, const struct sa_outfile_opts *of,
			GString *s)
{
	char *t = sa_text_fold(s->str, 80);
	int ret = sa_output_write("snapshot", path, of, t, strlen(t));

	g_free(t);
	return ret;
}

static void append_json(GString *out, JsonNode *node)
{
	char *s = json_to_string(node, TRUE);

	g_string_append(out, s);
	g_string_append_c(out, '\n');
	g_free(s);
	json_node_unref(node);
}

static int compare(char **files, enum sa_format f, int top, const char *output,
		   const struct sa_outfile_opts *of)
{
	struct sa_snapshot *a = load(files[0]), *b = a ? load(files[1]) : NULL;
	struct sa_snapshot_view *va, *vb;
	GString *out = g_string_new(NULL);
	GArray *d;
	int ret;

	if (!a || !b) {
		sa_snapshot_free(a);
		return SA_EXIT_FAIL;
	}
	va = sa_snapshot_view_new(a);
	vb = sa_snapshot_view_new(b);
	d = sa_snapshot_diff(va, vb);
	if (f == SA_FMT_JSON) {
		append_json(out, sa_snapshot_diff_to_json(d));
	} else if (f == SA_FMT_CSV) {
		sa_snapshot_emit_diff_csv(out, d);
	} else {
		g_string_append_printf(out, "System: A = %s, B = %s\n",
				       files[0], files[1]);
		sa_snapshot_emit_diff_text(out, d, top);
	}
	ret = (f == SA_FMT_TEXT ? write_folded(output, of, out) :
	       write_out(output, of, out)) ? SA_EXIT_FAIL : SA_EXIT_OK;
	g_string_free(out, TRUE);
	g_array_unref(d);
	sa_snapshot_view_free(va);
	sa_snapshot_view_free(vb);
	sa_snapshot_free(a);
	sa_snapshot_free(b);
	return ret;
}

int cmd_snapshot(int argc, char **argv)
{
	gchar *output = NULL, *format = NULL, *root = NULL, *save = NULL;
	gchar *from = NULL;
	gboolean json = FALSE, csv = FALSE, raw = FALSE, cmp = FALSE;
	double interval = 0;
	int count = 0, top = 10, ret = SA_EXIT_USAGE;
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write the report to FILE", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json or csv", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "--format json",
		  NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "--format csv", NULL },
		{ "interval", 'i', 0, G_OPTION_ARG_DOUBLE, &interval,
		  "also read vmstat every S seconds, for rates", "S" },
		{ "count", 'c', 0, G_OPTION_ARG_INT, &count,
		  "number of intervals (default 1 with --interval)", "N" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "rows in the top tables (default 10)", "N" },
		{ "root", 0, 0, G_OPTION_ARG_FILENAME, &root,
		  "read proc/, sys/ and dev/kmsg under DIR (default /)", "DIR" },
		{ "raw", 0, 0, G_OPTION_ARG_NONE, &raw,
		  "JSON: include the raw sources", NULL },
		{ "save", 0, 0, G_OPTION_ARG_FILENAME, &save,
		  "also save the raw snapshot to FILE", "FILE" },
		{ "load", 0, 0, G_OPTION_ARG_FILENAME, &from,
		  "report on a saved snapshot instead of this system", "FILE" },
		{ "compare", 0, 0, G_OPTION_ARG_NONE, &cmp,
		  "compare two saved snapshots given as arguments", NULL },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_outfile_opts of;
	struct sa_snapshot_emit_opts opts = { 0 };
	struct sa_snapshot *snap = NULL;
	struct sa_snapshot_view *view;
	GString *out;
	enum sa_format f;

	if (sa_parse_options(&argc, &argv, "snapshot", "[--compare A B]",
			     "Capture the classic memory statistics and "
			     "explain them.", description, entries))
		goto done;
	if (sa_plain_format("snapshot", format, json, csv, &f) ||
	    sa_output_opts_get("snapshot", &oo, &of))
		goto done;
	sa_crash_guard("snapshot", NULL);
	if (top <= 0 || top > 100000) {
		sa_err("snapshot", "--top must be 1..100000");
		goto done;
	}
	if (cmp) {
		if (argc != 3 || interval || count || from || save) {
			sa_err("snapshot", "--compare takes two snapshot files "
			       "and no capture options");
			goto done;
		}
		ret = compare(argv + 1, f, top, output, &of);
		goto done;
	}
	if (argc > 1) {
		sa_err("snapshot", "unexpected argument '%s'", argv[1]);
		goto done;
	}
	if (interval < 0 || interval > 86400 || !isfinite(interval) ||
	    count < 0 || count > 100000 || (count && !interval)) {
		sa_err("snapshot", "--interval must be 0..86400 s and --count "
		       "1..100000, and --count needs --interval");
		goto done;
	}
	if (interval && !count)
		count = 1;
	if (from && (interval || root)) {
		sa_err("snapshot", "--load does not take --interval or --root");
		goto done;
	}
	ret = SA_EXIT_FAIL;
	snap = from ? load(from) : capture(root ? root : "/", interval, count);
	if (!snap)
		goto done;
	if (save) {
		char *s = sa_snapshot_to_json(snap, true);
		int bad = sa_output_write("snapshot", save, &of, s, strlen(s));

		g_free(s);
		if (bad)
			goto done;
	}
	opts.top = top;
	opts.raw = raw;
	view = sa_snapshot_view_new(snap);
	out = g_string_new(NULL);
	if (f == SA_FMT_JSON)
		append_json(out, sa_snapshot_view_to_json(view, &opts));
	else if (f == SA_FMT_CSV)
		sa_snapshot_emit_csv(out, view);
	else
		sa_snapshot_emit_text(out, view, &opts);
	ret = (f == SA_FMT_TEXT ? write_folded(output, &of, out) :
	       write_out(output, &of, out)) ? SA_EXIT_FAIL : SA_EXIT_OK;
	g_string_free(out, TRUE);
	sa_snapshot_view_free(view);
done:
	sa_output_opts_clear(&oo);
	sa_snapshot_free(snap);
	g_free(output);
	g_free(format);
	g_free(root);
	g_free(save);
	g_free(from);
	return ret;
}
