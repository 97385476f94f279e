// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: a --vmlinux's identity against a trace's origin
 * (report/vmlinux.c): build IDs decide when both are known, else the
 * release and the version (uname -r, uname -v); nothing to compare is
 * "unknown", never "same"; the trace's version is taken from its UNAME.
 */
#include <check.h>
#include <string.h>

#include "report/vmlinux.h"

Suite *suite(void);

#define REL61	"6.1.0-56-amd64"
#define VER61	"#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-11-16)"
#define REL612	"6.12.117+deb12-cloud-amd64"
#define VER612	"#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14)"

static struct sa_kernel_id id(const char *build_id, const char *release,
			      const char *version)
{
	struct sa_kernel_id k = {
		.build_id = (char *)build_id,
		.release = (char *)release,
		.version = (char *)version,
	};

	return k;
}

static struct sa_trace_origin origin(const char *build_id,
				     const char *release, const char *version)
{
	struct sa_trace_origin o;

	memset(&o, 0, sizeof(o));
	o.kernel_build_id = (char *)build_id;
	o.kernel_release = (char *)release;
	o.kernel_version = (char *)version;
	return o;
}

static enum sa_vmlinux_match cmp(struct sa_kernel_id k,
				 struct sa_trace_origin o, const char *part)
{
	char *why = NULL;
	enum sa_vmlinux_match m = sa_vmlinux_compare(&k, &o, &why);

	ck_assert_ptr_nonnull(why);
	if (part)
		ck_assert_msg(strstr(why, part), "'%s' not in '%s'", part, why);
	g_free(why);
	return m;
}

START_TEST(by_release_and_version)
{
	ck_assert_int_eq(cmp(id(NULL, REL61, VER61),
			     origin(NULL, REL61, VER61), NULL),
			 SA_VMLINUX_SAME);
	/* the case: a 6.12 vmlinux on a 6.1 trace */
	ck_assert_int_eq(cmp(id(NULL, REL612, VER612),
			     origin(NULL, REL61, VER61),
			     "recorded on " REL61 " " VER61 ", the vmlinux is "
			     REL612), SA_VMLINUX_OTHER);
	/* same release, another build of it */
	ck_assert_int_eq(cmp(id(NULL, REL61, "#1 SMP Debian 6.1.191-1"),
			     origin(NULL, REL61, VER61), NULL),
			 SA_VMLINUX_OTHER);
	/* a trace with a release only (no UNAME): the release decides */
	ck_assert_int_eq(cmp(id(NULL, REL61, VER61),
			     origin(NULL, REL61, NULL), NULL),
			 SA_VMLINUX_SAME);
	ck_assert_int_eq(cmp(id(NULL, REL612, VER612),
			     origin(NULL, REL61, NULL), NULL),
			 SA_VMLINUX_OTHER);
}
END_TEST

START_TEST(by_build_id)
{
	/* the build ID decides, whatever the banners say */
	ck_assert_int_eq(cmp(id("abcd", REL612, VER612),
			     origin("ABCD", REL61, VER61), NULL),
			 SA_VMLINUX_SAME);
	ck_assert_int_eq(cmp(id("abcd", REL61, VER61),
			     origin("abce", REL61, VER61),
			     "(build ID abce), the vmlinux is " REL61
			     " (build ID abcd)"), SA_VMLINUX_OTHER);
	/* only one side has one: the banner */
	ck_assert_int_eq(cmp(id("abcd", REL61, VER61),
			     origin(NULL, REL61, VER61), NULL),
			 SA_VMLINUX_SAME);
	ck_assert_int_eq(cmp(id(NULL, REL612, VER612),
			     origin("abcd", REL61, VER61), NULL),
			 SA_VMLINUX_OTHER);
}
END_TEST

START_TEST(unknown)
{
	ck_assert_int_eq(cmp(id(NULL, NULL, NULL), origin("ab", REL61, VER61),
			     "no build ID and no Linux banner"),
			 SA_VMLINUX_UNKNOWN);
	ck_assert_int_eq(cmp(id("ab", REL61, VER61), origin(NULL, NULL, NULL),
			     "does not say which kernel"), SA_VMLINUX_UNKNOWN);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("vmlinux");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, by_release_and_version);
	tcase_add_test(tc, by_build_id);
	tcase_add_test(tc, unknown);
	suite_add_tcase(s, tc);
	return s;
}
