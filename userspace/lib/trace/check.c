// SPDX-License-Identifier: GPL-2.0
/*
 * Structural check of trace.dat files (versions 6 and 7), after
 * trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "util/input-file.h"
#include "trace/check.h"
#include "trace/tracecmd-private.h"
#include "trace/tracedat-format.h"

G_DEFINE_QUARK(sa-trace-error-quark, sa_trace_error)

#define MAGIC		"\027\010\104tracing"
#define MAGIC_LEN	10
#define OPT_DONE	0
#define OPT_BUFFER	3
#define OPT_HEADER_INFO	16
#define OPT_CMDLINES	21
#define SEC_COMPRESSED	1
#define MAX_CPUS	8192
#define MAX_SECTIONS	4096
/* an options section, uncompressed */
#define MAX_OPTIONS	(16u << 20)
/* any other section uncompressed: kallsyms, formats, printk, cmdlines */
#define MAX_SECTION	(256u << 20)
/* section ids are those of the options */
#define SEC_FLYRECORD	3

struct cur {
	const char *name;
	const guint8 *d;
	size_t len, pos;
	bool big;
	GError **err;
	struct sa_tracedat_layout *lay;	/* or NULL */
	guint32 page_size;		/* of the ring buffer (v6) */
	int long_size;
	bool ours;			/* slabacct's: has an origin */
	size_t file_len;		/* len may be an option's own bound */
	char zname[16];			/* v7: the compression */
	gint64 zsec;			/* >= 0: d is the uncompressed
					 * data of the section there */
};

static int damaged(struct cur *c, size_t off, const char *what)
{
	if (c->zsec >= 0)
		g_set_error(c->err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: corrupt trace.dat at offset %" G_GINT64_FORMAT
			    ": %s (at byte %zu of that compressed section)",
			    c->name, c->zsec, what, off);
	else
		g_set_error(c->err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: corrupt or truncated trace.dat at offset %zu: "
			    "%s (the file is %zu bytes)", c->name, off, what,
			    c->file_len);
	return -1;
}

static int need(struct cur *c, size_t off, guint64 n, const char *what)
{
	if (off > c->len || n > c->len - off)
		return damaged(c, off, what);
	return 0;
}

static guint64 num(struct cur *c, size_t off, int size)
{
	guint64 v = 0;
	int i;

	for (i = 0; i < size; i++) {
		int b = c->big ? i : size - 1 - i;

		v = (v << 8) | c->d[off + b];
	}
	return v;
}

/* Read a number of size bytes at the cursor, checking it fits. */
static int rd(struct cur *c, int size, guint64 *v, const char *what)
{
	if (need(c, c->pos, size, what))
		return -1;
	*v = num(c, c->pos, size);
	c->pos += size;
	return 0;
}

/* A size-prefixed block at the cursor: skip it, checking it fits. */
static int block(struct cur *c, int size_len, const char *what)
{
	guint64 n;
	size_t at = c->pos;

	if (rd(c, size_len, &n, what) || need(c, c->pos, n, what))
		return c->err && *c->err ? -1 : damaged(c, at, what);
	c->pos += n;
	return 0;
}

static int string(struct cur *c, const char *what)
{
	const guint8 *z;

	if (c->pos >= c->len)
		return damaged(c, c->pos, what);
	z = memchr(c->d + c->pos, 0, c->len - c->pos);
	if (!z)
		return damaged(c, c->pos, what);
	c->pos = z - c->d + 1;
	return 0;
}

/* Note one CPU's data in the layout. */
static void add_range(struct sa_tracedat_layout *lay, guint32 cpu,
		      guint64 off, guint64 size, bool compressed)
{
	struct sa_cpu_range *r;

	lay->ranges = g_renew(struct sa_cpu_range, lay->ranges,
			      lay->nr_ranges + 1);
	r = &lay->ranges[lay->nr_ranges++];
	r->off = off;
	r->size = size;
	r->cpu = cpu;
	r->compressed = compressed;
}

/*
 * libtracecmd finds pages with masks of page_size - 1: a power of two,
 * and no sub-buffer the kernel makes is smaller or larger than these.
 */
