// SPDX-License-Identifier: GPL-2.0
/*
 * The event-dispatch table: which tracepoints the reports read, the event
 * id each maps to, and the fields decoded into struct sa_rec. Fields are
 * looked up by name once per event (report-read.c); none is assumed to
 * exist on a given kernel.
 */
#include "report.h"

#define KM_ALLOC_FIELDS {					\
	[SA_KM_CALL_SITE] = { "call_site", 0 },			\
	[SA_KM_PTR] = { "ptr", 0 },				\
	[SA_KM_REQ] = { "bytes_req", 0 },			\
	[SA_KM_ALLOC] = { "bytes_alloc", 0 },			\
	[SA_KM_GFP] = { "gfp_flags", 0 },			\
	[SA_KM_NAME] = { "name", SA_FLD_OPTIONAL | SA_FLD_STRING }, \
}
#define KM_FREE_FIELDS {					\
	[SA_KM_CALL_SITE] = { "call_site", 0 },			\
	[SA_KM_PTR] = { "ptr", 0 },				\
	[SA_KM_NAME] = { "name", SA_FLD_OPTIONAL | SA_FLD_STRING }, \
}

const struct sa_event_row sa_dispatch_table[] = {
	{ "kmem", "kmalloc", SA_EV_KMALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmalloc_node", SA_EV_KMALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_alloc", SA_EV_CACHE_ALLOC, KM_ALLOC_FIELDS },
	{ "kmem", "kmem_cache_alloc_node", SA_EV_CACHE_ALLOC,
	  KM_ALLOC_FIELDS },
	{ "kmem", "kfree", SA_EV_KFREE, KM_FREE_FIELDS },
	{ "kmem", "kmem_cache_free", SA_EV_CACHE_FREE, KM_FREE_FIELDS },
	{ NULL },
};

const char *sa_ev_name(enum sa_ev ev)
{
	static const char *const names[SA_EV_NR] = {
		[SA_EV_KMALLOC] = "kmalloc",
		[SA_EV_CACHE_ALLOC] = "kmem_cache_alloc",
		[SA_EV_KFREE] = "kfree",
		[SA_EV_CACHE_FREE] = "kmem_cache_free",
	};

	return ev < SA_EV_NR && names[ev] ? names[ev] : "?";
}
