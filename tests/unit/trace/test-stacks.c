// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: ftrace kernel_stack entries in a trace.dat, decoded and
 * attached to their events (trace/stack.h, trace/decode.c, the readers).
 *
 * Files are built from hand-made ring-buffer pages with the canned
 * formats of a 64-bit kernel (tests/data/tracedat/) and, for a 32-bit
 * one, the same formats with 4-byte longs: the word size is the trace's
 * (its header_page), never this program's. They are read through
 * sa_trace_read, by the raw page walker and through libtracecmd.
 */
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <event-parse.h>

#include "trace/reader.h"
#include "trace/stack.h"
#include "trace/tracedat-write.h"

Suite *suite(void);

#define PAGE 4096
#define TS0 1000000ULL
#define SITE 0xc1200010ULL	/* fits both word sizes */
#define CALLER 0xc1300020ULL

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

/* The formats of a 32-bit kernel: longs and pointers of 4 bytes. */
static const char km32[] =
"name: kmalloc\nID: 658\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:unsigned long call_site;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:const void * ptr;\toffset:12;\tsize:4;\tsigned:0;\n"
"\tfield:size_t bytes_req;\toffset:16;\tsize:4;\tsigned:0;\n"
"\tfield:size_t bytes_alloc;\toffset:20;\tsize:4;\tsigned:0;\n"
"\tfield:unsigned long gfp_flags;\toffset:24;\tsize:4;\tsigned:0;\n"
"\tfield:int node;\toffset:28;\tsize:4;\tsigned:1;\n\n"
"print fmt: \"call_site=%pS ptr=%p\", (void *)REC->call_site, REC->ptr\n";
static const char kf32[] =
"name: kfree\nID: 657\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:unsigned long call_site;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:const void * ptr;\toffset:12;\tsize:4;\tsigned:0;\n\n"
"print fmt: \"call_site=%pS ptr=%p\", (void *)REC->call_site, REC->ptr\n";
static const char ks32[] =
"name: kernel_stack\nID: 4\nformat:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
"\tfield:unsigned long caller[8];\toffset:12;\tsize:32;\tsigned:0;\n\n"
"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

/* One trace being built: its word size and formats, and a page per CPU. */
struct build {
	int word;			/* 4 or 8 */
	int hdr;			/* page header: 12 or 16 bytes */
	char *km, *kf, *ks;
	gsize km_len, kf_len, ks_len;
	struct tep_handle *tep;
	struct tep_event *kmalloc, *kfree, *stack;
	guint8 *pages[2];		/* npages[cpu] pages of PAGE bytes */
	int npages[2];
	size_t used[2];			/* in the last page */
	guint64 last_ts[2];
	bool missed[2];			/* the last page follows lost events */
	/* the common fields of the records put next */
	gint32 pid;
	guint8 flags;			/* 0x08: hard interrupt, 0x10: softirq */
};

/* Start a new page on cpu at ts. */
static void new_page(struct build *b, int cpu, guint64 ts)
{
	guint8 *p;

	b->pages[cpu] = g_realloc(b->pages[cpu],
				  (size_t)(b->npages[cpu] + 1) * PAGE);
	p = b->pages[cpu] + (size_t)b->npages[cpu]++ * PAGE;
	memset(p, 0, PAGE);
	memcpy(p, &ts, 8);
	b->used[cpu] = 0;
	b->last_ts[cpu] = ts;
	b->missed[cpu] = false;
}

/* Start a new page on cpu at ts, after events the buffer lost. */
static void new_page_missed(struct build *b, int cpu, guint64 ts)
{
	new_page(b, cpu, ts);
	b->missed[cpu] = true;
}

static struct tep_event *parse(struct tep_handle *tep, const char *text,
			       gsize len, const char *sys)
{
	struct tep_event *e = NULL;

	ck_assert_int_eq(tep_parse_format(tep, &e, text, len, sys), 0);
	return e;
}

