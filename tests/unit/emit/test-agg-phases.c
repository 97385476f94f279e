// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the boot phases of the timeline section on hand-made
 * records: levels in the kernel's order, repeated, out of order and
 * missing; where init starts (the last initcall's finish of the levels'
 * thread, else its exec, else nowhere); a module's initcall in another
 * process; the counts per phase (a large kmalloc traced twice is one
 * allocation, a failed one none, a free counts when it matches); and a
 * hostile level string: cut, escaped in text, and no markup in the page.
 */
#include <check.h>
#include <stdint.h>

#include "report/agg/timeline.h"
#include "emit/emit-phases.h"
#include "report-mm-fixture.h"

Suite *suite(void);

#define LEVELS	1	/* the pid of the thread that runs initcalls */
#define OTHER	50

static struct sa_rec level(guint64 ts, gint32 pid, const char *name)
{
	struct sa_rec r = MM_REC(SA_EV_INITCALL_LEVEL, ts, pid,
				 (guint64)(uintptr_t)g_intern_string(name));

	return r;
}

static struct sa_rec ev(enum sa_ev e, guint64 ts, gint32 pid)
{
	struct sa_rec r;

	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.pid = pid;
	r.ev = e;
	return r;
}

static struct sa_rec km(guint64 ts, guint64 site, guint64 ptr, guint32 bytes)
{
	struct sa_rec r = fx_alloc(SA_EV_KMALLOC, ts, 0, site, ptr, bytes,
				   bytes);

	r.pid = LEVELS;
	return r;
}

static const struct sa_phases *phases_of(const struct sa_report *rep)
{
	const struct sa_timeline_result *t = RESULT(rep, "timeline");

	return &t->phases;
}

static const struct sa_phase *nth(const struct sa_phases *ph, guint i)
{
	ck_assert_uint_lt(i, ph->phases->len);
	return &g_array_index(ph->phases, struct sa_phase, i);
}

static void check_phase(const struct sa_phases *ph, guint i, const char *name,
			guint64 start, guint64 allocs, guint64 bytes,
			guint64 frees, guint64 freed)
{
	const struct sa_phase *p = nth(ph, i);

	ck_assert_str_eq(p->name, name);
	ck_assert_uint_eq(p->start_ns, start);
	ck_assert_uint_eq(p->c.allocs, allocs);
	ck_assert_uint_eq(p->c.alloc_bytes, bytes);
	ck_assert_uint_eq(p->c.frees, frees);
	ck_assert_uint_eq(p->c.freed_bytes, freed);
}

/*
 * A boot: an allocation before the first level; "early", "core" twice,
 * "arch", then "postcore" (out of order); initcall ends of the levels'
 * thread and of a module in another process; the exec of init, then
 * init's own module.
 */
static struct sa_report *run_boot(void)
{
	struct sa_rec recs[] = {
		km(1 * MS, 0x10, 0xa000, 64),
		level(2 * MS, LEVELS, "early"),
		km(3 * MS, 0x10, 0xb000, 128),
		ev(SA_EV_INITCALL_FINISH, 4 * MS, LEVELS),
		km(5 * MS, 0x10, 0xc000, 32),
		level(6 * MS, LEVELS, "core"),
		fx_free(SA_EV_KFREE, 7 * MS, 0, 0xa000),
		level(8 * MS, LEVELS, "core"),
		level(9 * MS, LEVELS, "arch"),
		level(10 * MS, LEVELS, "postcore"),
		km(11 * MS, 0x10, 0xd000, 256),
		ev(SA_EV_INITCALL_FINISH, 12 * MS, OTHER),
		km(13 * MS, 0x10, 0xe000, 512),
		ev(SA_EV_INITCALL_FINISH, 14 * MS, LEVELS),
		km(15 * MS, 0x10, 0xf000, 1024),
		ev(SA_EV_EXEC, 15 * MS + 1, OTHER),
		ev(SA_EV_INITCALL_FINISH, 16 * MS, LEVELS),
		km(17 * MS, 0x10, 0x10000, 2048),
		ev(SA_EV_EXEC, 18 * MS, LEVELS),
		km(19 * MS, 0x10, 0x11000, 4096),
		ev(SA_EV_INITCALL_FINISH, 20 * MS, LEVELS),
		fx_free(SA_EV_KFREE, 21 * MS, 0, 0xb000),
		km(22 * MS, 0x10, 0, 64),		/* failed */
		/* a large kmalloc traced twice: one allocation */
		km(23 * MS, 0x20, 0x20000, 8192),
		km(23 * MS + 1, 0x30, 0x20000, 8192),
	};

