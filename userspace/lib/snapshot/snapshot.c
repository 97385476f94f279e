// SPDX-License-Identifier: GPL-2.0
/*
 * Capture a system snapshot from a root directory, and (de)serialize it
 * to JSON. See snapshot/snapshot.h.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/input-file.h"
#include "util/json-read.h"
#include "procfs/oomlog.h"
#include "procfs/procs.h"
#include "procfs/slabinfo.h"
#include "snapshot/snapshot.h"
#include "procfs/parse.h"

static const struct {
	const char *name;
	const char *path;
} sources[SA_SRC_NR] = {
	[SA_SRC_MEMINFO] = { "meminfo", "proc/meminfo" },
	[SA_SRC_VMSTAT] = { "vmstat", "proc/vmstat" },
	[SA_SRC_SLABINFO] = { "slabinfo", "proc/slabinfo" },
	[SA_SRC_SLAB_SYSFS] = { "slab_sysfs", "sys/kernel/slab" },
	[SA_SRC_BUDDYINFO] = { "buddyinfo", "proc/buddyinfo" },
	[SA_SRC_PAGETYPEINFO] = { "pagetypeinfo", "proc/pagetypeinfo" },
	[SA_SRC_ZONEINFO] = { "zoneinfo", "proc/zoneinfo" },
	[SA_SRC_SWAPS] = { "swaps", "proc/swaps" },
	[SA_SRC_PSI] = { "psi_memory", "proc/pressure/memory" },
	[SA_SRC_PROCS] = { "procs", "proc/PID/smaps_rollup" },
	[SA_SRC_OOMLOG] = { "oomlog", "dev/kmsg" },
};

const char *sa_snap_source_name(enum sa_snap_source src)
{
	return src < SA_SRC_NR ? sources[src].name : "?";
}

const char *sa_snap_source_path(enum sa_snap_source src)
{
	return src < SA_SRC_NR ? sources[src].path : "?";
}

int sa_snap_source_from_name(const char *name)
{
	int i;

	for (i = 0; i < SA_SRC_NR; i++)
		if (!strcmp(sources[i].name, name))
			return i;
	return -1;
}

static double read_uptime(const char *root)
{
	char *t = sa_snap_read(root, "proc/uptime", NULL);
	double up = -1;

	if (t)
		up = g_ascii_strtod(t, NULL);
	g_free(t);
	return up;
}

int sa_snapshot_add_sample(struct sa_snapshot *snap, const char *root,
			   GError **err)
{
	struct sa_snap_sample s;

	s.vmstat = sa_snap_read(root, "proc/vmstat", err);
	if (!s.vmstat)
		return -1;
	s.uptime = read_uptime(root);
	if (s.uptime < 0) {
		g_free(s.vmstat);
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s/proc/uptime is not readable", root);
		return -1;
	}
	g_array_append_val(snap->samples, s);
	return 0;
}

static void clear_sample(gpointer p)
{
	struct sa_snap_sample *s = p;

	g_free(s->vmstat);
}

static struct sa_snapshot *snapshot_new(void)
{
	struct sa_snapshot *snap = g_new0(struct sa_snapshot, 1);

	snap->samples = g_array_new(FALSE, TRUE, sizeof(struct sa_snap_sample));
	g_array_set_clear_func(snap->samples, clear_sample);
	snap->uptime = -1;
	snap->page_size = 4096;
	return snap;
}

static void set_missing(struct sa_snapshot *snap, int src, GError *e)
{
	snap->why[src] = g_strdup(e ? e->message : "not available");
	g_clear_error(&e);
}

struct sa_snapshot *sa_snapshot_capture(const char *root, GError **err)
{
	struct sa_snapshot *snap;
	char *proc = g_build_filename(root, "proc", NULL);
	gboolean ok = g_file_test(proc, G_FILE_TEST_IS_DIR);
	char *rel;
	int i;

	g_free(proc);
	if (!ok) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s/proc is not a directory", root);
		return NULL;
	}
	snap = snapshot_new();
	snap->root = g_strdup(root);
	snap->wall_time = g_get_real_time();
	snap->uptime = read_uptime(root);
	snap->page_size = sysconf(_SC_PAGESIZE);
	rel = sa_snap_read(root, "proc/sys/kernel/osrelease", NULL);
	if (!rel)
		rel = sa_snap_read(root, "proc/osrelease", NULL);
	if (rel)
		snap->release = g_strstrip(rel);

	for (i = 0; i < SA_SRC_NR; i++) {
		GError *e = NULL;

		switch (i) {
		case SA_SRC_SLAB_SYSFS:
			snap->text[i] = sa_slab_sysfs_capture(root, &e);
			break;
		case SA_SRC_PROCS:
			snap->text[i] = sa_procs_capture(root, &e);
			break;
		case SA_SRC_OOMLOG:
			snap->text[i] = sa_oomlog_capture(root, &e);
			break;
		default:
			snap->text[i] = sa_snap_read(root, sources[i].path, &e);
			if (snap->text[i] && !snap->text[i][0]) {
				g_clear_pointer(&snap->text[i], g_free);
				e = g_error_new(G_FILE_ERROR, G_FILE_ERROR_INVAL,
						"%s is empty", sources[i].path);
			}
			break;
		}
		if (!snap->text[i])
			set_missing(snap, i, e);
	}
	if (snap->text[SA_SRC_VMSTAT] && snap->uptime >= 0) {
		struct sa_snap_sample s = {
			.uptime = snap->uptime,
			.vmstat = g_strdup(snap->text[SA_SRC_VMSTAT]),
		};

		g_array_append_val(snap->samples, s);
	}
	return snap;
}

void sa_snapshot_free(struct sa_snapshot *snap)
{
	int i;

	if (!snap)
		return;
	for (i = 0; i < SA_SRC_NR; i++) {
		g_free(snap->text[i]);
		g_free(snap->why[i]);
	}
	if (snap->samples)
		g_array_unref(snap->samples);
	sa_budget_input_free(snap->budget);
	g_free(snap->release);
	g_free(snap->root);
	g_free(snap);
}

/* The budget's sources: "budget": {page_size, sources, missing} */
static void budget_to_node(JsonBuilder *b, const struct sa_budget_input *in)
{
	int i;

	json_builder_set_member_name(b, "budget");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "page_size");
	json_builder_add_int_value(b, in->page_size);
	json_builder_set_member_name(b, "sources");
	json_builder_begin_object(b);
	for (i = 0; i < SA_BSRC_NR; i++) {
		if (!in->text[i])
			continue;
		json_builder_set_member_name(b, sa_budget_source_name(i));
		json_builder_add_string_value(b, in->text[i]);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "missing");
	json_builder_begin_object(b);
	for (i = 0; i < SA_BSRC_NR; i++) {
		if (in->text[i])
			continue;
		json_builder_set_member_name(b, sa_budget_source_name(i));
		json_builder_add_string_value(b, in->why[i] ? in->why[i] :
					      "not available");
	}
	json_builder_end_object(b);
	json_builder_end_object(b);
}