static int page_size_ok(struct cur *c, size_t at, guint64 ps)
{
	if (ps >= 512 && ps <= (1u << 24) && !(ps & (ps - 1)))
		return 0;
	return damaged(c, at, "an impossible ring-buffer page size");
}

/*
 * slabacct's origin section (trace/tracedat-format.h), from end (the end of the
 * CPU data) to the end of the file: whole, or the file was cut short. A
 * file that does not say it is ours may end at the CPU data, or go on
 * with what we do not know.
 */
static int check_origin(struct cur *c, size_t end)
{
	static const char cut[] = "the slabacct origin section is cut short "
				  "or damaged";
	size_t at, n = strlen(SA_ORIGIN_MAGIC), rest = c->len - end;
	guint64 count, i, len;
	bool big = c->big;
	int ret = -1;

	if (!rest) {
		if (!c->ours)
			return 0;
		return damaged(c, end, "the file ends with the CPU data, "
			       "before its slabacct origin section: it was "
			       "cut short");
	}
	if (memcmp(c->d + end, SA_ORIGIN_MAGIC, MIN(rest, n)))
		return c->ours ? damaged(c, end, "no slabacct origin section "
					 "after the CPU data") : 0;
	if (rest < n)
		return damaged(c, c->len, cut);
	c->pos = end + n;
	c->big = false;		/* the section is little endian */
	if (rd(c, 4, &i, cut) || rd(c, 4, &count, cut))
		goto out;
	if (i != SA_ORIGIN_VERSION) {
		damaged(c, end + n, "an unknown slabacct origin section "
			"version");
		goto out;
	}
	for (i = 0; i < count; i++) {
		if (string(c, cut) || rd(c, 8, &len, cut) ||
		    need(c, c->pos, len, cut))
			goto out;
		c->pos += len;
	}
	at = c->pos;
	if (need(c, at, 16, cut))
		goto out;
	if (num(c, at, 8) != end || memcmp(c->d + at + 8, SA_ORIGIN_MAGIC, n))
		damaged(c, at, cut);
	else if (at + 16 != c->len)
		damaged(c, at + 16, "data after the slabacct origin section");
	else
		ret = 0;
out:
	c->big = big;
	return ret;
}

