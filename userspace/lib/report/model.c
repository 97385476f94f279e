// SPDX-License-Identifier: GPL-2.0
/*
 * The report's model, as the aggregators see it: a new report, its notes
 * and its failure, and another aggregator's state. What runs them is in
 * report/report.c.
 */
#include <stdarg.h>
#include <string.h>

#include "util/notes.h"
#include "report/report.h"
#include "report/pipeline.h"

void sa_report_note(struct sa_report *rep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sa_notes_addv(rep->notes, fmt, ap);
	va_end(ap);
}

void sa_report_fail(struct sa_report *rep, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (rep->error)
		return;
	va_start(ap, fmt);
	s = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(&rep->error, SA_REPORT_ERROR, SA_REPORT_ERROR_FORMAT,
		    "%s: %s", rep->file, s);
	g_free(s);
}

bool sa_report_no_kmem(const struct sa_report *rep)
{
	return !rep->ev_count[SA_EV_KMALLOC] &&
	       !rep->ev_count[SA_EV_CACHE_ALLOC] &&
	       !rep->ev_count[SA_EV_KFREE] &&
	       !rep->ev_count[SA_EV_CACHE_FREE];
}

void sa_report_record_kinds(const struct sa_report *rep,
			    struct sa_record_kinds *k)
{
	int e;

	memset(k, 0, sizeof(*k));
	for (e = 0; e < SA_EV_NR; e++) {
		guint64 n = rep->ev_count[e];

		if (e == SA_EV_STACK)
			continue;	/* counted with their events */
		if (e >= SA_EV_KMALLOC && e <= SA_EV_PAGE_EXTFRAG)
			k->kmem += n;
		else if (e == SA_EV_VMAP_ALLOC || e == SA_EV_VMAP_FREE)
			k->vmalloc += n;
		else if (e >= SA_EV_PCPU_ALLOC && e <= SA_EV_PCPU_FAIL)
			k->percpu += n;
		else
			k->other += n;
	}
}

const char *sa_report_area_records(const struct sa_report *rep)
{
	struct sa_record_kinds k;

	sa_report_record_kinds(rep, &k);
	return k.vmalloc && k.percpu ? "vmalloc and percpu" :
	       k.vmalloc ? "vmalloc" : k.percpu ? "percpu" : NULL;
}

void *sa_pipeline_state(struct sa_pipeline *p, enum sa_section_id id)
{
	return p->state[id];
}

struct sa_report *sa_report_new(const char *path, guint32 sections,
				const struct sa_report_opts *opts)
{
	struct sa_report *rep = g_new0(struct sa_report, 1);

	rep->file = g_strdup(path);
	rep->notes = g_ptr_array_new_with_free_func(g_free);
	rep->sections = sections;
	rep->opts = opts;
	return rep;
}