JsonNode *sa_snapshot_to_node(const struct sa_snapshot *snap)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *node;
	guint i;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "schema_version");
	json_builder_add_int_value(b, SA_JSON_SCHEMA_VERSION);
	json_builder_set_member_name(b, "kind");
	json_builder_add_string_value(b, "slabacct-snapshot");
	json_builder_set_member_name(b, "wall_time_us");
	json_builder_add_int_value(b, snap->wall_time);
	json_builder_set_member_name(b, "uptime");
	json_builder_add_double_value(b, snap->uptime);
	json_builder_set_member_name(b, "release");
	json_builder_add_string_value(b, snap->release);
	json_builder_set_member_name(b, "root");
	json_builder_add_string_value(b, snap->root);
	json_builder_set_member_name(b, "page_size");
	json_builder_add_int_value(b, snap->page_size);
	json_builder_set_member_name(b, "sources");
	json_builder_begin_object(b);
	for (i = 0; i < SA_SRC_NR; i++) {
		if (!snap->text[i])
			continue;
		json_builder_set_member_name(b, sources[i].name);
		json_builder_add_string_value(b, snap->text[i]);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "missing");
	json_builder_begin_object(b);
	for (i = 0; i < SA_SRC_NR; i++) {
		if (snap->text[i])
			continue;
		json_builder_set_member_name(b, sources[i].name);
		json_builder_add_string_value(b, snap->why[i] ? snap->why[i]
					      : "not available");
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "samples");
	json_builder_begin_array(b);
	for (i = 0; snap->samples && i < snap->samples->len; i++) {
		struct sa_snap_sample *s = &g_array_index(snap->samples,
				struct sa_snap_sample, i);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "uptime");
		json_builder_add_double_value(b, s->uptime);
		/* the first is usually the vmstat source itself */
		json_builder_set_member_name(b, "vmstat");
		if (i == 0 && !g_strcmp0(s->vmstat, snap->text[SA_SRC_VMSTAT]))
			json_builder_add_null_value(b);
		else
			json_builder_add_string_value(b, s->vmstat);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	if (snap->budget)
		budget_to_node(b, snap->budget);
	json_builder_end_object(b);
	node = json_builder_get_root(b);
	g_object_unref(b);
	return node;
}

