// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the kallsyms table libtraceevent resolves addresses through
 * (trace/kallsyms.c): lookups, aliases, modules, what is left out, and
 * the same answers as libtraceevent's own parse for addresses inside
 * functions.
 */
#include <check.h>
#include <dlfcn.h>

#include <event-parse.h>

#include "trace/kallsyms.h"

Suite *suite(void);

/* out of address order (early), aliases, skipped 'A' and '$' symbols */
static const char ksyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T alpha\n"
	"ffffffff81000100 T alpha_alias\n"
	"ffffffff81000200 t beta\n"
	"0000000000001000 A fixed_percpu_data\n"
	"ffffffff81000300 t $x\n"
	"ffffffffa0000000 t gamma\t[mymod]\n"
	"ffffffffa0000100 T delta\t[mymod]\n"
	"ffffffff81000050 T early\n";

static struct tep_handle *load(void)
{
	struct tep_handle *tep = tep_alloc();

	ck_assert_ptr_nonnull(tep);
	ck_assert_int_eq(tep_parse_kallsyms(tep, ksyms), 0);
	return tep;
}

static void unload(struct tep_handle *tep)
{
	sa_kallsyms_forget(tep);
	tep_free(tep);
}

START_TEST(lookups)
{
	struct tep_handle *tep = load();

	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000010ULL),
			 "_text");
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000060ULL),
			 "early");
	/* aliases: the first in the file, exactly on it or inside */
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000100ULL),
			 "alpha");
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000150ULL),
			 "alpha");
	ck_assert_uint_eq(tep_find_function_address(tep, 0xffffffff81000150ULL),
			  0xffffffff81000100ULL);
	/* $x is left out: beta runs on */
	ck_assert_str_eq(tep_find_function(tep, 0xffffffff81000310ULL),
			 "beta");
	/* an absolute symbol is left out: nothing below _text */
	ck_assert_ptr_null(tep_find_function(tep, 0x1000));
	/* the last symbol: exactly on it only, its end is unknown */
	ck_assert_str_eq(tep_find_function(tep, 0xffffffffa0000100ULL),
			 "delta");
	ck_assert_ptr_null(tep_find_function(tep, 0xffffffffa0000101ULL));
	/* modules, by the function's start */
	ck_assert_str_eq(tep_find_function(tep, 0xffffffffa0000020ULL),
			 "gamma");
	ck_assert_str_eq(sa_kallsyms_module(tep, 0xffffffffa0000000ULL),
			 "mymod");
	ck_assert_ptr_null(sa_kallsyms_module(tep, 0xffffffff81000200ULL));
	ck_assert_ptr_null(sa_kallsyms_module(tep, 0xffffffffa0000020ULL));
	unload(tep);
}
END_TEST

/* Skipped handles resolve nothing. */
START_TEST(skip)
{
	struct tep_handle *tep;

	sa_kallsyms_skip(true);
	tep = load();
	sa_kallsyms_skip(false);
	ck_assert_ptr_null(tep_find_function(tep, 0xffffffff81000150ULL));
	unload(tep);
}
END_TEST

/*
 * Inside functions (not exactly on an alias's address, where the library
 * picks any of them), the answers are libtraceevent's own.
 */
START_TEST(same_as_libtraceevent)
{
	int (*real)(struct tep_handle *, const char *);
	struct tep_handle *ours = load(), *lib = tep_alloc();
	static const unsigned long long at[] = {
		0xffffffff81000001ULL, 0xffffffff81000050ULL,
		0xffffffff81000051ULL, 0xffffffff810000ffULL,
		0xffffffff81000101ULL, 0xffffffff81000200ULL,
		0xffffffff81000301ULL, 0xffffffff9fffffffULL,
		0xffffffffa0000001ULL, 0xffffffffa0000100ULL,
		0xffffffffa0000101ULL, 0x1000, 0x1001, 0,
	};
	unsigned int i;

	*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	ck_assert_ptr_nonnull(real);
	ck_assert_int_eq(real(lib, ksyms), 0);
	for (i = 0; i < G_N_ELEMENTS(at); i++) {
		ck_assert_pstr_eq(tep_find_function(ours, at[i]),
				  tep_find_function(lib, at[i]));
		ck_assert_uint_eq(tep_find_function_address(ours, at[i]),
				  tep_find_function_address(lib, at[i]));
	}
	unload(ours);
	tep_free(lib);
}
END_TEST

/*
 * The names are packed down over the text they were parsed from: the
 * shortest lines ("0 t a"), a module's name kept once while its symbols
 * run on, and again when another module came between; an empty text.
 */
START_TEST(packed)
{
	static const char text[] =
		"1 t a\n"
		"2 t bb\t[m1]\n"
		"3 t c\t[m1]\n"
		"4 t d\t[m2]\n"
		"5 t e\t[m1]\n"
		"6 T f\n";
	static const char *const name[] = { "a", "bb", "c", "d", "e", "f" };
	static const char *const mod[] = { NULL, "m1", "m1", "m2", "m1", NULL };
	struct tep_handle *tep = tep_alloc();
	unsigned long long a;

	ck_assert_int_eq(tep_parse_kallsyms(tep, text), 0);
	for (a = 1; a <= 6; a++) {
		ck_assert_str_eq(tep_find_function(tep, a), name[a - 1]);
		ck_assert_pstr_eq(sa_kallsyms_module(tep, a), mod[a - 1]);
	}
	unload(tep);

	tep = tep_alloc();
	ck_assert_int_eq(tep_parse_kallsyms(tep, ""), 0);
	ck_assert_ptr_null(tep_find_function(tep, 1));
	unload(tep);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("kallsyms");

	tcase_add_test(tc, lookups);
	tcase_add_test(tc, skip);
	tcase_add_test(tc, same_as_libtraceevent);
	tcase_add_test(tc, packed);
	suite_add_tcase(s, tc);
	return s;
}
