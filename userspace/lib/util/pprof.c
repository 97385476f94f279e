// SPDX-License-Identifier: GPL-2.0
/*
 * A pprof profile (util/pprof.h): pprof's profile.proto (beside this
 * file) made C by protoc-c at build time; this file fills its messages
 * (a string table, functions by name and file, locations by address,
 * function and line, samples), packs them with libprotobuf-c and gzips
 * the result with zlib, as pprof reads it.
 */
#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <zlib.h>

#include "util/pprof.h"

const char *const sa_pprof_heap_types[SA_PPROF_HEAP_TYPES][2] = {
	{ "alloc_objects", "count" }, { "alloc_space", "bytes" },
	{ "inuse_objects", "count" }, { "inuse_space", "bytes" },
};

#ifdef SA_NO_PPROF
bool sa_pprof_available(const char **why)
{
	*why = SA_NO_PPROF;
	return false;
}

struct sa_pprof *sa_pprof_new(const char *const types[][2], int n,
			      const char *const period_type[2],
			      gint64 period, const char *mapping)
{
	return NULL;
}

void sa_pprof_free(struct sa_pprof *p)
{
}

guint64 sa_pprof_location(struct sa_pprof *p, guint64 addr,
			  const char *name, const char *file, int line)
{
	return 0;
}

void sa_pprof_sample(struct sa_pprof *p, const guint64 *locs, guint nlocs,
		     const gint64 *values, const char *const *labels,
		     guint nl)
{
}

void sa_pprof_set_duration(struct sa_pprof *p, gint64 ns)
{
}

int sa_pprof_write(struct sa_pprof *p, FILE *out, GError **err)
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

struct sa_pprof {
	int n;			/* sample types */
	GHashTable *str_idx;	/* string -> index + 1 */
	GPtrArray *strings;	/* char *, owned */
	GHashTable *fn_idx;	/* "name\nfile" -> id */
	GPtrArray *functions;	/* Function * */
	GHashTable *loc_idx;	/* "addr\nfunction id\nline" -> id */
	GPtrArray *locations;	/* Location * */
	GPtrArray *samples;	/* Sample * */
	ValueType *vt, **vtp, period_type;
	Mapping map;
	gint64 period, duration;
};

bool sa_pprof_available(const char **why)
{
	*why = NULL;
	return true;
}

static gint64 str(struct sa_pprof *p, const char *s)
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
	size_t i;

	for (i = 0; i < s->n_label; i++)
		g_free(s->label[i]);
	g_free(s->label);
	g_free(s->location_id);
	g_free(s->value);
	g_free(s);
}

struct sa_pprof *sa_pprof_new(const char *const types[][2], int n,
			      const char *const period_type[2],
			      gint64 period, const char *mapping)
{
	struct sa_pprof *p = g_new0(struct sa_pprof, 1);
	int i;

	p->n = n;
	p->str_idx = g_hash_table_new(g_str_hash, g_str_equal);
	p->strings = g_ptr_array_new_with_free_func(g_free);
	p->fn_idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	p->functions = g_ptr_array_new_with_free_func(g_free);
	p->loc_idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   NULL);
	p->locations = g_ptr_array_new_with_free_func(free_location);
	p->samples = g_ptr_array_new_with_free_func(free_sample);
	/* string_table[0] is "" */
	g_ptr_array_add(p->strings, g_strdup(""));
	p->vt = g_new(ValueType, n);
	p->vtp = g_new(ValueType *, n);
	for (i = 0; i < n; i++) {
		perftools__profiles__value_type__init(&p->vt[i]);
		p->vt[i].type = str(p, types[i][0]);
		p->vt[i].unit = str(p, types[i][1]);
		p->vtp[i] = &p->vt[i];
	}
	perftools__profiles__value_type__init(&p->period_type);
	p->period_type.type = str(p, period_type[0]);
	p->period_type.unit = str(p, period_type[1]);
	p->period = period;
	perftools__profiles__mapping__init(&p->map);
	p->map.id = 1;
	p->map.memory_start = 0;
	p->map.memory_limit = G_MAXUINT64;
	p->map.filename = str(p, mapping);
	p->map.has_functions = true;
	return p;
}