static void build_init(struct build *b, int word)
{
	int cpu;

	memset(b, 0, sizeof(*b));
	b->word = word;
	b->pid = 1234;
	b->hdr = word == 8 ? 16 : 12;
	if (word == 8) {
		b->km = slurp("kmem-kmalloc.format", &b->km_len);
		b->kf = slurp("kmem-kfree.format", &b->kf_len);
		b->ks = slurp("ftrace-kernel_stack.format", &b->ks_len);
	} else {
		b->km = g_strdup(km32);
		b->kf = g_strdup(kf32);
		b->ks = g_strdup(ks32);
		b->km_len = strlen(km32);
		b->kf_len = strlen(kf32);
		b->ks_len = strlen(ks32);
	}
	b->tep = tep_alloc();
	b->kmalloc = parse(b->tep, b->km, b->km_len, "kmem");
	b->kfree = parse(b->tep, b->kf, b->kf_len, "kmem");
	b->stack = parse(b->tep, b->ks, b->ks_len, "ftrace");
	for (cpu = 0; cpu < 2; cpu++)
		new_page(b, cpu, TS0);
}

static void build_free(struct build *b)
{
	g_free(b->km);
	g_free(b->kf);
	g_free(b->ks);
	g_free(b->pages[0]);
	g_free(b->pages[1]);
	tep_free(b->tep);
}

/* An event of len bytes on cpu's page, long ones with their length. */
static void put(struct build *b, int cpu, guint64 ts, const void *ev,
		size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	size_t need = padded + (padded <= 112 ? 4 : 8);
	guint32 hdr, len4;
	guint64 commit;
	guint8 *page, *p;

	if (b->hdr + b->used[cpu] + need > PAGE)
		new_page(b, cpu, ts);
	page = b->pages[cpu] + (size_t)(b->npages[cpu] - 1) * PAGE;
	p = page + b->hdr + b->used[cpu];

	if (padded <= 112) {
		hdr = (guint32)(padded / 4) |
		      (guint32)((ts - b->last_ts[cpu]) << 5);
		ck_assert_uint_le(b->hdr + b->used[cpu] + 4 + padded, PAGE);
		memcpy(p, &hdr, 4);
		memcpy(p + 4, ev, len);
		b->used[cpu] += 4 + padded;
	} else {		/* type_len 0: the length in array[0] */
		hdr = (guint32)((ts - b->last_ts[cpu]) << 5);
		len4 = padded + 4;
		ck_assert_uint_le(b->hdr + b->used[cpu] + 8 + padded, PAGE);
		memcpy(p, &hdr, 4);
		memcpy(p + 4, &len4, 4);
		memcpy(p + 8, ev, len);
		b->used[cpu] += 8 + padded;
	}
	b->last_ts[cpu] = ts;
	commit = b->used[cpu];
	if (b->missed[cpu])	/* RB_MISSED_EVENTS, no count stored */
		commit |= 1ULL << 31;
	memcpy(page + 8, &commit, b->word);	/* little endian */
}

static void set(struct tep_event *e, guint8 *rec, const char *name,
		guint64 v)
{
	struct tep_format_field *f = tep_find_field(e, name);

	if (!f)
		f = tep_find_common_field(e, name);
	ck_assert_msg(f != NULL, "no field %s", name);
	memcpy(rec + f->offset, &v, MIN(f->size, 8));
}

static void put_kmalloc(struct build *b, int cpu, guint64 ts,
			guint64 site, guint64 ptr)
{
	guint8 rec[64] = { 0 };

	set(b->kmalloc, rec, "common_type", b->kmalloc->id);
	set(b->kmalloc, rec, "common_pid", (guint32)b->pid);
	set(b->kmalloc, rec, "common_flags", b->flags);
	set(b->kmalloc, rec, "call_site", site);
	set(b->kmalloc, rec, "ptr", ptr);
	set(b->kmalloc, rec, "bytes_req", 40);
	set(b->kmalloc, rec, "bytes_alloc", 64);
	set(b->kmalloc, rec, "gfp_flags", 0xcc0);
	put(b, cpu, ts, rec, b->word == 8 ? 52 : 32);
}

