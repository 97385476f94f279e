// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the /proc/slab_account file.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "slab_account.h"

static int sa_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "# slab_account %d\n", SLAB_ACCOUNT_FORMAT_VERSION);
	return 0;
}

static int sa_proc_open(struct inode *inode, struct file *file)
{
	return single_open(file, sa_proc_show, NULL);
}

static const struct proc_ops sa_proc_ops = {
	.proc_open	= sa_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

int sa_proc_init(void)
{
	if (!proc_create(SLAB_ACCOUNT_PROC_NAME, 0400, NULL, &sa_proc_ops))
		return -ENOMEM;
	return 0;
}

void sa_proc_exit(void)
{
	remove_proc_entry(SLAB_ACCOUNT_PROC_NAME, NULL);
}
