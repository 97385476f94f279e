// SPDX-License-Identifier: GPL-2.0
/* A report of counts the kernel kept (report/counted.h). */
#include "report/counted.h"
#include "report/pipeline.h"

struct sa_report *sa_counted_report_new(const char *path,
					const struct sa_report_opts *opts,
					struct sa_callsite_result **res)
{
	struct sa_report *rep = sa_report_new(path, 1u << SA_SEC_CALLSITE,
					      opts);

	*res = g_new0(struct sa_callsite_result, 1);
	(*res)->sites = g_ptr_array_new_with_free_func((GDestroyNotify)
						       sa_site_free);
	return rep;
}

void sa_counted_report_end(struct sa_report *rep,
			   struct sa_callsite_result *res)
{
	guint i;

	sa_callsite_totals(res);
	res->shown = g_ptr_array_new();
	for (i = 0; i < res->sites->len; i++)
		g_ptr_array_add(res->shown, res->sites->pdata[i]);
	rep->result[SA_SEC_CALLSITE] = res;
}
