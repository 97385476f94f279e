// SPDX-License-Identifier: GPL-2.0
/*
 * How the call-site rows are grouped (report/report.h, enum sa_group_by):
 * one table, which --by parses, JSON names and the aggregator asks.
 */
#include <string.h>

#include "report/report.h"
#include "report/tasks.h"

/*
 * --by: every way of grouping the rows, a row each. task: the rows are
 * tasks or cgroups (report/tasks.h), of that key.
 */
static const struct {
	const char *name;		/* --by's argument */
	enum sa_group_by by;
	bool task;
	enum sa_task_key key;
} by_table[] = {
	{ "caller", SA_BY_CALLSITE, false, 0 },
	{ "callsite", SA_BY_CALLSITE, false, 0 },
	{ "wrapper", SA_BY_WRAPPER, false, 0 },
	{ "stack", SA_BY_STACK, false, 0 },
	{ "cache", SA_BY_CACHE, false, 0 },
	{ "comm", SA_BY_COMM, true, SA_TASK_COMM },
	{ "pid", SA_BY_PID, true, SA_TASK_PID },
	{ "cgroup", SA_BY_CGROUP, true, SA_TASK_CGROUP },
};

static int by_row(enum sa_group_by by)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(by_table); i++)
		if (by_table[i].by == by)
			return i;
	return 0;
}

const char *sa_group_by_name(enum sa_group_by by)
{
	int i = by_row(by);

	/* the default's name in JSON is "callsite" */
	return by == SA_BY_CALLSITE ? "callsite" : by_table[i].name;
}

int sa_group_by_parse(const char *name, enum sa_group_by *by)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(by_table); i++)
		if (!strcmp(by_table[i].name, name)) {
			*by = by_table[i].by;
			return 0;
		}
	return -1;
}

const char *sa_group_by_names(void)
{
	static char *names;
	GString *s;
	guint i;

	if (names)
		return names;
	s = g_string_new(NULL);
	for (i = 0; i < G_N_ELEMENTS(by_table); i++)
		if (strcmp(by_table[i].name, "callsite"))
			g_string_append_printf(s, "%s%s", s->len ? ", " : "",
					       by_table[i].name);
	names = g_string_free(s, FALSE);
	return names;
}

bool sa_group_by_task(enum sa_group_by by)
{
	return by_table[by_row(by)].task;
}

enum sa_task_key sa_group_by_task_key(enum sa_group_by by)
{
	return by_table[by_row(by)].key;
}