static int check_v6(struct cur *c)
{
	guint64 n, m, i, j, id, sz, cpus, off, size;
	bool clock = false;
	size_t end;

	if (string(c, "header_page name") || block(c, 8, "header_page") ||
	    string(c, "header_event name") || block(c, 8, "header_event"))
		return -1;
	if (rd(c, 4, &n, "ftrace format count"))
		return -1;
	for (i = 0; i < n; i++)
		if (block(c, 8, "an ftrace event format"))
			return -1;
	if (rd(c, 4, &n, "event system count"))
		return -1;
	for (i = 0; i < n; i++) {
		if (string(c, "an event system name") ||
		    rd(c, 4, &m, "event format count"))
			return -1;
		for (j = 0; j < m; j++)
			if (block(c, 8, "an event format"))
				return -1;
	}
	if (block(c, 4, "kallsyms") || block(c, 4, "printk formats") ||
	    block(c, 8, "saved cmdlines") || rd(c, 4, &cpus, "CPU count"))
		return -1;
	if (cpus > MAX_CPUS)
		return damaged(c, c->pos - 4, "an impossible CPU count");
	if (need(c, c->pos, 10, "the options or data marker"))
		return -1;
	if (!memcmp(c->d + c->pos, "options  ", 10)) {
		c->pos += 10;
		for (;;) {
			if (rd(c, 2, &id, "an option id"))
				return -1;
			if (id == OPT_DONE)
				break;
			if (rd(c, 4, &sz, "an option size") ||
			    need(c, c->pos, sz, "an option"))
				return -1;
			if (c->lay && id < 64)
				c->lay->options |= 1ULL << id;
			if (id == SA_OPT_TRACECLOCK)
				clock = true;
			if (id == SA_OPT_VERSION &&
			    sz > strlen(SA_TRACEDAT_WRITER) &&
			    !memcmp(c->d + c->pos, SA_TRACEDAT_WRITER,
				    strlen(SA_TRACEDAT_WRITER)))
				c->ours = true;
			c->pos += sz;
		}
	}
	if (need(c, c->pos, 10, "the data marker"))
		return -1;
	if (!memcmp(c->d + c->pos, "latency  ", 10)) {
		if (c->lay)
			c->lay->latency = true;
		return 0;
	}
	if (memcmp(c->d + c->pos, "flyrecord", 10))
		return damaged(c, c->pos, "no flyrecord or latency marker");
	c->pos += 10;
	end = c->pos + 16 * cpus;
	if (c->lay) {
		c->lay->nr_cpus = cpus;
		c->lay->cpu_offset = g_new0(guint64, cpus ? cpus : 1);
		c->lay->cpu_size = g_new0(guint64, cpus ? cpus : 1);
	}
	for (i = 0; i < cpus; i++) {
		size_t at = c->pos;

		if (rd(c, 8, &off, "the CPU data table") ||
		    rd(c, 8, &size, "the CPU data table"))
			return -1;
		if (off > c->len || size > c->len - off) {
			char *w = g_strdup_printf("CPU %" G_GUINT64_FORMAT
						  " data (%" G_GUINT64_FORMAT
						  " bytes at offset %"
						  G_GUINT64_FORMAT ") run past "
						  "the end of the file", i,
						  size, off);
			int r = damaged(c, at, w);

			g_free(w);
			return r;
		}
		if (c->lay) {
			c->lay->cpu_offset[i] = off;
			c->lay->cpu_size[i] = size;
			add_range(c->lay, i, off, size, false);
		}
		if (off + size > end)
			end = off + size;
	}
	/*
	 * With a trace_clock option, libtracecmd reads an 8-byte size
	 * after the table and allocates that much (read_and_parse_trace_
	 * clock): it must fit in the file.
	 */
	if (clock && c->pos + 8 <= c->len &&
	    num(c, c->pos, 8) > c->len - c->pos - 8)
		return damaged(c, c->pos, "a trace clock larger than the file");
	return check_origin(c, end);
}

/*
 * v7: the section at off: its header (16 bytes) and data fit, and if it
 * is compressed, the size it claims uncompressed (libtracecmd allocates
 * it) is one a section can have.
 */
static int section(struct cur *c, guint64 off, guint64 *flags,
		   guint64 *size, const char *what)
{
	if (need(c, off, 16, what))
		return -1;
	*flags = num(c, off + 2, 2);
	*size = num(c, off + 8, 8);
	if (need(c, off + 16, *size, what))
		return -1;
	if (!(*flags & SEC_COMPRESSED) || num(c, off, 2) == SEC_FLYRECORD)
		return 0;	/* CPU data come in chunks: trace/pages.c */
	if (*size < 8 || num(c, off + 16, 4) > *size - 8)
		return damaged(c, off + 16, "a compressed section longer "
			       "than itself");
	if (num(c, off + 20, 4) > MAX_SECTION)
		return damaged(c, off + 20, "a compressed section claims "
			       "more than a section can hold");
	return 0;
}

/*
 * A BUFFER option, o over its bytes: the CPU data it points at must lie
 * in the file, each CPU id be one libtracecmd can make room for (it
 * allocates up to the largest), and the section it names be whole.
 */
static int check_buffer_option(struct cur *c, struct cur *o)
{
	guint64 v, cpus, i, cpu, off, size, sec, flags = 0, ssz;

	if (rd(o, 8, &sec, "a buffer option") ||
	    string(o, "a buffer name") || string(o, "a buffer clock") ||
	    rd(o, 4, &v, "a page size") || rd(o, 4, &cpus, "a CPU count"))
		return -1;
	if (cpus > MAX_CPUS)
		return damaged(o, o->pos - 4, "an impossible CPU count");
	if (sec && section(c, sec, &flags, &ssz, "a CPU data section"))
		return -1;
	for (i = 0; i < cpus; i++) {
		if (rd(o, 4, &cpu, "a CPU entry") ||
		    rd(o, 8, &off, "a CPU entry") ||
		    rd(o, 8, &size, "a CPU entry"))
			return -1;
		if (cpu >= MAX_CPUS)
			return damaged(o, o->pos - 20, "an impossible CPU id");
		if (off > c->len || size > c->len - off)
			return damaged(o, o->pos - 16, "CPU data run past the "
				       "end of the file");
		if (c->lay && size)
			add_range(c->lay, cpu, off, size,
				  flags & SEC_COMPRESSED);
	}
	return 0;
}