void sa_pprof_free(struct sa_pprof *p)
{
	if (!p)
		return;
	g_ptr_array_free(p->samples, TRUE);
	g_ptr_array_free(p->locations, TRUE);
	g_ptr_array_free(p->functions, TRUE);
	g_hash_table_destroy(p->loc_idx);
	g_hash_table_destroy(p->fn_idx);
	g_hash_table_destroy(p->str_idx);
	g_ptr_array_free(p->strings, TRUE);
	g_free(p->vt);
	g_free(p->vtp);
	g_free(p);
}

static guint64 function(struct sa_pprof *p, const char *name,
			const char *file)
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

guint64 sa_pprof_location(struct sa_pprof *p, guint64 addr,
			  const char *name, const char *file, int line)
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
	/* the mapping says what its locations were symbolized with */
	if (file && *file)
		p->map.has_filenames = true;
	if (line > 0)
		p->map.has_line_numbers = true;
	l->n_line = 1;
	l->line = g_new(Line *, 1);
	l->line[0] = ln;
	g_ptr_array_add(p->locations, l);
	g_hash_table_insert(p->loc_idx, key, GSIZE_TO_POINTER(l->id));
	return l->id;
}

void sa_pprof_sample(struct sa_pprof *p, const guint64 *locs, guint nlocs,
		     const gint64 *values, const char *const *labels,
		     guint nl)
{
	Sample *s = g_new(Sample, 1);
	guint i;

	perftools__profiles__sample__init(s);
	s->n_location_id = nlocs;
	s->location_id = g_memdup2(locs, nlocs * sizeof(*locs));
	s->n_value = p->n;
	s->value = g_memdup2(values, p->n * sizeof(*values));
	s->label = g_new(Label *, nl ? nl : 1);
	for (i = 0; i < nl; i++) {
		Label *lb;

		if (!labels[2 * i + 1])
			continue;
		lb = g_new(Label, 1);
		perftools__profiles__label__init(lb);
		lb->key = str(p, labels[2 * i]);
		lb->str = str(p, labels[2 * i + 1]);
		s->label[s->n_label++] = lb;
	}
	g_ptr_array_add(p->samples, s);
}

void sa_pprof_set_duration(struct sa_pprof *p, gint64 ns)
{
	p->duration = ns;
}

/* gzip (zlib, windowBits 15 + 16: a gzip header) and write */
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
	z.avail_in = len;
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

int sa_pprof_write(struct sa_pprof *p, FILE *out, GError **err)
{
	Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Mapping *mapp = &p->map;
	guint8 *buf;
	size_t len;
	int ret;

	prof.n_sample_type = p->n;
	prof.sample_type = p->vtp;
	prof.n_sample = p->samples->len;
	prof.sample = (Sample **)p->samples->pdata;
	prof.n_mapping = 1;
	prof.mapping = &mapp;
	prof.n_location = p->locations->len;
	prof.location = (Location **)p->locations->pdata;
	prof.n_function = p->functions->len;
	prof.function = (Function **)p->functions->pdata;
	prof.period_type = &p->period_type;
	prof.period = p->period;
	prof.duration_nanos = p->duration;
	prof.n_string_table = p->strings->len;
	prof.string_table = (char **)p->strings->pdata;

	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = g_malloc(len ? len : 1);
	perftools__profiles__profile__pack(&prof, buf);
	ret = gzip_write(out, buf, len, err);
	g_free(buf);
	if (!ret && (fflush(out) || ferror(out))) {
		g_set_error(err, G_IO_ERROR, g_io_error_from_errno(errno),
			    "%s", g_strerror(errno ? errno : EIO));
		ret = -1;
	}
	return ret;
}
#endif /* SA_NO_PPROF */
