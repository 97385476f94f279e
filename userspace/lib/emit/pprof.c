// SPDX-License-Identifier: GPL-2.0
/*
 * report --pprof: the call-site rows as pprof's profile.proto (emit/
 * pprof/profile.proto), packed by the C that protoc-c generates from it
 * and gzip-compressed, as pprof reads it.
 *
 * The sample types are those of Go's heap profile, in its order, so that
 * pprof's heap views (-sample_index=alloc_space, inuse_space, ...) apply:
 * alloc_objects/count, alloc_space/bytes, inuse_objects/count and
 * inuse_space/bytes, the period type space/bytes. The counts are exact
 * (a trace holds every allocation), so the period is 1.
 *
 * A sample is a row of the call-site section with its stack, leaf first:
 * the call site (a wrapper's row: the wrapper, "kvmalloc_node"), then
 * the frames from the caller outwards (--by stack); a row without a
 * stack is the call site alone. A location is an address (call site or
 * return address) in one function; a function is a kernel symbol, with
 * the source file:line the report resolved (--vmlinux) where it did: the
 * call site's, or a wrapper's caller's. Rows of no allocation and no
 * live object are left out.
 */
#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <zlib.h>

#include "emit/pprof.h"
#include "report/report.h"
#include "report/agg/callsite.h"
#include "trace/stack.h"

#ifdef SA_NO_PPROF
bool sa_pprof_available(const char **why)
{
	*why = SA_NO_PPROF;
	return false;
}

int sa_pprof_write(FILE *out, const struct sa_report *rep, GError **err)
{
	g_set_error(err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		    "built without pprof: %s", SA_NO_PPROF);
	return -1;
}
#else
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

#define NR_VALUES	4

struct pp {
	GHashTable *str_idx;	/* string -> index + 1 */
	GPtrArray *strings;	/* char *, owned */
	GHashTable *fn_idx;	/* "name\nfile" -> id */
	GPtrArray *functions;	/* Function * */
	GHashTable *loc_idx;	/* "addr\nfunction id\nline" -> id */
	GPtrArray *locations;	/* Location * */
	GPtrArray *samples;	/* Sample * */
};

bool sa_pprof_available(const char **why)
{
	*why = NULL;
	return true;
}

static gint64 str(struct pp *p, const char *s)
{
	gpointer v;
	char *copy;

	if (!s || !*s)
		return 0;
	v = g_hash_table_lookup(p->str_idx, s);
	if (v)
		return GPOINTER_TO_SIZE(v) - 1;
	copy = g_strdup(s);
	g_ptr_array_add(p->strings, copy);
	g_hash_table_insert(p->str_idx, copy,
			    GSIZE_TO_POINTER(p->strings->len));
	return p->strings->len - 1;
}

static guint64 function(struct pp *p, const char *name, const char *file)
{
	char *key = g_strdup_printf("%s\n%s", name, file ? file : "");
	gpointer v = g_hash_table_lookup(p->fn_idx, key);
	Function *f;

	if (v) {
		g_free(key);
		return GPOINTER_TO_SIZE(v);
	}
	f = g_new(Function, 1);
	perftools__profiles__function__init(f);
	f->id = p->functions->len + 1;
	f->name = str(p, name);
	f->system_name = f->name;
	f->filename = str(p, file);
	g_ptr_array_add(p->functions, f);
	g_hash_table_insert(p->fn_idx, key, GSIZE_TO_POINTER(f->id));
	return f->id;
}

