// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat version 6 writer. The header (everything before the CPU
 * data) is built in memory as a list of pieces that refer to the large
 * blobs (kallsyms, printk formats) instead of copying them; the CPU data
 * are copied from buffers or file descriptors, page aligned, and
 * slabacct's origin section follows them.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/header-page.h"
#include "trace/tracedat-write.h"

#define COPY_CHUNK	(1 << 20)

struct cpu_src {
	GBytes *data;		/* or */
	int fd;			/* -1 if none */
	bool consume;
};

struct sa_tracedat {
	int nr_cpus;
	int page_size;
	int long_size;		/* the kernel's, from header_page; 0: unknown */
	GBytes *header_page, *header_event;
	GPtrArray *ftrace;	/* GBytes */
	GPtrArray *systems;	/* char * in first-seen order */
	GHashTable *events;	/* system -> GPtrArray of GBytes */
	GBytes *kallsyms, *printk, *cmdlines;
	GByteArray *options;	/* encoded, without the terminating 0 */
	GPtrArray *origin_keys;	/* char *, in insertion order */
	GHashTable *origin;	/* key -> char * */
	struct cpu_src *cpus;
};

static void bytes_unref(gpointer p)
{
	g_bytes_unref(p);
}

struct sa_tracedat *sa_tracedat_new(int nr_cpus, int page_size)
{
	struct sa_tracedat *td;
	int i;

	if (nr_cpus <= 0 || page_size <= 0) {
		errno = EINVAL;
		return NULL;
	}
	td = g_new0(struct sa_tracedat, 1);
	td->nr_cpus = nr_cpus;
	td->page_size = page_size;
	td->ftrace = g_ptr_array_new_with_free_func(bytes_unref);
	td->systems = g_ptr_array_new_with_free_func(g_free);
	td->events = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					   (GDestroyNotify)g_ptr_array_unref);
	td->options = g_byte_array_new();
	td->origin_keys = g_ptr_array_new_with_free_func(g_free);
	td->origin = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					   g_free);
	td->cpus = g_new0(struct cpu_src, nr_cpus);
	for (i = 0; i < nr_cpus; i++)
		td->cpus[i].fd = -1;
	/* the origin section always follows the CPU data: say so */
	sa_tracedat_add_option_string(td, SA_OPT_VERSION,
				      SA_TRACEDAT_WRITER SLABACCT_VERSION);
	return td;
}

void sa_tracedat_free(struct sa_tracedat *td)
{
	int i;

	if (!td)
		return;
	g_clear_pointer(&td->header_page, g_bytes_unref);
	g_clear_pointer(&td->header_event, g_bytes_unref);
	g_clear_pointer(&td->kallsyms, g_bytes_unref);
	g_clear_pointer(&td->printk, g_bytes_unref);
	g_clear_pointer(&td->cmdlines, g_bytes_unref);
	g_ptr_array_unref(td->ftrace);
	g_hash_table_unref(td->events);
	g_ptr_array_unref(td->systems);
	g_byte_array_unref(td->options);
	g_hash_table_unref(td->origin);
	g_ptr_array_unref(td->origin_keys);
	for (i = 0; i < td->nr_cpus; i++)
		g_clear_pointer(&td->cpus[i].data, g_bytes_unref);
	g_free(td->cpus);
	g_free(td);
}

static void set_bytes(GBytes **slot, const char *data, size_t len)
{
	g_clear_pointer(slot, g_bytes_unref);
	*slot = g_bytes_new(data, len);
}

void sa_tracedat_set_headers(struct sa_tracedat *td,
			     const char *header_page, size_t page_len,
			     const char *header_event, size_t event_len)
{
	set_bytes(&td->header_page, header_page, page_len);
	set_bytes(&td->header_event, header_event, event_len);
	td->long_size = sa_header_page_long_size(header_page, page_len);
	if (td->long_size < 0)
		td->long_size = 0;
}

void sa_tracedat_add_ftrace_format(struct sa_tracedat *td, const char *fmt,
				   size_t len)
{
	g_ptr_array_add(td->ftrace, g_bytes_new(fmt, len));
}

void sa_tracedat_add_event_format(struct sa_tracedat *td, const char *system,
				  const char *fmt, size_t len)
{
	GPtrArray *list = g_hash_table_lookup(td->events, system);

	if (!list) {
		char *sys = g_strdup(system);

		g_ptr_array_add(td->systems, sys);
		list = g_ptr_array_new_with_free_func(bytes_unref);
		g_hash_table_insert(td->events, sys, list);
	}
	g_ptr_array_add(list, g_bytes_new(fmt, len));
}

void sa_tracedat_set_kallsyms(struct sa_tracedat *td, const char *data,
			      size_t len)
{
	set_bytes(&td->kallsyms, data, len);
}