static void put_kfree(struct build *b, int cpu, guint64 ts, guint64 ptr)
{
	guint8 rec[64] = { 0 };

	set(b->kfree, rec, "common_type", b->kfree->id);
	set(b->kfree, rec, "common_pid", (guint32)b->pid);
	set(b->kfree, rec, "common_flags", b->flags);
	set(b->kfree, rec, "call_site", 0xc1400010ULL);
	set(b->kfree, rec, "ptr", ptr);
	put(b, cpu, ts, rec, b->word == 8 ? 24 : 16);
}

/*
 * A kernel_stack entry of the n frames at ip, whose size field says
 * size (bytes, as the kernel writes it), holding room for room frames.
 */
static void put_stack(struct build *b, int cpu, guint64 ts,
		      const guint64 *ip, int n, int size, int room)
{
	struct tep_format_field *f = tep_find_field(b->stack, "caller");
	size_t len = f->offset + (size_t)room * b->word;
	guint8 *rec = g_malloc0(len);
	int i;

	set(b->stack, rec, "common_type", b->stack->id);
	set(b->stack, rec, "common_pid", (guint32)b->pid);
	set(b->stack, rec, "common_flags", b->flags);
	set(b->stack, rec, "size", (guint32)size);
	for (i = 0; i < n && i < room; i++)
		memcpy(rec + f->offset + i * b->word, &ip[i], b->word);
	put(b, cpu, ts, rec, len);
	g_free(rec);
}

/* A stack of n frames whose frame at is SITE, then CALLER. */
static void frames(guint64 *ip, int n, int at)
{
	int i;

	for (i = 0; i < n; i++)
		ip[i] = 0xc1000000ULL + 0x100 * i;
	ip[at] = SITE;
	if (at + 1 < n)
		ip[at + 1] = CALLER;
}

static char *write_file(struct build *b)
{
	gsize hp_len, he_len;
	char *hp = slurp(b->word == 8 ? "header_page" : "header_page-32",
			 &hp_len);
	char *he = slurp("header_event", &he_len);
	struct sa_tracedat *td = sa_tracedat_new(2, PAGE);
	const char *ksyms = "c1000000 T _text\nc1200000 T kvmalloc_node\n"
			    "c1300000 T seq_buf_alloc\n";
	char *path = g_strdup("/tmp/test-stacks-XXXXXX");
	int fd = g_mkstemp(path), cpu;
	bool trunc = false;

	ck_assert_int_ge(fd, 0);
	sa_tracedat_set_headers(td, hp, hp_len, he, he_len);
	sa_tracedat_add_ftrace_format(td, b->ks, b->ks_len);
	sa_tracedat_add_event_format(td, "kmem", b->km, b->km_len);
	sa_tracedat_add_event_format(td, "kmem", b->kf, b->kf_len);
	sa_tracedat_set_kallsyms(td, ksyms, strlen(ksyms));
	sa_tracedat_set_printk(td, "", 0);
	sa_tracedat_set_cmdlines(td, "1234 workload\n", 14);
	sa_tracedat_add_option_string(td, SA_OPT_TRACECLOCK,
				      "[local] global\n");
	for (cpu = 0; cpu < 2; cpu++)
		sa_tracedat_set_cpu_data(td, cpu, b->pages[cpu],
					 b->npages[cpu] > 1 || b->used[cpu] ?
					 (size_t)b->npages[cpu] * PAGE : 0);
	ck_assert_int_eq(sa_tracedat_write(td, fd, &trunc), 0);
	ck_assert(!trunc);
	close(fd);
	sa_tracedat_free(td);
	g_free(hp);
	g_free(he);
	return path;
}

