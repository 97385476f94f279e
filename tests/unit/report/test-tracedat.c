// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the trace.dat v6 writer and the origin reader.
 *
 * A small file is built from canned header files and event formats (taken
 * from a 6.18 kernel, tests/data/tracedat/) and hand-made ring-buffer
 * pages. It must equal the golden file byte for byte, libtracecmd must
 * read back exactly the events that were put in, and the origin must
 * come back. SA_UPDATE_GOLDEN=1 rewrites the golden file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <check.h>
#include <event-parse.h>

#include "report/agg/callsite.h"
#include "report/report.h"
#include "trace/origin.h"
#include "trace/tracecmd-private.h"
#include "trace/tracedat-write.h"

Suite *suite(void);

#define PAGE 4096
#define BASE_TS 1000000ULL

static char *datadir(void)
{
	char *exe, *d;

	if (g_file_test("tests/data/tracedat", G_FILE_TEST_IS_DIR))
		return g_strdup("tests/data/tracedat");
	exe = g_file_read_link("/proc/self/exe", NULL);
	d = g_build_filename(exe ? g_path_get_dirname(exe) : ".", "..", "..",
			     "..", "tests", "data", "tracedat", NULL);
	g_free(exe);
	return d;
}

static char *slurp(const char *name, gsize *len)
{
	char *dir = datadir(), *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, len, NULL),
		      "cannot read %s", path);
	g_free(dir);
	g_free(path);
	return text;
}

/* A ring-buffer page being filled with events. */
struct page {
	guint8 data[PAGE];
	size_t used;		/* bytes after the 16-byte header */
	guint64 last_ts;
};

static void page_init(struct page *p, guint64 ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->data, &ts, 8);
	p->last_ts = ts;
}

static void page_add(struct page *p, guint64 ts, const void *ev, size_t len)
{
	size_t padded = (len + 3) & ~3u;
	guint32 hdr = (guint32)(padded / 4) | (guint32)((ts - p->last_ts) << 5);
	guint64 commit;

	ck_assert_uint_le(padded, 112);
	memcpy(p->data + 16 + p->used, &hdr, 4);
	memcpy(p->data + 16 + p->used + 4, ev, len);
	p->used += 4 + padded;
	p->last_ts = ts;
	commit = p->used;
	memcpy(p->data + 8, &commit, 8);
}

static void set_field(struct tep_event *e, guint8 *rec, const char *name,
		      guint64 v)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f)
		f = tep_find_common_field(e, name);
	ck_assert_msg(f != NULL, "no field %s", name);
	memcpy(rec + f->offset, &v, f->size);	/* little endian */
}

/* The size of an event's record: the end of its last field. */
static size_t rec_size(struct tep_event *e)
{
	struct tep_format_field *f;
	size_t end = 0;

	for (f = e->format.fields; f; f = f->next)
		end = MAX(end, (size_t)(f->offset + f->size));
	return end;
}

static struct tep_event *parse(struct tep_handle *tep, const char *text,
			       gsize len, const char *sys)
{
	struct tep_event *e = NULL;

	ck_assert_int_eq(tep_parse_format(tep, &e, text, len, sys), 0);
	return e;
}

/* The canned kmem event formats, parsed. */
struct fmts {
	struct tep_handle *tep;
	char *km, *kf;
	gsize km_len, kf_len;
	struct tep_event *kmalloc, *kfree;
};

static void fmts_load(struct fmts *f)
{
	f->tep = tep_alloc();
	f->km = slurp("kmem-kmalloc.format", &f->km_len);
	f->kf = slurp("kmem-kfree.format", &f->kf_len);
	f->kmalloc = parse(f->tep, f->km, f->km_len, "kmem");
	f->kfree = parse(f->tep, f->kf, f->kf_len, "kmem");
}

static void fmts_free(struct fmts *f)
{
	g_free(f->km);
	g_free(f->kf);
	tep_free(f->tep);
}