void sa_tracedat_take_kallsyms(struct sa_tracedat *td, char *data,
			       size_t len)
{
	g_clear_pointer(&td->kallsyms, g_bytes_unref);
	td->kallsyms = g_bytes_new_take(data, len);
}

void sa_tracedat_set_printk(struct sa_tracedat *td, const char *data,
			    size_t len)
{
	set_bytes(&td->printk, data, len);
}

void sa_tracedat_set_cmdlines(struct sa_tracedat *td, const char *data,
			      size_t len)
{
	set_bytes(&td->cmdlines, data, len);
}

static void put_le(GByteArray *b, guint64 v, int size)
{
	guint8 buf[8];
	int i;

	for (i = 0; i < size; i++)
		buf[i] = (v >> (8 * i)) & 0xff;
	g_byte_array_append(b, buf, size);
}

/*
 * The CPU data and the header are in the machine's own byte order: the
 * kernel's, whose pages are copied as they are (a kernel and its
 * programs share a byte order, whatever their word sizes).
 */
static void put_num(GByteArray *b, guint64 v, int size)
{
	if (G_BYTE_ORDER == G_LITTLE_ENDIAN) {
		put_le(b, v, size);
	} else {
		guint8 buf[8];
		int i;

		for (i = 0; i < size; i++)
			buf[size - 1 - i] = (v >> (8 * i)) & 0xff;
		g_byte_array_append(b, buf, size);
	}
}

void sa_tracedat_add_option(struct sa_tracedat *td, unsigned int id,
			    const void *data, size_t len)
{
	put_num(td->options, id, 2);
	put_num(td->options, len, 4);
	g_byte_array_append(td->options, data, len);
}

void sa_tracedat_add_option_string(struct sa_tracedat *td, unsigned int id,
				   const char *s)
{
	sa_tracedat_add_option(td, id, s, strlen(s) + 1);
}

void sa_tracedat_set_origin(struct sa_tracedat *td, const char *key,
			    const char *text)
{
	gpointer k;
	guint i;

	if (g_hash_table_lookup_extended(td->origin, key, &k, NULL)) {
		if (text) {
			g_hash_table_insert(td->origin, k, g_strdup(text));
			return;
		}
		g_hash_table_remove(td->origin, key);
		for (i = 0; i < td->origin_keys->len; i++)
			if (td->origin_keys->pdata[i] == k)
				g_ptr_array_remove_index(td->origin_keys, i);
		return;
	}
	if (!text)
		return;
	k = g_strdup(key);
	g_ptr_array_add(td->origin_keys, k);
	g_hash_table_insert(td->origin, k, g_strdup(text));
}

void sa_tracedat_set_cpu_data(struct sa_tracedat *td, int cpu,
			      const void *data, size_t len)
{
	g_return_if_fail(cpu >= 0 && cpu < td->nr_cpus);
	g_clear_pointer(&td->cpus[cpu].data, g_bytes_unref);
	td->cpus[cpu].data = g_bytes_new(data, len);
	td->cpus[cpu].fd = -1;
}

void sa_tracedat_set_cpu_fd(struct sa_tracedat *td, int cpu, int fd,
			    bool consume)
{
	g_return_if_fail(cpu >= 0 && cpu < td->nr_cpus);
	g_clear_pointer(&td->cpus[cpu].data, g_bytes_unref);
	td->cpus[cpu].fd = fd;
	td->cpus[cpu].consume = consume;
}

/*
 * The header as pieces: small parts are gathered in cur, and a large blob
 * is referred to, not copied.
 */
struct hdr {
	GPtrArray *pieces;	/* GBytes */
	GByteArray *cur;
	size_t len;
};

#define REF_MIN		(64 << 10)	/* blobs referred to, not copied */

static void hdr_flush(struct hdr *h)
{
	if (!h->cur->len)
		return;
	g_ptr_array_add(h->pieces, g_byte_array_free_to_bytes(h->cur));
	h->cur = g_byte_array_new();
}

static void put_blob(struct hdr *h, GBytes *data, int size_len)
{
	gsize len = 0;
	const void *p = data ? g_bytes_get_data(data, &len) : NULL;

	put_num(h->cur, len, size_len);
	if (len >= REF_MIN) {
		hdr_flush(h);
		g_ptr_array_add(h->pieces, g_bytes_ref(data));
	} else if (len) {
		g_byte_array_append(h->cur, p, len);
	}
}

static void hdr_free(struct hdr *h)
{
	g_ptr_array_unref(h->pieces);
	g_byte_array_unref(h->cur);
}

/*
 * Everything up to the "flyrecord\0" label, into h; the offset table
 * follows. h->len is its size.
 */
