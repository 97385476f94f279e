// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/pressure/memory.
 */
#include <string.h>

#include "procfs/psi.h"
#include "procfs/parse.h"

static bool parse_double(const char *s, double *v)
{
	char *end;

	*v = g_ascii_strtod(s, &end);
	return end != s && !*end;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" */
static bool parse_line(char **f, int n, struct sa_psi_line *l)
{
	int i, seen = 0;

	for (i = 1; i < n; i++) {
		char *eq = strchr(f[i], '=');

		if (!eq)
			return false;
		*eq++ = '\0';
		if (!strcmp(f[i], "avg10") && parse_double(eq, &l->avg10))
			seen |= 1;
		else if (!strcmp(f[i], "avg60") && parse_double(eq, &l->avg60))
			seen |= 2;
		else if (!strcmp(f[i], "avg300") &&
			 parse_double(eq, &l->avg300))
			seen |= 4;
		else if (!strcmp(f[i], "total") && sa_parse_u64(eq, &l->total_us))
			seen |= 8;
		else
			return false;
	}
	l->present = seen == 15;
	return l->present;
}

/* One line: a "some" or "full" line fills its half; others are skipped. */
static gboolean psi_line(void *data, const struct sa_line *l, char **f,
			 int n, GError **err)
{
	struct sa_psi *p = data;

	if (n && !strcmp(f[0], "some"))
		parse_line(f, n, &p->some);
	else if (n && !strcmp(f[0], "full"))
		parse_line(f, n, &p->full);
	return TRUE;
}

int sa_psi_parse(const char *text, struct sa_psi *p, GError **err)
{
	memset(p, 0, sizeof(*p));
	sa_procfile_fields(text, psi_line, p, NULL);
	if (!p->some.present) {
		memset(p, 0, sizeof(*p));
		sa_parse_error(err, "pressure/memory: no well-formed 'some' "
			       "line");
		return -1;
	}
	return 0;
}