static void put_kmalloc(const struct fmts *f, struct page *p, guint64 ts,
			guint64 ptr, guint64 req)
{
	guint8 rec[64];

	memset(rec, 0, sizeof(rec));
	set_field(f->kmalloc, rec, "common_type", f->kmalloc->id);
	set_field(f->kmalloc, rec, "common_pid", 1234);
	set_field(f->kmalloc, rec, "call_site", 0xffffffff81200010ULL);
	set_field(f->kmalloc, rec, "ptr", ptr);
	set_field(f->kmalloc, rec, "bytes_req", req);
	set_field(f->kmalloc, rec, "bytes_alloc", 64);
	set_field(f->kmalloc, rec, "gfp_flags", 0xcc0);
	page_add(p, ts, rec, rec_size(f->kmalloc));
}

static void put_kfree(const struct fmts *f, struct page *p, guint64 ts,
		      guint64 ptr)
{
	guint8 rec[64];

	memset(rec, 0, sizeof(rec));
	set_field(f->kfree, rec, "common_type", f->kfree->id);
	set_field(f->kfree, rec, "common_pid", 1234);
	set_field(f->kfree, rec, "call_site", 0xffffffff81200110ULL);
	set_field(f->kfree, rec, "ptr", ptr);
	page_add(p, ts, rec, rec_size(f->kfree));
}

/* The canned file around two CPUs' data; returns the writer. */
static struct sa_tracedat *build_file(const struct fmts *f,
				      const guint8 *cpu0, size_t len0,
				      const guint8 *cpu1, size_t len1)
{
	gsize hp_len, he_len, pr_len;
	char *hp = slurp("header_page", &hp_len);
	char *he = slurp("header_event", &he_len);
	char *pr = slurp("ftrace-print.format", &pr_len);
	struct sa_tracedat *td = sa_tracedat_new(2, PAGE);
	const char *ksyms = "ffffffff81000000 T _text\n"
			    "ffffffff81200000 T foo_alloc\n"
			    "ffffffff81200100 T foo_free\n"
			    "ffffffff81300000 T bar_init\t[bar]\n";

	sa_tracedat_set_headers(td, hp, hp_len, he, he_len);
	sa_tracedat_add_ftrace_format(td, pr, pr_len);
	sa_tracedat_add_event_format(td, "kmem", f->km, f->km_len);
	sa_tracedat_add_event_format(td, "kmem", f->kf, f->kf_len);
	sa_tracedat_set_kallsyms(td, ksyms, strlen(ksyms));
	sa_tracedat_set_printk(td, "", 0);
	sa_tracedat_set_cmdlines(td, "1234 workload\n", 14);
	sa_tracedat_add_option_string(td, SA_OPT_UNAME,
				      "Linux testhost 6.1.0-test #1 SMP x86_64");
	sa_tracedat_add_option_string(td, SA_OPT_TRACECLOCK,
				      "[local] global counter\n");
	sa_tracedat_add_option_string(td, SA_OPT_CPUSTAT,
				      "CPU: 0\nentries: 3\noverrun: 7\n"
				      "commit overrun: 0\ndropped events: 0\n");
	sa_tracedat_add_option_string(td, SA_OPT_CPUSTAT,
				      "CPU: 1\nentries: 1\noverrun: 0\n"
				      "commit overrun: 0\ndropped events: 2\n");
	sa_tracedat_set_cpu_data(td, 0, cpu0, len0);
	sa_tracedat_set_cpu_data(td, 1, cpu1, len1);
	sa_tracedat_set_origin(td, SA_ORIGIN_RECORDER, "slabacct record");
	sa_tracedat_set_origin(td, SA_ORIGIN_CMDLINE, "root=/dev/vda quiet");
	sa_tracedat_set_origin(td, SA_ORIGIN_COMMAND, "true");
	sa_tracedat_set_origin(td, SA_ORIGIN_MEMINFO_START,
			       "MemTotal: 1000 kB\n");
	sa_tracedat_set_origin(td, SA_ORIGIN_MEMINFO_END, "placeholder");
	sa_tracedat_set_origin(td, SA_ORIGIN_MEMINFO_END,
			       "MemTotal: 1000 kB\nMemFree: 10 kB\n");
	sa_tracedat_set_origin(td, "gone", "x");
	sa_tracedat_set_origin(td, "gone", NULL);
	g_free(hp);
	g_free(he);
	g_free(pr);
	return td;
}

