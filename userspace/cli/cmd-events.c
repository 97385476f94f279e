// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct events [-e GROUPS]: which of slabacct's events this kernel has.
 */
#include <stdio.h>

#include <tracefs.h>

#include "cli/cmd.h"
#include "trace/events.h"

int cmd_events(int argc, char **argv)
{
	gchar *groups = NULL;
	gboolean missing_only = FALSE;
	const GOptionEntry entries[] = {
		{ "events", 'e', 0, G_OPTION_ARG_STRING, &groups,
		  "groups: kmem (default), page, vmscan, compaction, oom, "
		  "boot, vmalloc, percpu, all",
		  "GROUPS" },
		{ "missing", 0, 0, G_OPTION_ARG_NONE, &missing_only,
		  "list only the events this kernel lacks", NULL },
		{ NULL },
	};
	const struct sa_event_desc *e;
	unsigned int mask;
	char *bad = NULL;
	int present = 0, missing = 0;

	if (sa_parse_options(&argc, &argv, "events", NULL,
			     "List the trace events of GROUPS and whether the "
			     "running kernel has them.", NULL, entries))
		return SA_EXIT_USAGE;
	if (argc > 1) {
		sa_err("events", "unexpected argument '%s'", argv[1]);
		return SA_EXIT_USAGE;
	}
	if (sa_groups_parse(groups ? groups : "kmem", &mask, &bad)) {
		sa_err("events", "unknown event group '%s' (kmem, page, vmscan, "
		       "compaction, oom, boot, vmalloc, percpu, all)",
		       bad);
		g_free(bad);
		g_free(groups);
		return SA_EXIT_USAGE;
	}
	g_free(groups);
	if (sa_require_tracefs("events"))
		return SA_EXIT_USAGE;
	sa_stale_instances("events", false);

	for (e = sa_event_table(); e->name; e++) {
		bool have;

		if (!(e->group & mask))
			continue;
		have = tracefs_event_file_exists(NULL, e->system, e->name,
						 "format");
		have ? present++ : missing++;
		if (missing_only && have)
			continue;
		if (!have && e->alt &&
		    tracefs_event_file_exists(NULL, e->system, e->alt,
					      "format"))
			printf("%-8s %-11s %-30s (normal: %s covers it)\n",
			       "missing", e->system, e->name, e->alt);
		else
			printf("%-8s %-11s %s\n", have ? "present" : "missing",
			       e->system, e->name);
	}
	printf("# %d present, %d missing\n", present, missing);
	return SA_EXIT_OK;
}