char *sa_snapshot_to_json(const struct sa_snapshot *snap, bool pretty)
{
	JsonNode *node = sa_snapshot_to_node(snap);
	char *s = json_to_string(node, pretty);

	json_node_unref(node);
	return s;
}

char *sa_snapshot_capture_json(void)
{
	struct sa_snapshot *s = sa_snapshot_capture("/", NULL);
	char *json;

	if (!s)
		return NULL;
	/* the RAM budget's sources: report --what budget reads them */
	s->budget = sa_budget_capture("/");
	json = sa_snapshot_to_json(s, false);
	sa_snapshot_free(s);
	return json;
}

static const char *opt_string(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);

	if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
	    json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(n);
}

/*
 * The members of a hostile file: a member of another type than asked is
 * absent (json-glib's own getters warn on stderr and return nothing).
 */
static JsonObject *opt_object(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);

	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static JsonObject *object_at(JsonArray *a, guint i)
{
	JsonNode *n = json_array_get_element(a, i);

	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static gint64 opt_int(JsonObject *o, const char *name, gint64 def)
{
	JsonNode *n = json_object_get_member(o, name);

	return n && JSON_NODE_HOLDS_VALUE(n) &&
	       json_node_get_value_type(n) == G_TYPE_INT64 ?
	       json_node_get_int(n) : def;
}

static double opt_double(JsonObject *o, const char *name, double def)
{
	JsonNode *n = json_object_get_member(o, name);

	if (!n || !JSON_NODE_HOLDS_VALUE(n))
		return def;
	if (json_node_get_value_type(n) == G_TYPE_INT64)
		return json_node_get_int(n);
	return json_node_get_value_type(n) == G_TYPE_DOUBLE ?
	       json_node_get_double(n) : def;
}

static gboolean bad(GError **err, const char *what)
{
	g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "not a slabacct snapshot: %s", what);
	return FALSE;
}

static gboolean read_samples(struct sa_snapshot *snap, JsonObject *o,
			     GError **err)
{
	JsonNode *an = json_object_get_member(o, "samples");
	JsonArray *a;
	guint i;

	if (!an)
		return TRUE;
	if (!JSON_NODE_HOLDS_ARRAY(an))
		return bad(err, "samples is not an array");
	a = json_node_get_array(an);
	for (i = 0; i < json_array_get_length(a); i++) {
		JsonObject *so = object_at(a, i);
		struct sa_snap_sample s;
		JsonNode *vn;
		const char *v;

		if (!so)
			return bad(err, "a sample is not an object");
		v = opt_string(so, "vmstat");
		vn = json_object_get_member(so, "vmstat");
		if (!v && i == 0 && vn && JSON_NODE_HOLDS_NULL(vn))
			v = snap->text[SA_SRC_VMSTAT];
		if (!v)
			return bad(err, "a sample without vmstat");
		s.uptime = opt_double(so, "uptime", -1);
		s.vmstat = g_strdup(v);
		g_array_append_val(snap->samples, s);
	}
	return TRUE;
}

