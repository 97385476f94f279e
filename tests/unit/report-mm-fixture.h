/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the unit tests of the pages, reclaim, compaction and oom
 * sections: records of any event built by hand, a pipeline run that marks
 * the events fed as present in the trace, and golden-output checks of a
 * section on the real traces in tests/data/report-mm/ (KERNEL.dat.gz;
 * goldens in KERNEL/SECTION.{txt,json,csv}; SA_UPDATE_GOLDEN=1 rewrites
 * them).
 */
#ifndef SLABACCT_TEST_REPORT_MM_FIXTURE_H
#define SLABACCT_TEST_REPORT_MM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <gio/gio.h>

#include "emit/emit.h"
#include "report-fixture.h"

#define US	1000ULL
#define MS	1000000ULL

static inline struct sa_rec mm_rec(enum sa_ev ev, guint64 ts, gint32 pid,
				   const guint64 *v, int n)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.pid = pid;
	r.ev = ev;
	memcpy(r.v, v, n * sizeof(*v));
	r.have = (1u << n) - 1;
	return r;
}

/* MM_REC(SA_EV_..., ts, pid, field0, field1, ...) */
#define MM_REC(ev, ts, pid, ...)					\
	mm_rec((ev), (ts), (pid), (const guint64[]){ __VA_ARGS__ },	\
	       G_N_ELEMENTS(((const guint64[]){ __VA_ARGS__ })))

/*
 * Run recs through the section what (and callsite); every event fed is
 * present in the "trace". snapshot_start, when given, is the origin's.
 */
static inline struct sa_report *mm_run(struct sa_rec *recs, int n,
				       const char *what,
				       const char *snapshot_start)
{
	struct sa_report *rep = sa_report_new("synthetic", SECTION(what),
					      NULL);
	struct sa_pipeline p;
	int i;

	rep->origin.snapshot_start = g_strdup(snapshot_start);
	sa_pipeline_init(&p, rep);
	for (i = 0; i < n; i++) {
		if (!rep->first_ts)
			rep->first_ts = recs[i].ts;
		rep->last_ts = recs[i].ts;
		rep->ev_present[recs[i].ev] = true;
		sa_pipeline_feed(&p, &recs[i]);
	}
	sa_pipeline_finish(&p);
	return rep;
}

static inline bool mm_has_note(const struct sa_report *rep, const char *part)
{
	guint i;

	for (i = 0; i < rep->notes->len; i++)
		if (strstr(rep->notes->pdata[i], part))
			return true;
	return false;
}

/* ---- golden outputs on the real traces ---- */

static inline char *mm_datadir(void)
{
	char *exe, *d;

	if (g_file_test("tests/data/report-mm", G_FILE_TEST_IS_DIR))
		return g_strdup("tests/data/report-mm");
	exe = g_file_read_link("/proc/self/exe", NULL);
	d = g_build_filename(exe ? g_path_get_dirname(exe) : ".", "..", "..",
			     "..", "tests", "data", "report-mm", NULL);
	g_free(exe);
	return d;
}

/* Unpack dir/KERNEL.dat.gz into a temporary file; its path. */
static inline char *mm_unpack(const char *dir, const char *kernel)
{
	char *gz = g_strdup_printf("%s/%s.dat.gz", dir, kernel), *tmp;
	GFile *f = g_file_new_for_path(gz);
	GError *err = NULL;
	GInputStream *raw = G_INPUT_STREAM(g_file_read(f, NULL, &err));
	GConverter *z;
	GInputStream *in;
	GOutputStream *mem;
	int fd;

	ck_assert_msg(raw, "cannot read %s", gz);
	z = G_CONVERTER(g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP));
	in = g_converter_input_stream_new(raw, z);
	mem = g_memory_output_stream_new_resizable();
	ck_assert(g_output_stream_splice(mem, in,
		G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
		G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &err) > 0);
	fd = g_file_open_tmp("sa-report-mm-XXXXXX.dat", &tmp, &err);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert(g_file_set_contents(tmp,
		g_memory_output_stream_get_data(G_MEMORY_OUTPUT_STREAM(mem)),
		g_memory_output_stream_get_data_size(
			G_MEMORY_OUTPUT_STREAM(mem)), &err));
	g_object_unref(mem);
	g_object_unref(in);
	g_object_unref(z);
	g_object_unref(raw);
	g_object_unref(f);
	g_free(gz);
	return tmp;
}

/* The section what of rep in fmt, as the report would print it. */
static inline char *mm_emit(const struct sa_report *rep, const char *what,
			    enum sa_format fmt)
{
	int idx = sa_section_index(what);
	const void *res = rep->result[idx];
	struct sa_emit e = { .fmt = fmt, .width = 80 };
	char *buf = NULL;
	size_t len = 0;
	guint i;

	e.out = open_memstream(&buf, &len);
	if (fmt == SA_FMT_TEXT) {
		for (i = 0; i < rep->notes->len; i++)
			fprintf(e.out, "# note: %s\n",
				(char *)rep->notes->pdata[i]);
		sa_text_sections[idx](&e, rep, res);
	} else if (fmt == SA_FMT_CSV) {
		sa_csv_sections[idx](&e, rep, res);
	} else {
		e.jb = json_builder_new();
		json_builder_begin_object(e.jb);
		sa_json_sections[idx](&e, rep, res);
		json_builder_end_object(e.jb);
		sa_json_write(&e);
	}
	fclose(e.out);
	return buf;
}

/* Check section what of the trace of kernel against its goldens. */
static inline void mm_golden(const char *kernel, const char *what)
{
	static const char *const ext[] = { "txt", "csv", "json" };
	static const enum sa_format fmts[] = { SA_FMT_TEXT, SA_FMT_CSV,
					       SA_FMT_JSON };
	static struct sa_report_opts opts = { .threads = 1 };
	char *dir = mm_datadir(), *trace = mm_unpack(dir, kernel);
	GError *err = NULL;
	struct sa_report *rep = sa_report_read(trace, SECTION(what), &opts,
					       &err);
	int i;

	ck_assert_msg(rep, "%s: %s", trace, err ? err->message : "?");
	for (i = 0; i < 3; i++) {
		char *got = mm_emit(rep, what, fmts[i]), *want = NULL;
		char *path = g_strdup_printf("%s/%s/%s.%s", dir, kernel, what,
					     ext[i]);

		if (getenv("SA_UPDATE_GOLDEN"))
			ck_assert(g_file_set_contents(path, got, -1, NULL));
		ck_assert_msg(g_file_get_contents(path, &want, NULL, NULL),
			      "no golden file %s (SA_UPDATE_GOLDEN=1 makes it)",
			      path);
		ck_assert_msg(!strcmp(got, want), "%s differs from the "
			      "output:\n%s", path, got);
		g_free(got);
		g_free(want);
		g_free(path);
	}
	sa_report_free(rep);
	unlink(trace);
	g_free(trace);
	g_free(dir);
}

/* The golden tests of a section on both kernels' traces, for a TCase. */
#define MM_GOLDEN_TESTS(what)						\
	START_TEST(golden_6_1) { mm_golden("6.1", what); } END_TEST	\
	START_TEST(golden_6_12) { mm_golden("6.12-cloud", what); }	\
	END_TEST							\
	static void add_golden_tests(TCase *tc)				\
	{								\
		tcase_add_test(tc, golden_6_1);				\
		tcase_add_test(tc, golden_6_12);			\
	}

#endif /* SLABACCT_TEST_REPORT_MM_FIXTURE_H */