static guint64 location(struct pp *p, guint64 addr, const char *name,
			const char *file, int line)
{
	guint64 fid = function(p, name, file);
	char *key = g_strdup_printf("%" G_GINT64_MODIFIER "x\n%"
				    G_GUINT64_FORMAT "\n%d", addr, fid, line);
	gpointer v = g_hash_table_lookup(p->loc_idx, key);
	Location *l;
	Line *ln;

	if (v) {
		g_free(key);
		return GPOINTER_TO_SIZE(v);
	}
	l = g_new(Location, 1);
	perftools__profiles__location__init(l);
	l->id = p->locations->len + 1;
	l->mapping_id = 1;
	l->address = addr;
	ln = g_new(Line, 1);
	perftools__profiles__line__init(ln);
	ln->function_id = fid;
	ln->line = line > 0 ? line : 0;
	l->n_line = 1;
	l->line = g_new(Line *, 1);
	l->line[0] = ln;
	g_ptr_array_add(p->locations, l);
	g_hash_table_insert(p->loc_idx, key, GSIZE_TO_POINTER(l->id));
	return l->id;
}

/* "func+0xoff [module]" -> "func"; an address stays as it is */
static char *func_of(const char *sym)
{
	return g_strndup(sym, strcspn(sym, "+ "));
}

static void add_label(Sample *s, Label *lb, struct pp *p, const char *key,
		      const char *val)
{
	perftools__profiles__label__init(lb);
	lb->key = str(p, key);
	lb->str = str(p, val);
	s->label[s->n_label++] = lb;
}

static const char *const kind_names[] = {
	[SA_KIND_KMALLOC] = "kmalloc", [SA_KIND_CACHE] = "cache",
};

static void add_sample(struct pp *p, const struct sa_site *s)
{
	guint32 n = s->frames ? s->frames->n : 0, i;
	gchar **comps = NULL;
	Sample *smp;
	char *leaf;

	smp = g_malloc0(sizeof(*smp) + 2 * sizeof(Label *) +
			2 * sizeof(Label));
	perftools__profiles__sample__init(smp);
	smp->location_id = g_new(uint64_t, 1 + n);
	smp->value = g_new(int64_t, NR_VALUES);
	smp->n_value = NR_VALUES;
	smp->value[0] = s->allocs;
	smp->value[1] = s->bytes_alloc;
	smp->value[2] = s->live;
	smp->value[3] = s->live_alloc;

	/* the leaf: the call site, or the wrapper of an attributed row */
	if (s->wrapper)
		leaf = g_strdup(s->wrapper);
	else if (n && s->leaf)
		leaf = func_of(s->leaf);
	else if (s->func)
		leaf = g_strdup(s->func);
	else
		leaf = func_of(s->sym ? s->sym : "?");
	smp->location_id[smp->n_location_id++] =
		location(p, s->call_site, leaf, n ? NULL : s->file,
			 n ? 0 : s->line);
	g_free(leaf);

	/* the frames, from the caller outwards: path is outermost first */
	if (n && s->path) {
		comps = g_strsplit(s->path, ";", -1);
		if (g_strv_length(comps) != n) {
			g_strfreev(comps);
			comps = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		char addr[32];
		const char *name = comps ? comps[n - 1 - i] : NULL;

		if (!name) {
			snprintf(addr, sizeof(addr), "0x%" G_GINT64_MODIFIER
				 "x", s->frames->ip[i]);
			name = addr;
		}
		smp->location_id[smp->n_location_id++] =
			location(p, s->frames->ip[i], name,
				 i ? NULL : s->file, i ? 0 : s->line);
	}
	g_strfreev(comps);

	smp->label = (Label **)(smp + 1);
	if (s->kind < G_N_ELEMENTS(kind_names) && kind_names[s->kind])
		add_label(smp, (Label *)(smp->label + 2), p, "kind",
			  kind_names[s->kind]);
	if (s->cache)
		add_label(smp, (Label *)(smp->label + 2) + 1, p, "cache",
			  s->cache);
	g_ptr_array_add(p->samples, smp);
}

static void free_location(gpointer data)
{
	Location *l = data;

	g_free(l->line[0]);
	g_free(l->line);
	g_free(l);
}

static void free_sample(gpointer data)
{
	Sample *s = data;

	g_free(s->location_id);
	g_free(s->value);
	g_free(s);
}

/* gzip the packed profile (zlib, windowBits 15 + 16: a gzip header) */
static int gzip_write(FILE *out, const guint8 *buf, size_t len, GError **err)
{
	z_stream z = { 0 };
	guint8 chunk[65536];
	int zr;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "gzip: cannot start");
		return -1;
	}
	z.next_in = (Bytef *)buf;
	z.avail_in = len;	/* bounded by the report's rows */
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			break;
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) !=
		    sizeof(chunk) - z.avail_out) {
			deflateEnd(&z);
			g_set_error(err, G_IO_ERROR,
				    g_io_error_from_errno(errno),
				    "%s", g_strerror(errno));
			return -1;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	if (zr != Z_STREAM_END) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "gzip: cannot compress");
		return -1;
	}
	return 0;
}

