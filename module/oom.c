// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the OOM notifier and /proc/slab_account_oom.
 *
 * On a global OOM the notifier picks the oom_top call sites holding the
 * most live bytes into a static snapshot, and logs them between
 * "slab_account: OOM begin" and "slab_account: OOM end" lines (at most
 * every 5 s). It allocates nothing. The snapshot lock is only tried, never
 * waited for, so a reader of the /proc file (who may be in reclaim, or
 * waiting for this OOM) cannot block the OOM killer; a busy lock is
 * counted as a skipped snapshot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/oom.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "slab_account.h"

struct sa_oom_snap {
	u64 events;
	u64 snapshots;
	u64 skipped;
	u64 time_ms;
	s64 live_bytes;
	s64 live_objs;
	unsigned int n;
	struct sa_row rows[SA_OOM_MAX_TOP];
	char caller[KSYM_SYMBOL_LEN];
};

unsigned int sa_oom_top = 10;
module_param_named(oom_top, sa_oom_top, uint, 0644);
MODULE_PARM_DESC(oom_top, "call sites logged and kept on an OOM (max 64, default 10)");

static DEFINE_MUTEX(sa_oom_lock);
static struct sa_oom_snap sa_oom;
/* what lives, by row: allocated at load, used under sa_oom_lock */
static struct sa_live *sa_oom_live;
static atomic64_t sa_oom_events;
static atomic64_t sa_oom_skipped;
static unsigned long sa_oom_logged;

/* Insert r into the top rows by live bytes, kept in descending order. */
static void sa_oom_consider(struct sa_oom_snap *s, unsigned int top,
			    const struct sa_row *r)
{
	unsigned int i;

	if (r->live_bytes <= 0)
		return;
	if (s->n == top && r->live_bytes <= s->rows[top - 1].live_bytes)
		return;
	i = s->n < top ? s->n++ : top - 1;
	while (i > 0 && s->rows[i - 1].live_bytes < r->live_bytes) {
		s->rows[i] = s->rows[i - 1];
		i--;
	}
	s->rows[i] = *r;
}

static void sa_oom_log(struct sa_oom_snap *s)
{
	unsigned int i;

	pr_warn("OOM begin: top %u call sites by live bytes (%lld live bytes in %lld objects tracked)\n",
		s->n, s->live_bytes, s->live_objs);
	for (i = 0; i < s->n; i++) {
		const struct sa_row *r = &s->rows[i];

		sa_format_caller(s->caller, sizeof(s->caller), r->call_site);
		if (r->via)
			pr_warn("OOM %2u: %lld bytes in %lld objects, %s %pS%s%s\n",
				i + 1, r->live_bytes, r->live_objs,
				sa_kind_name(r->kind), (void *)r->via,
				SLAB_ACCOUNT_VIA_SEP, s->caller);
		else
			pr_warn("OOM %2u: %lld bytes in %lld objects, %s %s\n",
				i + 1, r->live_bytes, r->live_objs,
				sa_kind_name(r->kind), s->caller);
	}
	pr_warn("OOM end\n");
}

static int sa_oom_notify(struct notifier_block *nb, unsigned long unused,
			 void *freed)
{
	struct sa_oom_snap *s = &sa_oom;
	unsigned int i, cap = sa_table_rows();
	unsigned int top = clamp(READ_ONCE(sa_oom_top), 1U, SA_OOM_MAX_TOP);
	struct sa_counters tot;
	struct sa_row r;

	atomic64_inc(&sa_oom_events);
	if (!mutex_trylock(&sa_oom_lock)) {
		atomic64_inc(&sa_oom_skipped);
		return NOTIFY_OK;
	}
	s->n = 0;
	/* one walk of the table, under oom_lock: the top rows and totals */
	sa_live_count(sa_oom_live);
	sa_counters_start(&tot);
	for (i = 0; i < cap; i = sa_row_next(i)) {
		if (sa_site_read(i, sa_oom_live, &r)) {
			sa_counters_add(&tot, &r);
			sa_oom_consider(s, top, &r);
		}
	}
	sa_counters_finish(&tot, sa_oom_live);
	s->live_bytes = tot.live_bytes;
	s->live_objs = tot.live_objs;
	s->time_ms = ktime_to_ms(ktime_get_boottime());
	s->snapshots++;
	if (s->snapshots == 1 || time_after(jiffies, sa_oom_logged + 5 * HZ)) {
		sa_oom_logged = jiffies;
		sa_oom_log(s);
	}
	mutex_unlock(&sa_oom_lock);
	return NOTIFY_OK;
}

static struct notifier_block sa_oom_nb = {
	.notifier_call = sa_oom_notify,
};

static int sa_oom_show(struct seq_file *m, void *unused)
{
	struct sa_oom_snap *s = m->private;
	unsigned int i;

	seq_printf(m, "# %s %d\n", SLAB_ACCOUNT_OOM_NAME,
		   SLAB_ACCOUNT_OOM_VERSION);
	seq_printf(m, "oom_events: %llu\nsnapshots: %llu\nskipped: %llu\n",
		   s->events, s->snapshots, s->skipped);
	seq_printf(m, "time_ms: %llu\nlive_bytes: %lld\nlive_objects: %lld\n",
		   s->time_ms, s->live_bytes, s->live_objs);
	seq_printf(m, "top: %u\n", s->n);
	sa_seq_row_heading(m);
	for (i = 0; i < s->n; i++)
		sa_seq_row(m, &s->rows[i], s->caller, sizeof(s->caller));
	return 0;
}

static int sa_oom_open(struct inode *inode, struct file *file)
{
	struct sa_oom_snap *copy;
	int ret;

	ret = sa_proc_permitted(file);
	if (ret)
		return ret;
	/* allocate before taking the lock: nothing allocates under it */
	copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	mutex_lock(&sa_oom_lock);
	*copy = sa_oom;
	mutex_unlock(&sa_oom_lock);
	copy->events = atomic64_read(&sa_oom_events);
	copy->skipped = atomic64_read(&sa_oom_skipped);
	ret = single_open(file, sa_oom_show, copy);
	if (ret)
		kfree(copy);
	return ret;
}

static const struct proc_ops sa_oom_ops = {
	.proc_open	= sa_oom_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= sa_single_release_free,
};

int sa_oom_init(void)
{
	int ret;

	sa_oom_live = vmalloc(array_size(sa_table_rows(), sizeof(*sa_oom_live)));
	if (!sa_oom_live)
		return -ENOMEM;
	if (!proc_create(SLAB_ACCOUNT_OOM_NAME, 0400, NULL, &sa_oom_ops)) {
		ret = -ENOMEM;
		goto err;
	}
	ret = register_oom_notifier(&sa_oom_nb);
	if (ret) {
		remove_proc_entry(SLAB_ACCOUNT_OOM_NAME, NULL);
		goto err;
	}
	return 0;

err:
	vfree(sa_oom_live);
	sa_oom_live = NULL;
	return ret;
}

void sa_oom_exit(void)
{
	unregister_oom_notifier(&sa_oom_nb);
	remove_proc_entry(SLAB_ACCOUNT_OOM_NAME, NULL);
	vfree(sa_oom_live);
	sa_oom_live = NULL;
}