/* The small file: three kmallocs on CPU 0, one kfree on CPU 1. */
static struct sa_tracedat *build_small(struct page *cpu0, struct page *cpu1)
{
	struct sa_tracedat *td;
	struct fmts f;
	int i;

	fmts_load(&f);
	for (i = 0; i < 3; i++)
		put_kmalloc(&f, cpu0, BASE_TS + 100 * i,
			    0xffff888000001000ULL + 64 * i, 40 + i);
	put_kfree(&f, cpu1, BASE_TS + 250, 0xffff888000001000ULL);
	td = build_file(&f, cpu0->data, PAGE, cpu1->data, PAGE);
	fmts_free(&f);
	return td;
}

static char *write_small(bool *truncated, int *ret, int *err)
{
	struct page *p0 = g_new(struct page, 1), *p1 = g_new(struct page, 1);
	char *path = g_strdup("/tmp/test-tracedat-XXXXXX");
	int fd = g_mkstemp(path);
	struct sa_tracedat *td;

	ck_assert_int_ge(fd, 0);
	page_init(p0, BASE_TS);
	page_init(p1, BASE_TS + 250);
	td = build_small(p0, p1);
	*ret = sa_tracedat_write(td, fd, truncated);
	*err = errno;
	close(fd);
	sa_tracedat_free(td);
	g_free(p0);
	g_free(p1);
	return path;
}

struct counts {
	int kmalloc, kfree, other;
	guint64 bytes_req;
};

static int count_cb(struct tracecmd_input *h, struct tep_record *r, int cpu,
		    void *data)
{
	struct counts *c = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *e = tep_find_event_by_record(tep, r);
	unsigned long long v;

	if (e && !strcmp(e->name, "kmalloc")) {
		c->kmalloc++;
		ck_assert_int_eq(tep_get_field_val(NULL, e, "bytes_req", r,
						   &v, 0), 0);
		c->bytes_req += v;
		ck_assert_int_eq(cpu, 0);
	} else if (e && !strcmp(e->name, "kfree")) {
		c->kfree++;
		ck_assert_int_eq(cpu, 1);
	} else {
		c->other++;
	}
	return 0;
}

static struct counts count_events(const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path,
				TRACECMD_FL_LOAD_NO_PLUGINS |
				TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	struct counts c = { 0 };

	ck_assert_msg(h != NULL, "libtracecmd cannot open %s", path);
	tracecmd_iterate_events(h, NULL, 0, count_cb, &c);
	tracecmd_close(h);
	return c;
}

START_TEST(golden_bytes)
{
	bool trunc;
	int ret, err;
	char *path = write_small(&trunc, &ret, &err);
	char *dir = datadir();
	char *golden = g_build_filename(dir, "small.dat", NULL);
	char *got, *want;
	gsize got_len, want_len;

	ck_assert_int_eq(ret, 0);
	ck_assert(!trunc);
	ck_assert(g_file_get_contents(path, &got, &got_len, NULL));
	if (getenv("SA_UPDATE_GOLDEN"))
		ck_assert(g_file_set_contents(golden, got, got_len, NULL));
	ck_assert_msg(g_file_get_contents(golden, &want, &want_len, NULL),
		      "no golden file %s (SA_UPDATE_GOLDEN=1 makes it)",
		      golden);
	ck_assert_uint_eq(got_len, want_len);
	ck_assert(memcmp(got, want, got_len) == 0);
	unlink(path);
	g_free(path);
	g_free(got);
	g_free(want);
	g_free(golden);
	g_free(dir);
}
END_TEST

START_TEST(libtracecmd_reads_events)
{
	bool trunc;
	int ret, err;
	char *path = write_small(&trunc, &ret, &err);
	struct counts c;

	ck_assert_int_eq(ret, 0);
	c = count_events(path);
	ck_assert_int_eq(c.kmalloc, 3);
	ck_assert_int_eq(c.kfree, 1);
	ck_assert_int_eq(c.other, 0);
	ck_assert_uint_eq(c.bytes_req, 40 + 41 + 42);
	unlink(path);
	g_free(path);
}
END_TEST