/*
 * The options of one section, o over their bytes (in the file, or
 * uncompressed); *next is where the DONE option says the next options
 * section is.
 */
static int check_options(struct cur *c, struct cur *o, guint64 *next)
{
	guint64 id, sz, flags, v;
	size_t end = o->len;

	*next = 0;
	while (o->pos < end) {
		struct cur opt = *o;

		if (rd(o, 2, &id, "a cut option") ||
		    rd(o, 4, &sz, "a cut option"))
			return -1;
		if (sz > end - o->pos)
			return damaged(o, o->pos - 6, "an option longer than "
				       "its section");
		if (id == OPT_DONE) {
			*next = sz >= 8 ? num(o, o->pos, 8) : 0;
			return 0;
		}
		opt.pos = o->pos;
		opt.len = o->pos + sz;	/* the option's own bounds */
		if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && sz >= 8 &&
		    section(c, num(o, o->pos, 8), &flags, &v,
			    "a section an option points at"))
			return -1;
		if (id == OPT_BUFFER && check_buffer_option(c, &opt))
			return -1;
		o->pos += sz;
	}
	return 0;
}

/*
 * A compressed section's data (after its 16-byte header, size bytes at
 * off): u32 compressed size, u32 uncompressed size, the data. Returns
 * the uncompressed bytes (*n of them), or NULL with *err set.
 */
static guint8 *uncompressed(struct cur *c, guint64 off, guint64 size,
			    size_t *n)
{
	guint64 zsize, usize;
	guint8 *buf;

	if (size < 8)
		return damaged(c, off, "a cut compressed section"), NULL;
	zsize = num(c, off, 4);
	usize = num(c, off + 4, 4);
	if (zsize > size - 8)
		return damaged(c, off, "a compressed section longer than "
			       "itself"), NULL;
	if (usize > MAX_OPTIONS)
		return damaged(c, off + 4, "an option section too large to "
			       "be one"), NULL;
	buf = g_malloc(usize ? usize : 1);
	if (sa_tracedat_uncompress(c->zname, c->d + off + 8, zsize, buf,
				   usize)) {
		g_free(buf);
		return damaged(c, off, "a compressed section that does not "
			       "uncompress to its size"), NULL;
	}
	*n = usize;
	return buf;
}

static int check_v7(struct cur *c)
{
	guint64 v, off, flags, size;
	const guint8 *z;
	int n = 0;

	if (rd(c, 1, &v, "the endian flag") || rd(c, 1, &v, "the long size"))
		return -1;
	c->long_size = v;
	if (rd(c, 4, &v, "the page size") || page_size_ok(c, c->pos - 4, v))
		return -1;
	c->page_size = v;
	z = memchr(c->d + c->pos, 0, c->len - MIN(c->pos, c->len));
	if (c->pos >= c->len || !z)
		return damaged(c, c->pos, "the compression name");
	g_strlcpy(c->zname, (const char *)c->d + c->pos, sizeof(c->zname));
	if (strcmp(c->zname, "none") && strcmp(c->zname, "zstd") &&
	    strcmp(c->zname, "zlib"))
		return damaged(c, c->pos, "an unknown compression");
	if (string(c, "the compression name") ||
	    string(c, "the compression version") ||
	    rd(c, 8, &off, "the options offset"))
		return -1;
	if (c->lay) {
		c->lay->long_size = c->long_size;
		c->lay->page_size = c->page_size;
		g_strlcpy(c->lay->zname, c->zname, sizeof(c->lay->zname));
	}
	while (off) {
		struct cur o = *c;
		guint8 *buf = NULL;
		int ret;

		if (++n > MAX_SECTIONS)
			return damaged(c, off, "a loop of option sections");
		if (section(c, off, &flags, &size, "an option section"))
			return -1;
		o.pos = off + 16;
		o.len = o.pos + size;
		if (flags & SEC_COMPRESSED) {
			if (!strcmp(c->zname, "none"))
				return damaged(c, off, "a compressed section "
					       "in a file with no compression");
			buf = uncompressed(c, off + 16, size, &o.len);
			if (!buf)
				return -1;
			o.d = buf;
			o.pos = 0;
			o.zsec = off;
		}
		ret = check_options(c, &o, &off);
		g_free(buf);
		if (ret)
			return -1;
	}
	return 0;
}

