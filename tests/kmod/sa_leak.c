// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct test module: a planted memory leak. Its init allocates three
 * objects and forgets them, so kmemleak must report them; the debug
 * kernel's tests use it to prove their kmemleak check can fail.
 */
#include <linux/module.h>
#include <linux/slab.h>

static void *sa_leak_keep;

/* Not __init: its name stays in kmemleak's backtraces after init. */
static noinline void *sa_leak_alloc(void)
{
	return kmalloc(128, GFP_KERNEL);
}

static int __init sa_leak_init(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		sa_leak_keep = sa_leak_alloc();
		if (!sa_leak_keep)
			return -ENOMEM;
	}
	/* the last pointer is dropped too: nothing refers to any of them */
	sa_leak_keep = NULL;
	return 0;
}

static void __exit sa_leak_exit(void)
{
}

module_init(sa_leak_init);
module_exit(sa_leak_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("slabacct test: leaks three kmalloc(128) objects on load");
