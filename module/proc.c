// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the /proc/slab_account file (format in README.md).
 *
 * Opening the file for reading takes a snapshot of the totals and the
 * call-site table into memory allocated for that open file, and sorts it
 * there, in process context with no lock held. Reading prints the
 * snapshot; opening it for writing only takes none. The probes fire on
 * these allocations too, which is harmless: they never wait for anything
 * this path holds.
 *
 * Writing "reset", "sort KEY" or "top N" clears the tables or chooses the
 * order and the number of rows; "sort" and "top" are also module
 * parameters. Reading needs CAP_SYSLOG or CAP_SYS_ADMIN, writing
 * CAP_SYS_ADMIN (sa_proc_permitted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "slab_account.h"

static const char *const sa_sort_names[SA_NR_SORT_KEYS] = {
	[SA_SORT_TOTAL]		= "total",
	[SA_SORT_SLACK]		= "slack",
	[SA_SORT_REQ]		= "req",
	[SA_SORT_LIVE]		= "live",
	[SA_SORT_OBJS]		= "objs",
	[SA_SORT_ALLOCS]	= "allocs",
	[SA_SORT_FREES]		= "frees",
};

static const char *const sa_kind_names[SA_NR_KINDS] =
	SLAB_ACCOUNT_KIND_NAMES;

enum sa_sort_key sa_sort = SA_SORT_TOTAL;
unsigned int sa_top;

struct sa_view {
	struct sa_counters tot;
	enum sa_sort_key sort;
	unsigned int top;
	unsigned int nrows;
	char caller[KSYM_SYMBOL_LEN];
	struct sa_row rows[];
};

int sa_sort_parse(const char *s, enum sa_sort_key *key)
{
	int i = sysfs_match_string(sa_sort_names, s);

	if (i < 0)
		return -EINVAL;
	*key = i;
	return 0;
}

const char *sa_sort_name(enum sa_sort_key key)
{
	return sa_sort_names[key];
}

const char *sa_kind_name(enum sa_kind kind)
{
	return sa_kind_names[kind];
}

s64 sa_row_value(const struct sa_row *r, enum sa_sort_key key)
{
	switch (key) {
	case SA_SORT_SLACK:
		return sa_slack(r->bytes_alloc, r->bytes_req);
	case SA_SORT_REQ:
		return r->bytes_req;
	case SA_SORT_LIVE:
		return r->live_bytes;
	case SA_SORT_OBJS:
		return r->live_objs;
	case SA_SORT_ALLOCS:
		return r->allocs;
	case SA_SORT_FREES:
		return r->frees;
	default:
		return r->bytes_alloc;
	}
}

/* Descending by the key, then by call site, so the order is stable. */
static int sa_row_cmp(const void *a, const void *b, const void *priv)
{
	const struct sa_row *ra = a, *rb = b;
	enum sa_sort_key key = *(const enum sa_sort_key *)priv;
	s64 va = sa_row_value(ra, key), vb = sa_row_value(rb, key);

	if (va != vb)
		return va > vb ? -1 : 1;
	if (ra->call_site != rb->call_site)
		return ra->call_site < rb->call_site ? -1 : 1;
	if (ra->via != rb->via)
		return ra->via < rb->via ? -1 : 1;
	return ra->kind - rb->kind;
}

void sa_format_caller(char *buf, size_t len, unsigned long call_site)
{
	WARN_ON_ONCE(len < KSYM_SYMBOL_LEN);
	sprint_symbol(buf, call_site);
	/* no symbol: sprint_symbol printed the raw address */
	if (!strncmp(buf, "0x", 2))
		snprintf(buf, len, "%pK", (void *)call_site);
}

static void sa_show_totals(struct seq_file *m, const struct sa_view *v)
{
	const struct sa_counters *t = &v->tot;
	u64 alloc = t->bytes_alloc[SA_KMALLOC] + t->bytes_alloc[SA_CACHE];
	u64 req = t->bytes_req[SA_KMALLOC] + t->bytes_req[SA_CACHE];
	unsigned int i, k;

	seq_printf(m, "sort: %s\ntop: %u\n", sa_sort_name(v->sort), v->top);
	seq_printf(m, "sites: %u\nobjects: %u\n", sa_table_sites(),
		   sa_table_objects());
	seq_printf(m, "cache_slot_size: %s\n",
		   sa_cache_layout_ok ? "exact" : "object");
	seq_printf(m, "bytes_alloc: %llu\nbytes_req: %llu\nslack: %llu\n",
		   alloc, req, sa_slack(alloc, req));
	seq_printf(m, "live_bytes: %lld\nlive_req: %lld\nlive_objects: %lld\n",
		   t->live_bytes, t->live_req, t->live_objs);
	seq_printf(m, "allocs: %llu\nfrees: %llu\ncallers: %llu\n",
		   t->allocs[SA_KMALLOC] + t->allocs[SA_CACHE], t->frees,
		   t->callers);
	seq_printf(m, "dropped: %llu\nuntracked_frees: %llu\n",
		   t->dropped, t->untracked_frees);
	seq_printf(m, "map_full: %llu\nlost_frees: %llu\n",
		   t->map_full, t->lost_frees);
	seq_printf(m, "kmalloc_repeats: %llu\n", t->kmalloc_repeats);
	seq_printf(m, "unattributed: %llu\n", t->unattributed);
	seq_printf(m, "slow_sites: %llu\nslow_objects: %llu\nslow_frees: %llu\n",
		   t->slow_sites, t->slow_objects, t->slow_frees);
	for (k = 0; k < SA_NR_KINDS; k++) {
		const char *n = sa_kind_name(k);

		seq_printf(m, "%s_allocs: %llu\n", n, t->allocs[k]);
		seq_printf(m, "%s_bytes_alloc: %llu\n", n, t->bytes_alloc[k]);
		seq_printf(m, "%s_bytes_req: %llu\n", n, t->bytes_req[k]);
		seq_printf(m, "%s_slack: %llu\n", n,
			   sa_slack(t->bytes_alloc[k], t->bytes_req[k]));
	}
	seq_puts(m, "pages_alloc:");
	for (i = 0; i < SA_NR_ORDERS; i++)
		seq_printf(m, " %llu", t->pages_alloc[i]);
	seq_puts(m, "\npages_free:");
	for (i = 0; i < SA_NR_ORDERS; i++)
		seq_printf(m, " %llu", t->pages_free[i]);
	seq_putc(m, '\n');
}

void sa_seq_row(struct seq_file *m, const struct sa_row *r, char *caller,
		size_t len)
{
	seq_printf(m, "%10llu %9llu %10llu %10lld %7lld %9llu/%-9llu %-7s ",
		   r->bytes_alloc, sa_slack(r->bytes_alloc, r->bytes_req),
		   r->bytes_req,
		   r->live_bytes, r->live_objs, r->allocs, r->frees,
		   sa_kind_name(r->kind));
	/* a wrapper's allocations: "WRAPPER_SITE <- CALLER" */
	if (r->via) {
		sa_format_caller(caller, len, r->via);
		seq_printf(m, "%s%s", caller, SLAB_ACCOUNT_VIA_SEP);
	}
	sa_format_caller(caller, len, r->call_site);
	seq_printf(m, "%s\n", caller);
}

void sa_seq_row_heading(struct seq_file *m)
{
	seq_printf(m, "# %8s %9s %10s %10s %7s %19s %-7s %s\n", "total",
		   "slack", "req", "live", "objs", "allocs/frees", "kind",
		   "caller");
}

static int sa_proc_show(struct seq_file *m, void *unused)
{
	struct sa_view *v = m->private;
	unsigned int i, n;

	/* opened for writing only: lseek may still get here */
	if (!v)
		return 0;
	n = v->nrows;
	seq_printf(m, "# %s %d\n", SLAB_ACCOUNT_PROC_NAME,
		   SLAB_ACCOUNT_FORMAT_VERSION);
	sa_show_totals(m, v);
	sa_seq_row_heading(m);
	if (v->top && v->top < n)
		n = v->top;
	for (i = 0; i < n; i++)
		sa_seq_row(m, &v->rows[i], v->caller, sizeof(v->caller));
	return 0;
}

/*
 * Reading needs CAP_SYSLOG or CAP_SYS_ADMIN, as kernel addresses do
 * (/proc/kallsyms); writing (reset, sort, top) needs CAP_SYS_ADMIN. The
 * mode (0400) stops other users, but not root with its capabilities
 * dropped. Checked at open, for the opener, as /proc/kallsyms does: a
 * file handed to another process keeps what it was opened for, and %pK
 * still hides addresses from a reader without CAP_SYSLOG.
 */
int sa_proc_permitted(const struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if ((file->f_mode & FMODE_READ) && !capable(CAP_SYSLOG) &&
	    !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

/*
 * The snapshot of the table and totals a read prints, sorted. Not
 * inlined, so that a test can count the snapshots with ftrace.
 */
static noinline struct sa_view *sa_view_take(void)
{
	unsigned int i, cap = sa_table_rows(), used = 0;
	struct sa_live *live;
	struct sa_view *v;

	/* room for the rows in use now, and for some that appear meanwhile */
	for (i = 0; i < cap; i = sa_row_next(i))
		used += sa_site_used(i);
	used = min(used + 64, cap);
	v = kvmalloc(struct_size(v, rows, used), GFP_KERNEL);
	/*
	 * vmalloc: a kmalloc would be traced, and show up live in the rows
	 * (200 KB of it by default, more than the rows themselves)
	 */
	live = vmalloc(array_size(sa_table_rows(), sizeof(*live)));
	if (!v || !live) {
		vfree(live);
		kvfree(v);
		return NULL;
	}
	v->sort = READ_ONCE(sa_sort);
	v->top = READ_ONCE(sa_top);
	v->nrows = 0;
	sa_live_count(live);
	/* totals from the same copy, so the rows add up to them */
	sa_counters_start(&v->tot);
	for (i = 0; i < cap && v->nrows < used; i = sa_row_next(i))
		if (sa_site_read(i, live, &v->rows[v->nrows]))
			sa_counters_add(&v->tot, &v->rows[v->nrows++]);
	sa_counters_finish(&v->tot, live);
	vfree(live);
	sort_r(v->rows, v->nrows, sizeof(v->rows[0]), sa_row_cmp, NULL,
	       &v->sort);
	return v;
}

static int sa_proc_open(struct inode *inode, struct file *file)
{
	struct sa_view *v;
	unsigned int shown;
	int ret;

	ret = sa_proc_permitted(file);
	if (ret)
		return ret;
	/* a write ("reset", "sort", "top") prints nothing: no snapshot */
	if (!(file->f_mode & FMODE_READ))
		return single_open(file, sa_proc_show, NULL);
	v = sa_view_take();
	if (!v)
		return -ENOMEM;
	shown = v->top && v->top < v->nrows ? v->top : v->nrows;
	ret = single_open_size(file, sa_proc_show, v, 2048 + 160 * shown);
	if (ret)
		kvfree(v);
	return ret;
}

/* single_release() for files whose open allocated m->private */
int sa_single_release_free(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kvfree(m->private);
	return single_release(inode, file);
}

static DEFINE_MUTEX(sa_reset_lock);

void sa_reset(void)
{
	mutex_lock(&sa_reset_lock);
	static_branch_enable(&sa_paused);
	/* probes run with preemption off: this waits for those in flight */
	synchronize_rcu();
	sa_table_clear();
	sa_reclaim_clear();
	/*
	 * Patching the branch back synchronizes every CPU (IPIs or
	 * stop_machine) after the clearing: a probe that runs past the
	 * branch sees the cleared tables.
	 */
	static_branch_disable(&sa_paused);
	mutex_unlock(&sa_reset_lock);
}

static ssize_t sa_proc_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[32], *arg, *cmd;
	enum sa_sort_key key;
	unsigned int top;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	arg = strim(buf);
	cmd = strsep(&arg, " \t");
	arg = arg ? skip_spaces(arg) : NULL;
	if (!strcmp(cmd, "reset") && !arg) {
		sa_reset();
	} else if (!strcmp(cmd, "sort") && arg) {
		if (sa_sort_parse(arg, &key))
			return -EINVAL;
		WRITE_ONCE(sa_sort, key);
	} else if (!strcmp(cmd, "top") && arg) {
		if (kstrtouint(arg, 10, &top))
			return -EINVAL;
		WRITE_ONCE(sa_top, top);
	} else {
		return -EINVAL;
	}
	return count;
}

static const struct proc_ops sa_proc_ops = {
	.proc_open	= sa_proc_open,
	.proc_read	= seq_read,
	.proc_write	= sa_proc_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= sa_single_release_free,
};

static int sa_sort_set(const char *val, const struct kernel_param *kp)
{
	enum sa_sort_key key;
	char buf[16];

	strscpy(buf, val, sizeof(buf));
	if (sa_sort_parse(strim(buf), &key))
		return -EINVAL;
	WRITE_ONCE(sa_sort, key);
	return 0;
}

static int sa_sort_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", sa_sort_name(READ_ONCE(sa_sort)));
}

static const struct kernel_param_ops sa_sort_ops = {
	.set = sa_sort_set,
	.get = sa_sort_get,
};

module_param_cb(sort, &sa_sort_ops, NULL, 0644);
MODULE_PARM_DESC(sort, "row order: total, slack, req, live, objs, allocs or frees (default total)");
module_param_named(top, sa_top, uint, 0644);
MODULE_PARM_DESC(top, "rows to show, 0 for all (default 0)");

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