/*
 * A kallsyms of megabytes is written by reference (not copied into the
 * header): the file's size is exact and libtracecmd finds its symbols.
 */
START_TEST(large_kallsyms)
{
	struct page *p0 = g_new(struct page, 1), *p1 = g_new(struct page, 1);
	char *path = g_strdup("/tmp/test-tracedat-XXXXXX");
	int fd = g_mkstemp(path), i;
	GString *ks = g_string_new(NULL);
	struct sa_tracedat *td;
	struct tracecmd_input *h;
	struct tep_handle *tep;
	size_t hdr;
	gsize ks_len;
	struct counts c;

	for (i = 0; i < 40000; i++)
		g_string_append_printf(ks, "%llx T sym_%05d\n",
				       0xffffffff81000000ULL + 0x100ULL * i, i);
	ks_len = ks->len;
	page_init(p0, BASE_TS);
	page_init(p1, BASE_TS + 250);
	td = build_small(p0, p1);
	sa_tracedat_take_kallsyms(td, g_string_free(ks, FALSE), ks_len);
	hdr = sa_tracedat_header_size(td);
	ck_assert_int_eq(sa_tracedat_write(td, fd, NULL), 0);
	sa_tracedat_free(td);
	close(fd);
	/* the header holds the whole of it: the CPU data begin after it */
	ck_assert_uint_gt(hdr, ks_len);

	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
			  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	ck_assert_ptr_nonnull(h);
	tep = tracecmd_get_tep(h);
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000000ULL +
					   0x100ULL * 39998 + 8), "sym_39998");
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000000ULL +
					   0x100ULL * 1234), "sym_01234");
	tracecmd_close(h);
	c = count_events(path);
	ck_assert_int_eq(c.kmalloc, 3);
	ck_assert_int_eq(c.kfree, 1);
	unlink(path);
	g_free(path);
	g_free(p0);
	g_free(p1);
}
END_TEST

START_TEST(origin_roundtrip)
{
	struct sa_trace_origin o;
	GError *error = NULL;
	bool trunc;
	int ret, err;
	char *path = write_small(&trunc, &ret, &err);

	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(sa_trace_origin_read(path, &o, &error), 0);
	ck_assert_str_eq(o.uname, "Linux testhost 6.1.0-test #1 SMP x86_64");
	ck_assert_str_eq(o.kernel_release, "6.1.0-test");
	ck_assert_str_eq(o.recorder, "slabacct record");
	ck_assert_str_eq(o.cmdline, "root=/dev/vda quiet");
	ck_assert_str_eq(o.command, "true");
	ck_assert_str_eq(o.clock, "local");
	ck_assert_str_eq(o.meminfo_start, "MemTotal: 1000 kB\n");
	ck_assert_str_eq(o.meminfo_end, "MemTotal: 1000 kB\nMemFree: 10 kB\n");
	ck_assert_ptr_null(o.snapshot_start);
	ck_assert_int_eq(o.nr_cpus, 2);
	ck_assert(o.lost_known);
	ck_assert_uint_eq(o.lost[0], 7);
	ck_assert_uint_eq(o.lost[1], 2);
	ck_assert_uint_eq(o.lost_total, 9);
	ck_assert_uint_eq(o.start_ns, BASE_TS);
	/* the end is the last record the report reads, not the origin's */
	ck_assert_uint_eq(o.end_ns, 0);
	{
		struct sa_report *rep = sa_report_read(path, 1, NULL, NULL);

		ck_assert_ptr_nonnull(rep);
		ck_assert_uint_eq(rep->origin.end_ns, BASE_TS + 250);
		sa_report_free(rep);
	}
	ck_assert_int_eq(o.file_version, 6);
	ck_assert(!g_hash_table_contains(o.extra, "gone"));
	sa_trace_origin_clear(&o);
	ck_assert_ptr_null(o.uname);
	unlink(path);
	g_free(path);
}
END_TEST

