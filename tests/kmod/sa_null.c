// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: an empty probe on each of the four kmem events
 * slab_account.ko attaches to (kmalloc, kfree, kmem_cache_alloc,
 * kmem_cache_free), registered as it registers its own. What a pair
 * costs with it loaded, less what it costs with nothing attached, is the
 * tracepoints' dispatch alone: the floor under any probe on these
 * events, which bench/module-overhead.sh measures beside the module.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

/*
 * One empty function for every event: a tracepoint calls its probes with
 * the event's arguments, which an empty body never reads. notrace, as
 * slab_account.ko's probes are.
 */
static notrace void sa_null_probe(void)
{
}

static struct tracepoint *const sa_null_tps[] = {
	&__tracepoint_kfree,
	&__tracepoint_kmem_cache_free,
	&__tracepoint_kmalloc,
	&__tracepoint_kmem_cache_alloc,
};

static void sa_null_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(sa_null_tps[n], sa_null_probe, NULL);
	tracepoint_synchronize_unregister();
}

static int __init sa_null_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sa_null_tps); i++) {
		ret = tracepoint_probe_register(sa_null_tps[i], sa_null_probe,
						NULL);
		if (ret) {
			sa_null_unregister(i);
			return ret;
		}
	}
	return 0;
}

static void __exit sa_null_exit(void)
{
	sa_null_unregister(ARRAY_SIZE(sa_null_tps));
}

module_init(sa_null_init);
module_exit(sa_null_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: empty probes on the kmem events (the tracepoints' dispatch)");