/*
 * The budget's sources, if the snapshot has them. Absent: NULL (an older
 * snapshot). Present but malformed: an error, never a half budget.
 */
static gboolean read_budget(struct sa_snapshot *snap, JsonObject *o,
			    GError **err)
{
	JsonNode *bn = json_object_get_member(o, "budget");
	struct sa_budget_input *in;
	JsonObject *bo, *src, *miss;
	gint64 ps;
	int i;

	if (!bn)
		return TRUE;
	if (!JSON_NODE_HOLDS_OBJECT(bn))
		return bad(err, "budget is not an object");
	bo = json_node_get_object(bn);
	ps = opt_int(bo, "page_size", 0);
	src = opt_object(bo, "sources");
	miss = opt_object(bo, "missing");
	/* the page sizes Linux has: 4 kB to 256 kB, a power of two */
	if (!src || ps < 4096 || ps > 262144 || (ps & (ps - 1)))
		return bad(err, "budget without sources, or a bad page_size");
	in = g_new0(struct sa_budget_input, 1);
	in->page_size = ps;
	for (i = 0; i < SA_BSRC_NR; i++) {
		const char *name = sa_budget_source_name(i);

		in->text[i] = g_strdup(opt_string(src, name));
		if (!in->text[i])
			in->why[i] = g_strdup(miss ? opt_string(miss, name) :
					      NULL);
		if (!in->text[i] && !in->why[i])
			in->why[i] = g_strdup("not in the snapshot");
	}
	snap->budget = in;
	return TRUE;
}

struct sa_snapshot *sa_snapshot_from_node(JsonNode *node, GError **err)
{
	struct sa_snapshot *snap;
	JsonObject *o, *src, *miss;
	int i;

	if (!node || !JSON_NODE_HOLDS_OBJECT(node)) {
		bad(err, "not a JSON object");
		return NULL;
	}
	o = json_node_get_object(node);
	if (g_strcmp0(opt_string(o, "kind"), "slabacct-snapshot")) {
		bad(err, "kind is not slabacct-snapshot");
		return NULL;
	}
	if (opt_int(o, "schema_version", 0) != SA_JSON_SCHEMA_VERSION) {
		bad(err, "unknown schema_version");
		return NULL;
	}
	snap = snapshot_new();
	snap->wall_time = opt_int(o, "wall_time_us", 0);
	snap->uptime = opt_double(o, "uptime", -1);
	snap->release = g_strdup(opt_string(o, "release"));
	snap->root = g_strdup(opt_string(o, "root"));
	snap->page_size = opt_int(o, "page_size", 4096);
	src = opt_object(o, "sources");
	miss = opt_object(o, "missing");
	if (!src || snap->page_size <= 0 ||
	    (snap->page_size & (snap->page_size - 1))) {
		bad(err, "no sources, or a bad page_size");
		goto error;
	}
	for (i = 0; i < SA_SRC_NR; i++) {
		snap->text[i] = g_strdup(opt_string(src, sources[i].name));
		if (!snap->text[i])
			snap->why[i] = g_strdup(miss ? opt_string(miss,
					sources[i].name) : NULL);
		if (!snap->text[i] && !snap->why[i])
			snap->why[i] = g_strdup("not in the snapshot");
	}
	if (!read_samples(snap, o, err) || !read_budget(snap, o, err))
		goto error;
	return snap;
error:
	sa_snapshot_free(snap);
	return NULL;
}

struct sa_snapshot *sa_snapshot_from_json(const char *text, const char *name,
					  GError **err)
{
	JsonNode *root = sa_json_read(text, strlen(text), name, err);
	struct sa_snapshot *snap;

	if (!root)
		return NULL;
	snap = sa_snapshot_from_node(root, err);
	json_node_unref(root);
	return snap;
}