/* The truncated key: "AT_NS WHY", "- WHY", and a value of another shape */
START_TEST(origin_truncated)
{
	static const struct {
		const char *value, *why;
		bool at_known;
		guint64 at;
	} cases[] = {
		{ "2011284000 SIGTERM before the workload ended",
		  "SIGTERM before the workload ended", true, 2011284000 },
		{ "- the disk filled", "the disk filled", false, 0 },
		{ "soon", "soon", false, 0 },
		{ "12x why", "12x why", false, 0 },
		{ "", "unknown reason", false, 0 },
	};
	unsigned int i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct page *p0 = g_new(struct page, 1);
		struct page *p1 = g_new(struct page, 1);
		char *path = g_strdup("/tmp/test-tracedat-XXXXXX");
		int fd = g_mkstemp(path);
		struct sa_trace_origin o;
		struct sa_tracedat *td;
		GError *error = NULL;

		ck_assert_int_ge(fd, 0);
		page_init(p0, BASE_TS);
		page_init(p1, BASE_TS + 250);
		td = build_small(p0, p1);
		sa_tracedat_set_origin(td, SA_ORIGIN_TRUNCATED,
				       cases[i].value);
		ck_assert_int_eq(sa_tracedat_write(td, fd, NULL), 0);
		close(fd);
		sa_tracedat_free(td);
		ck_assert_int_eq(sa_trace_origin_read(path, &o, &error), 0);
		ck_assert_str_eq(o.truncated, cases[i].why);
		ck_assert_int_eq(o.truncated_at_known, cases[i].at_known);
		ck_assert_uint_eq(o.truncated_ns, cases[i].at);
		sa_trace_origin_clear(&o);
		unlink(path);
		g_free(path);
		g_free(p0);
		g_free(p1);
	}
}
END_TEST

