// SPDX-License-Identifier: GPL-2.0
/*
 * A deliberately broken module: init fails with -EINVAL. The test bed must
 * turn this into a clear, non-zero failure.
 */
#include <linux/module.h>
#include <linux/init.h>

static int __init broken_init(void)
{
	pr_err("%s: failing init on purpose\n", __func__);
	return -EINVAL;
}
module_init(broken_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: a module whose init fails");
