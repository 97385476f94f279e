/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: every kernel-version difference lives here, so that the
 * logic files never test a version.
 *
 * Built and tested against Debian's 6.1 and 6.12-cloud kernels. The
 * pre-6.1 branches follow the upstream tracepoint prototypes of those
 * kernels but are not build-tested.
 */
#ifndef SLAB_ACCOUNT_COMPAT_H
#define SLAB_ACCOUNT_COMPAT_H

#include <linux/version.h>
#include <linux/mmzone.h>
#include <linux/preempt.h>
#include <linux/slab.h>

/*
 * The only version test; checkpatch's LINUX_VERSION_CODE warning is
 * expected here and nowhere else (scripts/checkpatch).
 */
#define SA_KERNEL_BEFORE(a, b, c) (LINUX_VERSION_CODE < KERNEL_VERSION(a, b, c))

/*
 * kmem tracepoint prototypes. Before 6.1, kmalloc and kmem_cache_alloc
 * carried the sizes and had _node twins; since 6.1, kmalloc has a node
 * argument and kmem_cache_alloc passes the cache instead of the sizes.
 */
#if SA_KERNEL_BEFORE(6, 1, 0)
#define SA_HAVE_NODE_EVENTS	1
#define SA_KMALLOC_PROTO	void *data, unsigned long call_site,	\
				const void *ptr, size_t bytes_req,	\
				size_t bytes_alloc, gfp_t gfp_flags
#define SA_KMALLOC_NODE_PROTO	SA_KMALLOC_PROTO, int node
#define SA_CACHE_ALLOC_PROTO	SA_KMALLOC_PROTO
#define SA_CACHE_ALLOC_NODE_PROTO SA_KMALLOC_NODE_PROTO
/* the sizes of a kmem_cache_alloc, from the probe's arguments */
#define SA_CACHE_REQ		(bytes_req)
#define SA_CACHE_SLOT		(bytes_alloc)
#else
#define SA_HAVE_NODE_EVENTS	0
#define SA_KMALLOC_PROTO	void *data, unsigned long call_site,	\
				const void *ptr, size_t bytes_req,	\
				size_t bytes_alloc, gfp_t gfp_flags, int node
#define SA_CACHE_ALLOC_PROTO	void *data, unsigned long call_site,	\
				const void *ptr, struct kmem_cache *s,	\
				gfp_t gfp_flags, int node
#define SA_CACHE_REQ		sa_cache_object_size(s)
#define SA_CACHE_SLOT		sa_cache_slot_size(s)
#endif

/*
 * kmem_cache_free: (call_site, ptr) until 5.11, then a cache name until
 * 6.0, then the cache.
 */
#if SA_KERNEL_BEFORE(5, 12, 0)
#define SA_CACHE_FREE_PROTO	void *data, unsigned long call_site,	\
				const void *ptr
#elif SA_KERNEL_BEFORE(6, 1, 0)
#define SA_CACHE_FREE_PROTO	void *data, unsigned long call_site,	\
				const void *ptr, const char *name
#else
#define SA_CACHE_FREE_PROTO	void *data, unsigned long call_site,	\
				const void *ptr, const struct kmem_cache *s
#endif

/*
 * The interrupt context level, 0 (task) to SA_CONTEXTS - 1: task,
 * softirq, hardirq, NMI. A context only ever interrupts a lower one.
 */
#define SA_CONTEXTS		4
#if SA_KERNEL_BEFORE(6, 1, 0)
static __always_inline unsigned int sa_context_level(void)
{
	unsigned long pc = preempt_count();

	return !!(pc & NMI_MASK) + !!(pc & (NMI_MASK | HARDIRQ_MASK)) +
	       !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}
#else
#define sa_context_level()	interrupt_context_level()
#endif

/* Number of page orders the buddy allocator hands out. */
#ifdef NR_PAGE_ORDERS
#define SA_NR_ORDERS		NR_PAGE_ORDERS
#else
#define SA_NR_ORDERS		MAX_ORDER
#endif

/*
 * The slot size of a kmem_cache (what the kmem_cache_alloc tracepoint
 * records as bytes_alloc) is s->size, but struct kmem_cache is private to
 * mm/ (<linux/slub_def.h> up to 6.7 is not usable outside mm/, mm/slab.h
 * from 6.8). SLUB's first fields have kept this layout from 4.x to 6.12;
 * sa_cache_layout_check() verifies it at load time on a cache of known
 * geometry, and slot sizes fall back to the object size (kmem_cache_size(),
 * exported) if it does not hold.
 */
struct sa_kmem_cache_head {
#ifndef CONFIG_SLUB_TINY
	void __percpu *cpu_slab;
#endif
	slab_flags_t flags;
	unsigned long min_partial;
	unsigned int size;		/* object size including metadata */
	unsigned int object_size;	/* object size without metadata */
};

extern bool sa_cache_layout_ok;

static inline size_t sa_cache_object_size(const struct kmem_cache *s)
{
	const struct sa_kmem_cache_head *h = (const void *)s;

	if (likely(sa_cache_layout_ok))
		return READ_ONCE(h->object_size);
	return kmem_cache_size((struct kmem_cache *)s);
}

static inline size_t sa_cache_slot_size(const struct kmem_cache *s)
{
	const struct sa_kmem_cache_head *h = (const void *)s;

	if (likely(sa_cache_layout_ok))
		return READ_ONCE(h->size);
	return kmem_cache_size((struct kmem_cache *)s);
}

#endif /* SLAB_ACCOUNT_COMPAT_H */