START_TEST(origin_damaged)
{
	struct sa_trace_origin o;
	GError *error = NULL;
	bool trunc;
	int ret, err, fd;
	char *path = write_small(&trunc, &ret, &err);
	off_t size;
	guint64 bad = 5;

	fd = open(path, O_RDWR);
	size = lseek(fd, 0, SEEK_END);
	ck_assert_int_eq(pwrite(fd, &bad, 8, size - 16), 8);
	close(fd);
	ck_assert_int_eq(sa_trace_origin_read(path, &o, &error), -1);
	ck_assert_ptr_nonnull(error);
	ck_assert_ptr_nonnull(strstr(error->message, "damaged at offset"));
	g_error_free(error);
	error = NULL;
	ck_assert_int_eq(sa_trace_origin_read("/nonexistent.dat", &o, &error),
			 -1);
	ck_assert(g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	g_error_free(error);
	unlink(path);
	g_free(path);
}
END_TEST

/*
 * A full disk, simulated with RLIMIT_FSIZE (Check runs each test in its
 * own process): the header fits, CPU 0's page does not. The file must
 * stay readable, with no events.
 */
START_TEST(disk_full_keeps_file_readable)
{
	struct rlimit rl = { .rlim_cur = 8192, .rlim_max = RLIM_INFINITY };
	bool trunc;
	int ret, err;
	char *path;
	struct counts c;

	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	path = write_small(&trunc, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert(trunc);
	c = count_events(path);
	ck_assert_int_eq(c.kmalloc + c.kfree, 0);
	unlink(path);
	g_free(path);
}
END_TEST

/*
 * The report's readers of the fast path (trace/segments.c) cut each CPU's
 * pages into segments read by several threads. CPU 0 holds 300 pages of
 * kmallocs, CPU 1 the kfrees of 9 in 10 of them, each 5 ns after its
 * kmalloc, and the pointers are reused all along: a record merged out of
 * order would leave a free unmatched, an object live or a pointer
 * reallocated while live. Every thread count, and the libtracecmd path,
 * must count exactly what was put in.
 */
START_TEST(segments_merge_in_order)
{
	enum { NPAGES = 300, PER_PAGE = 40, N = NPAGES * PER_PAGE };
	struct page *p0 = g_new(struct page, NPAGES);
	struct page *p1 = g_new(struct page, NPAGES);
	guint8 *d0 = g_malloc0((gsize)NPAGES * PAGE);
	guint8 *d1 = g_malloc0((gsize)NPAGES * PAGE);
	char *path = g_strdup("/tmp/test-tracedat-XXXXXX");
	int fd = g_mkstemp(path), i, n1 = 0, t;
	guint64 req = 0, live_req = 0;
	struct sa_tracedat *td;
	struct fmts f;

	fmts_load(&f);
	for (i = 0; i < N; i++) {
		guint64 ts = BASE_TS + 10ULL * i;
		gboolean freed = i % 10 != 9;
		guint64 ptr = freed ? 0xffff888000000000ULL + 64 * (i % 97) :
			      0xffff889000000000ULL + 64ULL * i;

		if (i % PER_PAGE == 0)
			page_init(&p0[i / PER_PAGE], ts);
		put_kmalloc(&f, &p0[i / PER_PAGE], ts, ptr, 8 + i % 50);
		req += 8 + i % 50;
		if (!freed) {
			live_req += 8 + i % 50;
			continue;
		}
		if (n1 % PER_PAGE == 0)
			page_init(&p1[n1 / PER_PAGE], ts + 5);
		put_kfree(&f, &p1[n1 / PER_PAGE], ts + 5, ptr);
		n1++;
	}
	for (i = 0; i < NPAGES; i++)
		memcpy(d0 + (gsize)i * PAGE, p0[i].data, PAGE);
	for (i = 0; i < (n1 + PER_PAGE - 1) / PER_PAGE; i++)
		memcpy(d1 + (gsize)i * PAGE, p1[i].data, PAGE);
	td = build_file(&f, d0, (gsize)NPAGES * PAGE, d1,
			(gsize)(n1 + PER_PAGE - 1) / PER_PAGE * PAGE);
	ck_assert_int_eq(sa_tracedat_write(td, fd, NULL), 0);
	close(fd);
	sa_tracedat_free(td);
	fmts_free(&f);
	ck_assert_int_eq(n1, N / 10 * 9);

	for (t = 0; t < 10; t++) {
		struct sa_report_opts o = { .threads = t % 5 + 1,
					    .no_raw = t >= 5 };
		int cs = SA_SEC_CALLSITE;
		GError *error = NULL;
		struct sa_report *rep = sa_report_read(path, 1u << cs, &o,
						       &error);
		const struct sa_callsite_result *r;
		const struct sa_totals *k;

		ck_assert_msg(rep != NULL, "%s", error ? error->message : "");
		r = rep->result[cs];
		k = &r->total[SA_KIND_KMALLOC];
		ck_assert_uint_eq(rep->nr_records, N + n1);
		ck_assert_uint_eq(rep->nr_used, N + n1);
		ck_assert_uint_eq(k->allocs, N);
		ck_assert_uint_eq(k->frees, n1);
		ck_assert_uint_eq(k->live, N - n1);
		ck_assert_uint_eq(k->bytes_req, req);
		ck_assert_uint_eq(k->live_req, live_req);
		ck_assert_uint_eq(k->live_alloc, 64ULL * (N - n1));
		ck_assert_uint_eq(r->unmatched_frees, 0);
		ck_assert_uint_eq(r->reused, 0);
		ck_assert_uint_eq(rep->first_ts, BASE_TS);
		/* the last kmalloc (N - 1) is never freed */
		ck_assert_uint_eq(rep->last_ts, BASE_TS + 10ULL * (N - 1));
		sa_report_free(rep);
	}
	unlink(path);
	g_free(path);
	g_free(p0);
	g_free(p1);
	g_free(d0);
	g_free(d1);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("tracedat");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, golden_bytes);
	tcase_add_test(tc, libtracecmd_reads_events);
	tcase_add_test(tc, large_kallsyms);
	tcase_add_test(tc, origin_roundtrip);
	tcase_add_test(tc, origin_damaged);
	tcase_add_test(tc, origin_truncated);
	tcase_add_test(tc, disk_full_keeps_file_readable);
	tcase_add_test(tc, segments_merge_in_order);
	suite_add_tcase(s, tc);
	return s;
}
