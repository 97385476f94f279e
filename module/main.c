// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: module init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>

#include "slab_account.h"

static int __init slab_account_init(void)
{
	int ret;

	ret = sa_proc_init();
	if (ret)
		goto err;
	pr_info("loaded, format version %d\n", SLAB_ACCOUNT_FORMAT_VERSION);
	return 0;

err:
	return ret;
}

static void __exit slab_account_exit(void)
{
	sa_proc_exit();
	pr_info("unloaded\n");
}

module_init(slab_account_init);
module_exit(slab_account_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-call-site kernel memory accounting");
MODULE_AUTHOR("slabacct developers");