	return mm_run(recs, G_N_ELEMENTS(recs), "timeline", NULL);
}

START_TEST(levels_and_init)
{
	struct sa_report *rep = run_boot();
	const struct sa_phases *ph = phases_of(rep);

	ck_assert_uint_eq(ph->levels, 5);
	ck_assert_uint_eq(ph->repeated, 1);
	ck_assert_uint_eq(ph->out_of_order, 1);
	ck_assert_uint_eq(ph->dropped, 0);
	ck_assert_int_eq(ph->init_from, SA_INIT_FINISH);
	ck_assert_uint_eq(ph->before.allocs, 1);
	ck_assert_uint_eq(ph->before.alloc_bytes, 64);
	ck_assert_uint_eq(ph->phases->len, 6);
	/* what came after early's initcall end, before core, is early's */
	check_phase(ph, 0, "early", 2 * MS, 2, 160, 0, 0);
	check_phase(ph, 1, "core", 6 * MS, 0, 0, 1, 64);
	check_phase(ph, 2, "core", 8 * MS, 0, 0, 0, 0);
	check_phase(ph, 3, "arch", 9 * MS, 0, 0, 0, 0);
	/* the other process's initcall end is not the boot's */
	check_phase(ph, 4, "postcore", 10 * MS, 3, 256 + 512 + 1024, 0, 0);
	/* from the last initcall end before the exec; init's module later */
	check_phase(ph, 5, "init", 16 * MS, 3, 2048 + 4096 + 8192, 1, 128);
	sa_report_free(rep);
}
END_TEST

/* init from the exec when no initcall end is traced; others' execs not */
START_TEST(init_from_exec)
{
	struct sa_rec recs[] = {
		/* console_init() marks "console" first */
		level(US, LEVELS, "console"),
		level(1 * MS, LEVELS, "device"),
		level(2 * MS, LEVELS, "late"),
		km(3 * MS, 0x10, 0xa000, 64),
		ev(SA_EV_EXEC, 4 * MS, OTHER),
		ev(SA_EV_EXEC, 5 * MS, LEVELS),
		km(6 * MS, 0x10, 0xb000, 32),
		ev(SA_EV_EXEC, 7 * MS, LEVELS),
	};
	struct sa_report *rep = mm_run(recs, G_N_ELEMENTS(recs), "timeline",
				       NULL);
	const struct sa_phases *ph = phases_of(rep);

	ck_assert_int_eq(ph->init_from, SA_INIT_EXEC);
	ck_assert_uint_eq(ph->phases->len, 4);
	ck_assert_uint_eq(ph->repeated + ph->out_of_order, 0);
	check_phase(ph, 0, "console", US, 0, 0, 0, 0);
	check_phase(ph, 1, "device", 1 * MS, 0, 0, 0, 0);
	check_phase(ph, 2, "late", 2 * MS, 1, 64, 0, 0);
	check_phase(ph, 3, "init", 5 * MS, 1, 32, 0, 0);
	sa_report_free(rep);
}
END_TEST

/* a trace that ends with no exec: init from the last initcall end */
START_TEST(init_at_the_end)
{
	struct sa_rec recs[] = {
		level(1 * MS, LEVELS, "late"),
		ev(SA_EV_INITCALL_FINISH, 2 * MS, LEVELS),
		km(3 * MS, 0x10, 0xa000, 64),
		ev(SA_EV_INITCALL_FINISH, 4 * MS, LEVELS),
		km(5 * MS, 0x10, 0xb000, 32),
	};
	struct sa_report *rep = mm_run(recs, G_N_ELEMENTS(recs), "timeline",
				       NULL);
	const struct sa_phases *ph = phases_of(rep);

	ck_assert_int_eq(ph->init_from, SA_INIT_FINISH);
	check_phase(ph, 0, "late", 1 * MS, 1, 64, 0, 0);
	check_phase(ph, 1, "init", 4 * MS, 1, 32, 0, 0);
	sa_report_free(rep);
}
END_TEST

