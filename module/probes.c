// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the kmem probes. Each one hands its event to the tables,
 * whose path is inlined here (account.h). notrace: the function tracer
 * would add a call to every event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "account.h"
#include "wrap.h"

bool sa_cache_layout_ok;

static notrace void sa_probe_kmalloc(SA_KMALLOC_PROTO)
{
	sa_testing_probe();
	sa_account_alloc(SA_KMALLOC, call_site, ptr, bytes_req, bytes_alloc);
}

static notrace void sa_probe_cache_alloc(SA_CACHE_ALLOC_PROTO)
{
	sa_account_alloc(SA_CACHE, call_site, ptr, SA_CACHE_REQ,
			 SA_CACHE_SLOT);
}

static notrace void sa_probe_kfree(void *data, unsigned long call_site,
			   const void *ptr)
{
	sa_account_free(ptr);
}

static notrace void sa_probe_cache_free(SA_CACHE_FREE_PROTO)
{
	sa_account_free(ptr);
}

static notrace void sa_probe_page_alloc(void *data, struct page *page,
				unsigned int order, gfp_t gfp_flags,
				int migratetype)
{
	if (page)
		sa_account_page(order, true);
}

static notrace void sa_probe_page_free(void *data, struct page *page,
			       unsigned int order)
{
	sa_account_page(order, false);
}

/* register_trace_<event>() wrappers for the exported tracepoints */
#define SA_EXPORTED(event, probe)					\
static int sa_reg_##event(void)						\
{									\
	return register_trace_##event(probe, NULL);			\
}									\
static void sa_unreg_##event(void)					\
{									\
	unregister_trace_##event(probe, NULL);				\
}

SA_EXPORTED(kmalloc, sa_probe_kmalloc)
SA_EXPORTED(kmem_cache_alloc, sa_probe_cache_alloc)
SA_EXPORTED(kfree, sa_probe_kfree)
SA_EXPORTED(kmem_cache_free, sa_probe_cache_free)

#define SA_TP_EXPORTED(event, fn) \
	{ .name = #event, .probe = fn, .reg = sa_reg_##event, \
	  .unreg = sa_unreg_##event }

#if SA_HAVE_NODE_EVENTS
static notrace void sa_probe_kmalloc_node(SA_KMALLOC_NODE_PROTO)
{
	sa_account_alloc(SA_KMALLOC, call_site, ptr, bytes_req, bytes_alloc);
}

static notrace void sa_probe_cache_alloc_node(SA_CACHE_ALLOC_NODE_PROTO)
{
	sa_account_alloc(SA_CACHE, call_site, ptr, SA_CACHE_REQ,
			 SA_CACHE_SLOT);
}

SA_EXPORTED(kmalloc_node, sa_probe_kmalloc_node)
SA_EXPORTED(kmem_cache_alloc_node, sa_probe_cache_alloc_node)
#endif

/* Frees first, so that no allocation is seen without its free. */
static struct sa_tp sa_kmem_tps[] = {
	SA_TP_EXPORTED(kfree, sa_probe_kfree),
	SA_TP_EXPORTED(kmem_cache_free, sa_probe_cache_free),
	SA_TP_EXPORTED(kmalloc, sa_probe_kmalloc),
	SA_TP_EXPORTED(kmem_cache_alloc, sa_probe_cache_alloc),
#if SA_HAVE_NODE_EVENTS
	SA_TP_EXPORTED(kmalloc_node, sa_probe_kmalloc_node),
	SA_TP_EXPORTED(kmem_cache_alloc_node, sa_probe_cache_alloc_node),
#endif
};

static struct sa_tp sa_page_tps[] = {
	{ .name = "mm_page_free", .probe = sa_probe_page_free,
	  .optional = true },
	{ .name = "mm_page_alloc", .probe = sa_probe_page_alloc,
	  .optional = true },
};

static bool sa_page_on;

int sa_probes_init(bool page_events)
{
	int ret;

	/* the looked-up probes are type-checked against this kernel here */
	check_trace_callback_type_mm_page_alloc(sa_probe_page_alloc);
	check_trace_callback_type_mm_page_free(sa_probe_page_free);

	ret = sa_wrap_init();
	if (ret)
		return ret;
	ret = sa_tp_register(sa_kmem_tps, ARRAY_SIZE(sa_kmem_tps));
	if (ret) {
		sa_wrap_exit();
		return ret;
	}
	if (page_events) {
		ret = sa_tp_register(sa_page_tps, ARRAY_SIZE(sa_page_tps));
		if (ret) {
			sa_tp_unregister(sa_kmem_tps, ARRAY_SIZE(sa_kmem_tps));
			sa_wrap_exit();
			return ret;
		}
		sa_page_on = true;
	}
	return 0;
}

void sa_probes_exit(void)
{
	if (sa_page_on)
		sa_tp_unregister(sa_page_tps, ARRAY_SIZE(sa_page_tps));
	sa_page_on = false;
	sa_tp_unregister(sa_kmem_tps, ARRAY_SIZE(sa_kmem_tps));
	sa_wrap_exit();
}

/* A constructor keeps the probe cache from being merged with another. */
static void sa_layout_ctor(void *obj)
{
}

#define SA_LAYOUT_SIZE	232

/*
 * Check compat.h's view of struct kmem_cache on a cache of known object
 * size; if it is wrong, report slot sizes as object sizes.
 */
int sa_cache_layout_check(void)
{
	struct kmem_cache *s;
	const struct sa_kmem_cache_head *h;

	s = kmem_cache_create("slab_account_probe", SA_LAYOUT_SIZE, 0, 0,
			      sa_layout_ctor);
	if (!s)
		return -ENOMEM;
	h = (const void *)s;
	sa_cache_layout_ok = h->object_size == SA_LAYOUT_SIZE &&
			     kmem_cache_size(s) == SA_LAYOUT_SIZE &&
			     h->size >= SA_LAYOUT_SIZE &&
			     h->size < 4 * SA_LAYOUT_SIZE;
	if (!sa_cache_layout_ok)
		pr_warn("unexpected struct kmem_cache layout: kmem_cache slot sizes are reported as object sizes\n");
	kmem_cache_destroy(s);
	return 0;
}