static void build_header(struct sa_tracedat *td, struct hdr *h)
{
	GByteArray *b;
	guint i, j;

	h->pieces = g_ptr_array_new_with_free_func(bytes_unref);
	h->cur = b = g_byte_array_new();
	g_byte_array_append(b, (const guint8 *)SA_TRACEDAT_MAGIC,
			    SA_TRACEDAT_MAGIC_LEN);
	g_byte_array_append(b, (const guint8 *)"6", 2);
	put_num(b, G_BYTE_ORDER == G_LITTLE_ENDIAN ? 0 : 1, 1);
	/* the kernel's long, which a 32-bit program on a 64-bit kernel
	 * does not share: readers that trust this byte (trace-cmd before
	 * it reads header_page) must find the pages' */
	put_num(b, td->long_size, 1);
	put_num(b, td->page_size, 4);

	g_byte_array_append(b, (const guint8 *)"header_page", 12);
	put_blob(h, td->header_page, 8);
	g_byte_array_append(h->cur, (const guint8 *)"header_event", 13);
	put_blob(h, td->header_event, 8);

	put_num(h->cur, td->ftrace->len, 4);
	for (i = 0; i < td->ftrace->len; i++)
		put_blob(h, td->ftrace->pdata[i], 8);

	put_num(h->cur, td->systems->len, 4);
	for (i = 0; i < td->systems->len; i++) {
		const char *sys = td->systems->pdata[i];
		GPtrArray *list = g_hash_table_lookup(td->events, sys);

		g_byte_array_append(h->cur, (const guint8 *)sys,
				    strlen(sys) + 1);
		put_num(h->cur, list->len, 4);
		for (j = 0; j < list->len; j++)
			put_blob(h, list->pdata[j], 8);
	}

	put_blob(h, td->kallsyms, 4);
	put_blob(h, td->printk, 4);
	put_blob(h, td->cmdlines, 8);
	put_num(h->cur, td->nr_cpus, 4);

	if (td->options->len) {
		g_byte_array_append(h->cur, (const guint8 *)"options  ", 10);
		g_byte_array_append(h->cur, td->options->data,
				    td->options->len);
		put_num(h->cur, SA_OPT_DONE, 2);
	}
	g_byte_array_append(h->cur, (const guint8 *)"flyrecord", 10);
	hdr_flush(h);
	h->len = 0;
	for (i = 0; i < h->pieces->len; i++)
		h->len += g_bytes_get_size(h->pieces->pdata[i]);
}

/*
 * With a trace_clock option, libtracecmd reads an 8-byte size (and that
 * many bytes of clock) right after the offset table: at least this many
 * zero bytes lie between the table and the first CPU's page, so that
 * the size is 0 and never the first bytes of a ring-buffer page (which
 * happened when the table ended on a page boundary).
 */
#define CLOCK_GAP	8

size_t sa_tracedat_header_size(struct sa_tracedat *td)
{
	struct hdr h;
	size_t n;

	build_header(td, &h);
	n = h.len + 16 * (size_t)td->nr_cpus + CLOCK_GAP;
	hdr_free(&h);
	return n;
}

static int pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

static off_t cpu_len(struct cpu_src *c)
{
	if (c->data)
		return g_bytes_get_size(c->data);
	if (c->fd >= 0)
		return lseek(c->fd, 0, SEEK_END);
	return 0;
}

/*
 * Copy one CPU's data to out at off. *done is what was copied, in whole
 * pages when the copy fails.
 */
static int copy_cpu(struct sa_tracedat *td, struct cpu_src *c, off_t len,
		    int out, off_t off, off_t *done)
{
	char *buf;
	off_t pos = 0;
	int ret = 0;

	*done = 0;
	if (c->data) {
		gsize n;
		const char *p = g_bytes_get_data(c->data, &n);

		if (pwrite_all(out, p, n, off))
			return -1;
		*done = n;
		return 0;
	}
	if (c->fd < 0 || !len)
		return 0;
	/* In the kernel where the file systems allow it */
	while (pos < len) {
		off_t in = pos, to = off + pos;
		ssize_t n = copy_file_range(c->fd, &in, out, &to,
					    MIN((off_t)COPY_CHUNK, len - pos), 0);

		if (n <= 0)
			break;
		if (c->consume)
			fallocate(c->fd, FALLOC_FL_PUNCH_HOLE |
				  FALLOC_FL_KEEP_SIZE, pos, n);
		pos += n;
	}
	if (pos == len) {
		*done = pos;
		return 0;
	}
	if (errno == ENOSPC || errno == EFBIG || errno == EDQUOT) {
		*done = pos - pos % td->page_size;
		return -1;
	}
	buf = g_malloc(COPY_CHUNK);
	while (pos < len) {
		size_t want = MIN((off_t)COPY_CHUNK, len - pos);
		ssize_t n = pread(c->fd, buf, want, pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the file shrank */
			ret = -1;
			break;
		}
		if (pwrite_all(out, buf, n, off + pos)) {
			ret = -1;
			break;
		}
		if (c->consume)
			fallocate(c->fd, FALLOC_FL_PUNCH_HOLE |
				  FALLOC_FL_KEEP_SIZE, pos, n);
		pos += n;
	}
	g_free(buf);
	*done = ret ? pos - pos % td->page_size : pos;
	return ret;
}