/* neither: the last level lasts; no level at all: no phases */
START_TEST(no_init_no_levels)
{
	struct sa_rec recs[] = {
		km(1 * MS, 0x10, 0xa000, 64),
		level(2 * MS, LEVELS, "fs"),
		km(3 * MS, 0x10, 0xb000, 32),
		ev(SA_EV_INITCALL_FINISH, 4 * MS, OTHER),
	};
	struct sa_report *rep = mm_run(recs, G_N_ELEMENTS(recs), "timeline",
				       NULL);
	const struct sa_phases *ph = phases_of(rep);
	char *text, *csv;

	ck_assert_int_eq(ph->init_from, SA_INIT_NONE);
	ck_assert_uint_eq(ph->phases->len, 1);
	check_phase(ph, 0, "fs", 2 * MS, 1, 32, 0, 0);
	text = mm_emit(rep, "timeline", SA_FMT_TEXT);
	ck_assert_msg(strstr(text, "-- boot phases: initcall levels (first "
			     "traced: fs) --"), "%s", text);
	ck_assert_msg(strstr(text, "\nfs                0.002000        1 "),
		      "%s", text);
	g_free(text);
	sa_report_free(rep);

	rep = mm_run(recs, 1, "timeline", NULL);
	ph = phases_of(rep);
	ck_assert_uint_eq(ph->levels, 0);
	ck_assert_uint_eq(ph->phases->len, 0);
	ck_assert_uint_eq(ph->before.allocs, 1);
	text = mm_emit(rep, "timeline", SA_FMT_TEXT);
	csv = mm_emit(rep, "timeline", SA_FMT_CSV);
	ck_assert_ptr_null(strstr(text, "boot phases"));
	ck_assert_ptr_null(strstr(csv, "phase,"));
	g_free(text);
	g_free(csv);
	sa_report_free(rep);
}
END_TEST

#define HOSTILE "</script><img src=x>\x1b[2J,\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

/* a hostile level: cut to SA_PHASE_NAME_MAX, escaped in every format */
START_TEST(hostile_level)
{
	struct sa_rec recs[SA_PHASES_MAX + 10];
	struct sa_report *rep;
	const struct sa_phases *ph;
	struct sa_emit e = { .fmt = SA_FMT_HTML, .width = 80 };
	char *text, *csv, *json, *html = NULL;
	size_t len = 0;
	int i;

	recs[0] = level(1 * MS, LEVELS, HOSTILE);
	for (i = 1; i < (int)G_N_ELEMENTS(recs); i++)
		recs[i] = level((i + 1) * MS, LEVELS, "late");
	rep = mm_run(recs, G_N_ELEMENTS(recs), "timeline", NULL);
	ph = phases_of(rep);
	ck_assert_uint_eq(ph->levels, G_N_ELEMENTS(recs));
	ck_assert_uint_eq(ph->phases->len, SA_PHASES_MAX);
	ck_assert_uint_eq(ph->dropped, G_N_ELEMENTS(recs) - SA_PHASES_MAX);
	ck_assert_uint_eq(strlen(nth(ph, 0)->name), SA_PHASE_NAME_MAX);
	ck_assert(!strncmp(nth(ph, 0)->name, HOSTILE, SA_PHASE_NAME_MAX));

	text = mm_emit(rep, "timeline", SA_FMT_TEXT);
	ck_assert_ptr_null(strchr(text, '\x1b'));
	ck_assert_ptr_nonnull(strstr(text, "past the first 64 not kept"));
	csv = mm_emit(rep, "timeline", SA_FMT_CSV);
	ck_assert_ptr_null(strchr(csv, '\x1b'));
	/* quoted, its quote doubled: one field */
	ck_assert_ptr_nonnull(strstr(csv, "phase,\"</script><img src=x>"));
	json = mm_emit(rep, "timeline", SA_FMT_JSON);
	ck_assert_ptr_nonnull(strstr(json, "\\u001b[2J,\\\"AAA"));

	e.out = open_memstream(&html, &len);
	ck_assert_int_eq(sa_emit_report(&e, rep), 0);
	fclose(e.out);
	/* in the page's model '<' is \u003c: no markup of the trace's */
	ck_assert_ptr_null(strstr(html, "<img src=x>"));
	ck_assert_ptr_nonnull(strstr(html, "\\u003c/script>\\u003cimg src=x>"));
	g_free(text);
	g_free(csv);
	g_free(json);
	free(html);
	sa_report_free(rep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("agg-phases");
	TCase *tc = tcase_create("phases");

	tcase_add_test(tc, levels_and_init);
	tcase_add_test(tc, init_from_exec);
	tcase_add_test(tc, init_at_the_end);
	tcase_add_test(tc, no_init_no_levels);
	tcase_add_test(tc, hostile_level);
	suite_add_tcase(s, tc);
	return s;
}