void sa_tracedat_layout_clear(struct sa_tracedat_layout *lay)
{
	g_free(lay->cpu_offset);
	g_free(lay->cpu_size);
	g_free(lay->ranges);
	memset(lay, 0, sizeof(*lay));
}

static int check(const char *name, const guint8 *data, size_t len,
		 struct sa_tracedat_layout *lay, bool mapped, GError **err)
{
	struct cur c = { .name = name, .d = data, .len = len,
			 .pos = MAGIC_LEN, .err = err, .lay = lay,
			 .file_len = len, .zsec = -1 };
	int ret;
	const guint8 *z;
	long version;

	if (len < MAGIC_LEN || memcmp(data, MAGIC, MAGIC_LEN)) {
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: not a trace.dat file (no trace-cmd magic at "
			    "offset 0)", name);
		return -1;
	}
	z = memchr(data + c.pos, 0, len - c.pos);
	if (!z || z - (data + c.pos) > 8)
		return damaged(&c, c.pos, "no version string");
	version = strtol((const char *)data + c.pos, NULL, 10);
	c.pos = z - data + 1;
	if (c.pos >= len)
		return damaged(&c, c.pos, "no endian flag");
	c.big = data[c.pos] != 0;
	if (lay) {
		memset(lay, 0, sizeof(*lay));
		lay->version = version;
		lay->big_endian = c.big;
	}
	if (version == 6) {
		c.pos += 2;
		if (need(&c, c.pos, 4, "the page size"))
			return -1;
		c.long_size = data[c.pos - 1];
		c.page_size = num(&c, c.pos, 4);
		if (page_size_ok(&c, c.pos, c.page_size))
			return -1;
		if (lay) {
			lay->long_size = c.long_size;
			lay->page_size = c.page_size;
		}
		c.pos += 4;
		ret = check_v6(&c);
		if (ret && lay)
			sa_tracedat_layout_clear(lay);
		return ret;
	}
	if (version == 7) {
		ret = check_v7(&c);
		if (ret && lay)
			sa_tracedat_layout_clear(lay);
		return ret;
	}
	g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
		    "%s: trace.dat file version %ld is not supported (6 and "
		    "7 are)", name, version);
	return -1;
}

int sa_tracedat_check(const char *name, const guint8 *data, size_t len,
		      struct sa_tracedat_layout *lay, GError **err)
{
	return check(name, data, len, lay, false, err);
}

bool sa_tracedat_sniff(const char *head, size_t n)
{
	return n >= MAGIC_LEN && !memcmp(head, MAGIC, MAGIC_LEN);
}

int sa_tracedat_check_file(const char *path, struct sa_tracedat_layout *lay,
			   GError **err)
{
	struct stat st;
	void *map;
	int fd, ret;

	fd = sa_input_open(path, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, g_strerror(e));
		return -1;
	}
	if (!st.st_size) {
		close(fd);
		g_set_error(err, SA_TRACE_ERROR, SA_TRACE_ERROR_FORMAT,
			    "%s: empty file, not a trace.dat", path);
		return -1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", path, g_strerror(errno));
		return -1;
	}
	ret = check(path, map, st.st_size, lay, true, err);
	munmap(map, st.st_size);
	return ret;
}