/* What a read gave: the records, and the counts. */
struct got {
	GArray *recs;			/* struct sa_rec */
	struct sa_read_counts c;
};

static void on_record(void *data, struct sa_rec *r)
{
	struct got *g = data;

	ck_assert_uint_ne(r->ev, SA_EV_STACK);	/* never handed on */
	g_array_append_val(g->recs, *r);
}

static int on_done(void *data, struct tep_handle *tep,
		   const struct sa_read_counts *c, GError **err)
{
	((struct got *)data)->c = *c;
	return 0;
}

static void read_file(const char *path, bool no_raw, struct got *g)
{
	struct sa_read_opts o = { .threads = 1, .no_raw = no_raw };
	struct sa_read_sink sink = {
		.record = on_record, .done = on_done, .data = g,
	};
	GError *err = NULL;

	memset(g, 0, sizeof(*g));
	g->recs = g_array_new(FALSE, FALSE, sizeof(struct sa_rec));
	ck_assert_msg(!sa_trace_read(path, &o, &sink, &err), "%s: %s", path,
		      err ? err->message : "?");
}

static const struct sa_rec *rec_at(struct got *g, guint i)
{
	ck_assert_uint_lt(i, g->recs->len);
	return &g_array_index(g->recs, struct sa_rec, i);
}

/*
 * kmalloc + its stack, a kfree with none, on CPU 0; on CPU 1 a stack
 * before any event (nothing to attach it to). Both word sizes, both
 * readers.
 */
static void attach_case(int word, bool no_raw)
{
	struct build b;
	struct got g;
	guint64 ip[6];
	char *path;
	const struct sa_rec *r;

	build_init(&b, word);
	frames(ip, 6, 2);
	put_stack(&b, 1, TS0 + 5, ip, 6, 6 * word, 6);
	put_kmalloc(&b, 0, TS0 + 10, SITE, 0xc8001000ULL);
	put_stack(&b, 0, TS0 + 11, ip, 6, 6 * word, 8);
	put_kfree(&b, 0, TS0 + 20, 0xc8001000ULL);
	put_kmalloc(&b, 1, TS0 + 30, 0xc1300040ULL, 0xc8002000ULL);
	path = write_file(&b);
	read_file(path, no_raw, &g);
	ck_assert_uint_eq(g.recs->len, 3);
	ck_assert_uint_eq(g.c.stacks, 1);
	ck_assert_uint_eq(g.c.stacks_lost, 1);
	r = rec_at(&g, 0);
	ck_assert_uint_eq(r->ev, SA_EV_KMALLOC);
	ck_assert_ptr_nonnull(r->stack);
	ck_assert_uint_eq(r->stack->n, 6);
	ck_assert_uint_eq(r->stack->ip[2], SITE);
	ck_assert_uint_eq(r->stack->ip[3], CALLER);
	ck_assert(sa_stack_has(r->stack, SITE));
	/* the same frames are the same pointer, whatever the record */
	ck_assert_ptr_eq(r->stack, sa_stack_intern(ip, 6));
	ck_assert_ptr_null(rec_at(&g, 1)->stack);
	ck_assert_ptr_null(rec_at(&g, 2)->stack);
	unlink(path);
	g_free(path);
	g_array_unref(g.recs);
	build_free(&b);
}

START_TEST(attach_64)
{
	attach_case(8, false);
	attach_case(8, true);
}
END_TEST

START_TEST(attach_32)
{
	attach_case(4, false);
	attach_case(4, true);
}
END_TEST

/*
 * An interrupt's event with its own stack between an event and its
 * stack: each stack goes to the newest event of its CPU made in its
 * context (the interrupt's, the task's).
 */