int sa_pprof_write(FILE *out, const struct sa_report *rep, GError **err)
{
	static const char *const types[NR_VALUES][2] = {
		{ "alloc_objects", "count" }, { "alloc_space", "bytes" },
		{ "inuse_objects", "count" }, { "inuse_space", "bytes" },
	};
	const struct sa_callsite_result *r = rep->result[SA_SEC_CALLSITE];
	Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	ValueType vt[NR_VALUES], period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	ValueType *vtp[NR_VALUES];
	Mapping map = PERFTOOLS__PROFILES__MAPPING__INIT, *mapp = &map;
	struct pp p = { 0 };
	guint8 *buf;
	size_t len;
	guint i;
	int ret;

	p.str_idx = g_hash_table_new(g_str_hash, g_str_equal);
	p.strings = g_ptr_array_new_with_free_func(g_free);
	p.fn_idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	p.functions = g_ptr_array_new_with_free_func(g_free);
	p.loc_idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	p.locations = g_ptr_array_new_with_free_func(free_location);
	p.samples = g_ptr_array_new_with_free_func(free_sample);

	/* string_table[0] is "" */
	g_ptr_array_add(p.strings, g_strdup(""));
	for (i = 0; i < NR_VALUES; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = str(&p, types[i][0]);
		vt[i].unit = str(&p, types[i][1]);
		vtp[i] = &vt[i];
	}
	period.type = str(&p, "space");
	period.unit = str(&p, "bytes");
	map.id = 1;
	map.memory_start = 0;
	map.memory_limit = G_MAXUINT64;
	map.filename = str(&p, "[kernel.kallsyms]");
	map.has_functions = true;

	for (i = 0; r && i < r->sites->len; i++) {
		const struct sa_site *s = r->sites->pdata[i];

		if (s->allocs || s->live)
			add_sample(&p, s);
	}

	prof.n_sample_type = NR_VALUES;
	prof.sample_type = vtp;
	prof.n_sample = p.samples->len;
	prof.sample = (Sample **)p.samples->pdata;
	prof.n_mapping = 1;
	prof.mapping = &mapp;
	prof.n_location = p.locations->len;
	prof.location = (Location **)p.locations->pdata;
	prof.n_function = p.functions->len;
	prof.function = (Function **)p.functions->pdata;
	prof.period_type = &period;
	prof.period = 1;
	if (rep->last_ts > rep->first_ts)
		prof.duration_nanos = rep->last_ts - rep->first_ts;
	/* every string is in the table now */
	prof.n_string_table = p.strings->len;
	prof.string_table = (char **)p.strings->pdata;

	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = g_malloc(len ? len : 1);
	perftools__profiles__profile__pack(&prof, buf);
	ret = gzip_write(out, buf, len, err);
	g_free(buf);

	g_ptr_array_free(p.samples, TRUE);
	g_ptr_array_free(p.locations, TRUE);
	g_ptr_array_free(p.functions, TRUE);
	g_hash_table_destroy(p.loc_idx);
	g_hash_table_destroy(p.fn_idx);
	g_hash_table_destroy(p.str_idx);
	g_ptr_array_free(p.strings, TRUE);
	return ret;
}
#endif /* SA_NO_PPROF */
