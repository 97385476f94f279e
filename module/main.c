// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: module parameters, init and exit.
 *
 * Init allocates every table, creates the /proc files and registers the
 * OOM notifier before attaching any probe, and unwinds in reverse order
 * on failure. Exit detaches the probes and waits for those in flight
 * (tracepoint_synchronize_unregister) before anything is freed.
 *
 * Built into the kernel (CONFIG_SLAB_ACCOUNT, kconfig-fragments/
 * builtin.config), init runs at early_initcall: the earliest initcall
 * level, before the other CPUs are brought up and before any driver or
 * filesystem initcall. By then the slab allocator, vmalloc, procfs
 * (proc_root_init) and the tracepoints (static keys, static calls) are
 * ready, and the parameters have been parsed from the kernel command
 * line as slab_account.PARAM=. What the kernel allocated before
 * (start_kernel) is not seen; it stays live in /proc/slabinfo.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/tracepoint.h>

#include "slab_account.h"

static unsigned int sites = 8192;
module_param(sites, uint, 0444);
MODULE_PARM_DESC(sites, "call-site table slots, rounded up to a power of two (16..4194304, default 8192)");

/* 0: by the memory (sa_default_objects) */
static unsigned int objects;
module_param(objects, uint, 0444);
MODULE_PARM_DESC(objects, "live-object map slots, rounded up to a power of two (64..67108864, default 8 per page of RAM, at most 262144)");

#define SA_OBJECTS_MAX_DEFAULT	262144U

/*
 * The live-object map's default: 8 slots per page of RAM (26 bytes
 * each, 5% of the RAM on a 64-bit kernel with 4 KiB pages), at most
 * 262144 (6.5 MiB: from 128 MB up), at least 4096: a small board's
 * live objects fit (a tinyconfig boot held 18,944) without the map
 * taking what it would count.
 */
static unsigned int sa_default_objects(void)
{
	unsigned long n = totalram_pages() * 8;

	n = clamp_t(unsigned long, n, 4096, SA_OBJECTS_MAX_DEFAULT);
	return roundup_pow_of_two(n);
}

static bool page_events = true;
module_param(page_events, bool, 0444);
MODULE_PARM_DESC(page_events, "count page allocations and frees by order (default on)");

static int __init slab_account_init(void)
{
	int ret;

	if (!objects)
		objects = sa_default_objects();
	if (sites < 16 || sites > (1U << 22) || objects < 64 ||
	    objects > (1U << 26)) {
		pr_err("sites or objects out of range\n");
		return -EINVAL;
	}
	ret = sa_testing_fail(1) ?: sa_cache_layout_check();
	if (ret)
		goto err;
	ret = sa_testing_fail(2) ?: sa_account_init(sites, objects);
	if (ret)
		goto err;
	ret = sa_testing_fail(3) ?: sa_proc_init();
	if (ret)
		goto err_table;
	ret = sa_testing_fail(4) ?: sa_oom_init();
	if (ret)
		goto err_proc;
	ret = sa_testing_fail(5) ?: sa_reclaim_init();
	if (ret)
		goto err_oom;
	ret = sa_testing_fail(6) ?: sa_probes_init(page_events);
	if (ret)
		goto err_reclaim;
	ret = sa_testing_fail(7);
	if (ret)
		goto err_probes;
	pr_info("loaded, format version %d, %u sites, %u objects\n",
		SLAB_ACCOUNT_FORMAT_VERSION, sa_table_sites(),
		sa_table_objects());
	return 0;

err_probes:
	sa_probes_exit();
err_reclaim:
	sa_reclaim_exit();
	tracepoint_synchronize_unregister();
err_oom:
	sa_oom_exit();
err_proc:
	sa_proc_exit();
err_table:
	sa_account_exit();
err:
	return ret;
}

static void __exit slab_account_exit(void)
{
	sa_probes_exit();
	sa_reclaim_exit();
	/* no probe may still run in the tables freed below */
	tracepoint_synchronize_unregister();
	sa_oom_exit();
	sa_proc_exit();
	sa_account_exit();
	pr_info("unloaded\n");
}

#ifdef MODULE
module_init(slab_account_init);
#else
early_initcall(slab_account_init);
#endif
module_exit(slab_account_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-call-site kernel memory accounting");
MODULE_AUTHOR("slabacct developers");