START_TEST(attach_past_interrupt)
{
	struct build b;
	struct got g;
	guint64 ip[4], irq[4] = { 0xc1000100ULL, 0xc1300040ULL,
				  0xc1000300ULL, 0xc1000400ULL };
	char *path;
	int mode;

	build_init(&b, 8);
	frames(ip, 4, 1);
	put_kmalloc(&b, 0, TS0 + 10, SITE, 0xc8001000ULL);
	b.flags = 0x08;				/* a hard interrupt */
	put_kmalloc(&b, 0, TS0 + 11, 0xc1300040ULL, 0xc8002000ULL);
	put_stack(&b, 0, TS0 + 12, irq, 4, 32, 4);
	b.flags = 0;
	put_stack(&b, 0, TS0 + 13, ip, 4, 32, 4);
	path = write_file(&b);
	for (mode = 0; mode < 2; mode++) {
		read_file(path, mode, &g);
		ck_assert_uint_eq(g.c.stacks, 2);
		ck_assert_uint_eq(rec_at(&g, 0)->stack->ip[1], SITE);
		ck_assert_uint_eq(rec_at(&g, 1)->stack->ip[1], 0xc1300040ULL);
		g_array_unref(g.recs);
	}
	unlink(path);
	g_free(path);
	build_free(&b);
}
END_TEST

/*
 * The interleaving of a --stacks recording on 6.12 whose report counted
 * 10 of sa_wrap_kvmalloc's 11 allocations: kvmalloc's kmalloc, then a
 * softirq on that CPU (an RCU batch: 10 kmem_cache_frees with no stack),
 * then the kmalloc's stack, written by the trigger once the softirq was
 * over. The stack went to the softirq's last free (the rule looked at 8
 * events without a stack, and took the newest when none of them had its
 * call site among the frames). It is the kmalloc's: the task's newest
 * event. Then a task's stack whose event has one already (the newest
 * of its context), and one after a page that follows lost events: their
 * events are not known, and they are counted, given to no event: not
 * to the softirq's frees, nor to an older allocation of the task. Last,
 * a page after lost events that starts with a stack (its event lost):
 * the loss stays marked for the record kept after it, so that the
 * task's next stack, past a softirq's free, does not reach the
 * allocation from before the loss either.
 */
START_TEST(stack_after_softirq_batch)
{
	struct build b;
	struct got g;
	guint64 ip[6];
	char *path;
	int i, mode;

	build_init(&b, 8);
	frames(ip, 6, 2);
	put_kmalloc(&b, 0, TS0 + 10, SITE, 0xc8001000ULL);
	b.flags = 0x10;				/* a softirq */
	for (i = 0; i < 10; i++)
		put_kfree(&b, 0, TS0 + 20 + i, 0xc9000000ULL + 0x100 * i);
	b.flags = 0;
	put_stack(&b, 0, TS0 + 40, ip, 6, 48, 6);
	/* a second stack for the same task event: unmatched */
	b.flags = 0x10;
	put_kfree(&b, 0, TS0 + 50, 0xc9001000ULL);
	b.flags = 0;
	put_stack(&b, 0, TS0 + 51, ip, 6, 48, 6);
	/* an allocation, events lost, a softirq's free, then a stack */
	put_kmalloc(&b, 0, TS0 + 60, SITE, 0xc8002000ULL);
	new_page_missed(&b, 0, TS0 + 70);
	b.flags = 0x10;
	put_kfree(&b, 0, TS0 + 70, 0xc9002000ULL);
	b.flags = 0;
	put_stack(&b, 0, TS0 + 71, ip, 6, 48, 6);
	/* an allocation, events lost, a stack first, a free, a stack */
	put_kmalloc(&b, 0, TS0 + 80, SITE, 0xc8003000ULL);
	new_page_missed(&b, 0, TS0 + 90);
	put_stack(&b, 0, TS0 + 90, ip, 6, 48, 6);
	b.flags = 0x10;
	put_kfree(&b, 0, TS0 + 91, 0xc9003000ULL);
	b.flags = 0;
	put_stack(&b, 0, TS0 + 92, ip, 6, 48, 6);
	path = write_file(&b);
	for (mode = 0; mode < 2; mode++) {
		read_file(path, mode, &g);
		ck_assert_uint_eq(g.recs->len, 16);
		ck_assert_uint_eq(g.c.stacks, 1);
		ck_assert_uint_eq(g.c.stacks_lost, 4);
		ck_assert_uint_eq(rec_at(&g, 0)->ev, SA_EV_KMALLOC);
		ck_assert_ptr_eq(rec_at(&g, 0)->stack, sa_stack_intern(ip, 6));
		for (i = 1; i < 16; i++)
			ck_assert_msg(!rec_at(&g, i)->stack,
				      "record %d has a stack", i);
		g_array_unref(g.recs);
	}
	unlink(path);
	g_free(path);
	build_free(&b);
}
END_TEST

