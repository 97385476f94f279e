// SPDX-License-Identifier: GPL-2.0
/*
 * Human units (util/units.h).
 */
#include <stdio.h>

#include "util/units.h"

char *sa_human(char buf[16], guint64 v)
{
	static const char units[] = "KMGTPE";
	double d = v;
	int u = -1;

	if (v < 100000) {
		snprintf(buf, 16, "%" G_GUINT64_FORMAT, v);
		return buf;
	}
	while (d >= 1000.0 && u < 5) {
		d /= 1024.0;
		u++;
	}
	snprintf(buf, 16, d < 10.0 ? "%.2f%c" : d < 100.0 ? "%.1f%c" :
		 "%.0f%c", d, units[u]);
	return buf;
}
