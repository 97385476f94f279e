// SPDX-License-Identifier: GPL-2.0
/*
 * --vmlinux checked against the trace: file:line comes from the vmlinux's
 * DWARF at the call site's offset in its function, so a vmlinux of
 * another build gives wrong lines without any error. The trace says which
 * kernel it was recorded on (the GNU build ID slabacct stores in its
 * origin section; the UNAME option, which trace-cmd writes too: release
 * and version, as uname -r and -v print them); the vmlinux says which it
 * is (symbols/vmlinux.c: its build ID and Linux banner). The build IDs
 * decide when both are known; else the release and the version.
 */
#include <string.h>

#include "report/vmlinux.h"

/* "6.1.0-56-amd64 #1 SMP ... (build ID 48dc...)" */
static char *describe(const char *release, const char *version,
		      const char *build_id)
{
	return g_strdup_printf("%s%s%s%s%s%s", release ? release : "?",
			       version ? " " : "", version ? version : "",
			       build_id ? " (build ID " : "",
			       build_id ? build_id : "", build_id ? ")" : "");
}

enum sa_vmlinux_match sa_vmlinux_compare(const struct sa_kernel_id *id,
					 const struct sa_trace_origin *o,
					 char **why)
{
	bool by_id = id->build_id && o->kernel_build_id;
	const char *trace_id = by_id ? o->kernel_build_id : NULL;
	const char *vm_id = by_id ? id->build_id : NULL;
	enum sa_vmlinux_match m;

	if (by_id)
		m = g_ascii_strcasecmp(id->build_id, o->kernel_build_id) ?
			SA_VMLINUX_OTHER : SA_VMLINUX_SAME;
	else if (!id->release)
		m = SA_VMLINUX_UNKNOWN;
	else if (!o->kernel_release)
		m = SA_VMLINUX_UNKNOWN;
	else if (strcmp(id->release, o->kernel_release))
		m = SA_VMLINUX_OTHER;
	else if (id->version && o->kernel_version &&
		 strcmp(id->version, o->kernel_version))
		m = SA_VMLINUX_OTHER;
	else
		m = SA_VMLINUX_SAME;
	if (!why)
		return m;
	if (m == SA_VMLINUX_UNKNOWN && !id->release)
		*why = g_strdup("the vmlinux has no build ID and no Linux "
				"banner");
	else if (m == SA_VMLINUX_UNKNOWN)
		*why = g_strdup("the trace does not say which kernel it was "
				"recorded on");
	else {
		char *t = describe(o->kernel_release, by_id ? NULL :
				   o->kernel_version, trace_id);
		char *v = describe(id->release, by_id ? NULL : id->version,
				   vm_id);

		*why = g_strdup_printf("the trace was recorded on %s, the "
				       "vmlinux is %s", t, v);
		g_free(t);
		g_free(v);
	}
	return m;
}

int sa_report_vmlinux_check(struct sa_report *rep, const char *vmlinux,
			    bool force, GError **err)
{
	struct sa_kernel_id id;
	enum sa_vmlinux_match m;
	char *why = NULL;

	if (sa_vmlinux_id(vmlinux, &id, err))
		return -1;
	m = sa_vmlinux_compare(&id, &rep->origin, &why);
	sa_kernel_id_clear(&id);
	if (m == SA_VMLINUX_OTHER && !force) {
		g_set_error(err, SA_REPORT_ERROR, SA_REPORT_ERROR_VMLINUX,
			    "--vmlinux %s is not the traced kernel's: %s; its "
			    "file:line would be wrong. Give the vmlinux of "
			    "the traced build, or --force-vmlinux to use this "
			    "one anyway", vmlinux, why);
		g_free(why);
		return -1;
	}
	if (m == SA_VMLINUX_OTHER)
		sa_report_note(rep, "--vmlinux is not the traced kernel's "
			       "(%s), used anyway (--force-vmlinux): file:line "
			       "may be wrong", why);
	else if (m == SA_VMLINUX_UNKNOWN)
		sa_report_note(rep, "--vmlinux could not be checked against "
			       "the trace (%s): file:line is right only if it "
			       "is the traced build", why);
	g_free(why);
	return 0;
}