/*
 * Hostile entries: a size field that claims more than the record holds
 * (the record bounds it), a negative one, one that ends early with
 * ULONG_MAX (older kernels' fixed array), an empty one, and one of more
 * frames than SA_STACK_MAX (cut to it).
 */
START_TEST(hostile_stacks)
{
	struct build b;
	struct got g;
	guint64 ip[SA_STACK_MAX + 10];
	char *path;
	int i;

	build_init(&b, 8);
	frames(ip, 4, 1);
	put_kmalloc(&b, 0, TS0 + 10, SITE, 0xc8001000ULL);
	put_stack(&b, 0, TS0 + 11, ip, 3, 1 << 30, 3);	/* truncated */
	put_kmalloc(&b, 0, TS0 + 20, SITE, 0xc8002000ULL);
	put_stack(&b, 0, TS0 + 21, ip, 4, -8, 4);	/* negative */
	put_kmalloc(&b, 0, TS0 + 30, SITE, 0xc8003000ULL);
	ip[2] = G_MAXUINT64;
	put_stack(&b, 0, TS0 + 31, ip, 4, 32, 4);	/* ULONG_MAX end */
	put_kmalloc(&b, 0, TS0 + 40, SITE, 0xc8004000ULL);
	put_stack(&b, 0, TS0 + 41, ip, 0, 0, 0);	/* no frame */
	for (i = 0; i < SA_STACK_MAX + 10; i++)
		ip[i] = 0xc1000000ULL + 8 * i;
	put_kmalloc(&b, 1, TS0 + 50, SITE, 0xc8005000ULL);
	put_stack(&b, 1, TS0 + 51, ip, SA_STACK_MAX + 10,
		  (SA_STACK_MAX + 10) * 8, SA_STACK_MAX + 10);
	path = write_file(&b);
	read_file(path, false, &g);
	ck_assert_uint_eq(g.recs->len, 5);
	ck_assert_uint_eq(rec_at(&g, 0)->stack->n, 3);
	/* a negative size says nothing: the record bounds it */
	ck_assert_uint_eq(rec_at(&g, 1)->stack->n, 4);
	ck_assert_uint_eq(rec_at(&g, 2)->stack->n, 2);
	ck_assert_ptr_null(rec_at(&g, 3)->stack);	/* empty: dropped */
	ck_assert_uint_eq(rec_at(&g, 4)->stack->n, SA_STACK_MAX);
	ck_assert_uint_eq(g.c.stacks, 4);
	ck_assert_uint_eq(g.c.stacks_lost, 1);
	unlink(path);
	g_free(path);
	g_array_unref(g.recs);
	build_free(&b);
}
END_TEST

/*
 * A reader of several CPUs gets their records merged in time order: an
 * event that fills a chunk, another CPU's record, then the event's
 * stack. The stack must still find its event (chunk_carry), whichever
 * reader; before, the libtracecmd reader of both CPUs lost it.
 */