static GByteArray *build_origin(struct sa_tracedat *td)
{
	GByteArray *b = g_byte_array_new();
	guint i;

	g_byte_array_append(b, (const guint8 *)SA_ORIGIN_MAGIC,
			    SA_ORIGIN_MAGIC_LEN);
	put_le(b, SA_ORIGIN_VERSION, 4);
	put_le(b, td->origin_keys->len, 4);
	for (i = 0; i < td->origin_keys->len; i++) {
		const char *k = td->origin_keys->pdata[i];
		const char *v = g_hash_table_lookup(td->origin, k);

		g_byte_array_append(b, (const guint8 *)k, strlen(k) + 1);
		put_le(b, strlen(v), 8);
		g_byte_array_append(b, (const guint8 *)v, strlen(v));
	}
	return b;
}

static GByteArray *offset_table(struct sa_tracedat *td, const off_t *offs,
				const off_t *lens)
{
	GByteArray *b = g_byte_array_new();
	int i;

	static const guint8 gap[CLOCK_GAP];

	for (i = 0; i < td->nr_cpus; i++) {
		put_num(b, offs[i], 8);
		put_num(b, lens[i], 8);
	}
	/* the trace clock's size: 0 */
	g_byte_array_append(b, gap, sizeof(gap));
	return b;
}

/* The header's pieces, then the offset table, from offset 0. */
static int write_header(int out, struct hdr *h, GByteArray *table)
{
	off_t off = 0;
	guint i;

	for (i = 0; i < h->pieces->len; i++) {
		gsize n;
		const void *p = g_bytes_get_data(h->pieces->pdata[i], &n);

		if (pwrite_all(out, p, n, off))
			return -1;
		off += n;
	}
	return pwrite_all(out, table->data, table->len, off);
}

int sa_tracedat_write(struct sa_tracedat *td, int out, bool *truncated)
{
	struct hdr hdr;
	GByteArray *table, *origin;
	off_t *offs = g_new0(off_t, td->nr_cpus);
	off_t *lens = g_new0(off_t, td->nr_cpus);
	off_t pos, table_at, done;
	int i, ret = -1, saved = 0;

	/* no header_page, or one that does not say how wide the commit is */
	if (!td->long_size) {
		g_free(offs);
		g_free(lens);
		errno = EINVAL;
		return -1;
	}
	build_header(td, &hdr);
	if (truncated)
		*truncated = false;
	table_at = hdr.len;
	pos = table_at + 16 * td->nr_cpus + CLOCK_GAP;
	for (i = 0; i < td->nr_cpus; i++) {
		lens[i] = cpu_len(&td->cpus[i]);
		if (lens[i] < 0)
			goto out;
		pos = (pos + td->page_size - 1) / td->page_size * td->page_size;
		offs[i] = pos;
		pos += lens[i];
	}
	table = offset_table(td, offs, lens);
	ret = write_header(out, &hdr, table);
	g_byte_array_unref(table);
	if (ret)
		goto out;
	ret = -1;

	for (i = 0; i < td->nr_cpus; i++) {
		if (!copy_cpu(td, &td->cpus[i], lens[i], out, offs[i], &done))
			continue;
		/* Keep what fits: shorten this CPU, drop the rest. */
		saved = errno;
		lens[i] = done;
		pos = offs[i] + done;
		for (i++; i < td->nr_cpus; i++) {
			offs[i] = pos;
			lens[i] = 0;
		}
		table = offset_table(td, offs, lens);
		ret = pwrite_all(out, table->data, table->len, table_at);
		g_byte_array_unref(table);
		if (ftruncate(out, pos) == 0 && ret == 0 && truncated)
			*truncated = true;
		ret = -1;
		goto out;
	}

	/* The origin section and its footer follow the last CPU's data. */
	origin = build_origin(td);
	put_le(origin, pos, 8);
	g_byte_array_append(origin, (const guint8 *)SA_ORIGIN_MAGIC,
			    SA_ORIGIN_MAGIC_LEN);
	ret = pwrite_all(out, origin->data, origin->len, pos);
	if (!ret)
		ret = ftruncate(out, pos + origin->len);
	saved = errno;
	g_byte_array_unref(origin);
out:
	if (!saved)
		saved = errno;
	hdr_free(&hdr);
	g_free(offs);
	g_free(lens);
	if (ret)
		errno = saved;
	return ret;
}
