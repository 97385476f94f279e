/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /proc file of a test module. Read: its state, from name_show() by
 * single_open(). Written: one command, handed as a string with its spaces
 * stripped to name_cmd(), which returns 0 or -errno, under the module's
 * lock. SA_PROC_FILE(name, lock) defines name_ops for proc_create().
 *
 * The command is copied to the stack, not by memdup_user_nul(): that
 * kmalloc would be one more allocation for slab_account.ko to count in
 * the windows whose counts these modules make known.
 */
#ifndef SA_PROC_H
#define SA_PROC_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* the longest command written, newline included */
#define SA_PROC_CMD_MAX	63

static inline ssize_t sa_proc_command(const char __user *ubuf, size_t count,
				      struct mutex *lock, int (*cmd)(char *))
{
	char buf[SA_PROC_CMD_MAX + 1];
	int ret;

	if (count > SA_PROC_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(lock);
	ret = cmd(strim(buf));
	mutex_unlock(lock);
	return ret ? ret : count;
}

#define SA_PROC_FILE(name, lock)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, name##_show, NULL);			\
}									\
									\
static ssize_t name##_write(struct file *file, const char __user *ubuf,	\
			    size_t count, loff_t *ppos)			\
{									\
	return sa_proc_command(ubuf, count, &(lock), name##_cmd);	\
}									\
									\
static const struct proc_ops name##_ops = {				\
	.proc_open	= name##_open,					\
	.proc_read	= seq_read,					\
	.proc_write	= name##_write,					\
	.proc_lseek	= seq_lseek,					\
	.proc_release	= single_release,				\
}

#endif /* SA_PROC_H */