START_TEST(stack_across_chunks)
{
	struct build b;
	struct got g;
	guint64 ip[4];
	char *path;
	int i, mode;

	build_init(&b, 8);
	frames(ip, 4, 1);
	for (i = 0; i < 2047; i++)
		put_kmalloc(&b, 1, TS0 + 10 + i, 0xc1300040ULL,
			    0xc9000000ULL + 64 * i);
	put_kmalloc(&b, 0, TS0 + 5000, SITE, 0xc8001000ULL);
	put_kmalloc(&b, 1, TS0 + 5001, 0xc1300040ULL, 0xc8002000ULL);
	put_stack(&b, 0, TS0 + 5002, ip, 4, 32, 4);
	path = write_file(&b);
	for (mode = 0; mode < 2; mode++) {
		read_file(path, mode, &g);
		ck_assert_uint_eq(g.recs->len, 2049);
		ck_assert_uint_eq(g.c.stacks, 1);
		ck_assert_uint_eq(g.c.stacks_lost, 0);
		ck_assert_ptr_nonnull(rec_at(&g, 2047)->stack);
		ck_assert_uint_eq(rec_at(&g, 2047)->cpu, 0);
		g_array_unref(g.recs);
	}
	unlink(path);
	g_free(path);
	build_free(&b);
}
END_TEST

/*
 * A large kmalloc on 6.10+ is traced twice, back to back in the task's
 * context: the allocator's address, then the caller's (a wrapper's call
 * site: the trigger fires on that one). Both call sites are frames of
 * the stack, which is the second event's: the newest of its context.
 * With the stacktrace option each has its own.
 */
START_TEST(stack_of_large_kmalloc)
{
	struct build b;
	struct got g;
	guint64 ip[6];
	char *path;
	int mode;

	build_init(&b, 8);
	frames(ip, 6, 2);
	ip[1] = 0xc1000180ULL;			/* the allocator's */
	put_kmalloc(&b, 0, TS0 + 10, 0xc1000180ULL, 0xc8100000ULL);
	put_kmalloc(&b, 0, TS0 + 11, SITE, 0xc8100000ULL);
	put_stack(&b, 0, TS0 + 12, ip, 6, 48, 6);
	put_kmalloc(&b, 1, TS0 + 20, 0xc1000180ULL, 0xc8200000ULL);
	put_stack(&b, 1, TS0 + 21, ip + 1, 5, 40, 5);
	put_kmalloc(&b, 1, TS0 + 22, SITE, 0xc8200000ULL);
	put_stack(&b, 1, TS0 + 23, ip, 6, 48, 6);
	path = write_file(&b);
	for (mode = 0; mode < 2; mode++) {
		read_file(path, mode, &g);
		ck_assert_uint_eq(g.recs->len, 4);
		ck_assert_uint_eq(g.c.stacks, 3);
		ck_assert_uint_eq(g.c.stacks_lost, 0);
		/* CPU 0's records come first: their page starts earlier */
		ck_assert_ptr_null(rec_at(&g, 0)->stack);
		ck_assert_ptr_eq(rec_at(&g, 1)->stack, sa_stack_intern(ip, 6));
		ck_assert_ptr_eq(rec_at(&g, 2)->stack,
				 sa_stack_intern(ip + 1, 5));
		ck_assert_ptr_eq(rec_at(&g, 3)->stack, sa_stack_intern(ip, 6));
		g_array_unref(g.recs);
	}
	unlink(path);
	g_free(path);
	build_free(&b);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("stacks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, attach_64);
	tcase_add_test(tc, attach_32);
	tcase_add_test(tc, attach_past_interrupt);
	tcase_add_test(tc, stack_after_softirq_batch);
	tcase_add_test(tc, stack_of_large_kmalloc);
	tcase_add_test(tc, hostile_stacks);
	tcase_add_test(tc, stack_across_chunks);
	suite_add_tcase(s, tc);
	return s;
}
