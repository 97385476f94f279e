// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: the /proc/slab_account file (format: the tables of
 * include/uapi/slab_account.h, described in docs/module.md), and
 * /proc/slab_account_reclaim, which shows reclaim.c's counters.
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

/*
 * The header's values: a field for each key of uapi/slab_account.h's
 * tables, of its name, filled from a view and printed by the tables.
 */
struct sa_kind_header {
	u64 allocs;
	u64 bytes_alloc;
	u64 bytes_req;
	u64 slack;
};

struct sa_header {
	const char *sort;
	u64 top;
	u64 sites;
	u64 objects;
	const char *cache_slot_size;
	u64 bytes_alloc;
	u64 bytes_req;
	u64 slack;
	s64 live_bytes;
	s64 live_req;
	s64 live_objects;
	u64 allocs;
	u64 frees;
	u64 callers;
	u64 dropped;
	u64 untracked_frees;
	u64 map_full;
	u64 lost_frees;
	u64 kmalloc_repeats;
	u64 unattributed;
	u64 slow_sites;
	u64 slow_objects;
	u64 slow_frees;
	struct sa_kind_header kind[SA_NR_KINDS];
	const u64 *pages_alloc;
	const u64 *pages_free;
};

enum sa_key_type { SA_KEY_U64, SA_KEY_S64, SA_KEY_WORD, SA_KEY_SLOT,
		   SA_KEY_ORDERS };

struct sa_key {
	const char *name;
	enum sa_key_type type;
	size_t off;		/* in struct sa_header or sa_kind_header */
	int since;
	enum slab_account_group group;
};

#define SA_KEY(name, type, since, group)				\
	{ #name, SA_KEY_##type, offsetof(struct sa_header, name), since, \
	  SLAB_ACCOUNT_##group },
#define SA_KIND_KEY(name, type, since, group, ...)			\
	{ #name, SA_KEY_##type, offsetof(struct sa_kind_header, name),	\
	  since, SLAB_ACCOUNT_##group },

static const struct sa_key sa_keys[] = {
	SLAB_ACCOUNT_KEYS(SA_KEY)
};

static const struct sa_key sa_kind_keys[] = {
	SLAB_ACCOUNT_KIND_KEYS(SA_KIND_KEY)
};

static const struct sa_key sa_order_keys[] = {
	SLAB_ACCOUNT_ORDER_KEYS(SA_KEY)
};

static void sa_header_fill(struct sa_header *h, const struct sa_view *v)
{
	const struct sa_counters *t = &v->tot;
	unsigned int k;

	memset(h, 0, sizeof(*h));
	h->sort = sa_sort_name(v->sort);
	h->top = v->top;
	h->sites = sa_table_sites();
	h->objects = sa_table_objects();
	h->cache_slot_size = sa_cache_layout_ok ? "exact" : "object";
	for (k = 0; k < SA_NR_KINDS; k++) {
		h->kind[k].allocs = t->allocs[k];
		h->kind[k].bytes_alloc = t->bytes_alloc[k];
		h->kind[k].bytes_req = t->bytes_req[k];
		h->kind[k].slack = sa_slack(t->bytes_alloc[k],
					    t->bytes_req[k]);
		h->bytes_alloc += t->bytes_alloc[k];
		h->bytes_req += t->bytes_req[k];
		h->allocs += t->allocs[k];
	}
	h->slack = sa_slack(h->bytes_alloc, h->bytes_req);
	h->live_bytes = t->live_bytes;
	h->live_req = t->live_req;
	h->live_objects = t->live_objs;
	h->frees = t->frees;
	h->callers = t->callers;
	h->dropped = t->dropped;
	h->untracked_frees = t->untracked_frees;
	h->map_full = t->map_full;
	h->lost_frees = t->lost_frees;
	h->kmalloc_repeats = t->kmalloc_repeats;
	h->unattributed = t->unattributed;
	h->slow_sites = t->slow_sites;
	h->slow_objects = t->slow_objects;
	h->slow_frees = t->slow_frees;
	h->pages_alloc = t->pages_alloc;
	h->pages_free = t->pages_free;
}

/* "[KIND_]key: value", the value at key->off in base */
static void sa_show_key(struct seq_file *m, const char *kind,
			const struct sa_key *key, const void *base)
{
	const void *p = (const char *)base + key->off;
	unsigned int i;

	if (kind)
		seq_printf(m, "%s_", kind);
	seq_printf(m, "%s:", key->name);
	switch (key->type) {
	case SA_KEY_U64:
		seq_printf(m, " %llu\n", *(const u64 *)p);
		break;
	case SA_KEY_S64:
		seq_printf(m, " %lld\n", *(const s64 *)p);
		break;
	case SA_KEY_WORD:
	case SA_KEY_SLOT:
		seq_printf(m, " %s\n", *(const char *const *)p);
		break;
	case SA_KEY_ORDERS:
		for (i = 0; i < SA_NR_ORDERS; i++)
			seq_printf(m, " %llu", (*(const u64 *const *)p)[i]);
		seq_putc(m, '\n');
		break;
	}
}

static void sa_show_totals(struct seq_file *m, const struct sa_view *v)
{
	struct sa_header h;
	unsigned int i, k;

	sa_header_fill(&h, v);
	for (i = 0; i < ARRAY_SIZE(sa_keys); i++)
		sa_show_key(m, NULL, &sa_keys[i], &h);
	for (k = 0; k < SA_NR_KINDS; k++)
		for (i = 0; i < ARRAY_SIZE(sa_kind_keys); i++)
			sa_show_key(m, sa_kind_name(k), &sa_kind_keys[i],
				    &h.kind[k]);
	for (i = 0; i < ARRAY_SIZE(sa_order_keys); i++)
		sa_show_key(m, NULL, &sa_order_keys[i], &h);
}

/* The columns, titles and widths, in their order */
struct sa_column {
	const char *name;
	const char *title;
	int width;		/* negative: left-aligned */
};

#define SA_COLUMN(name, title, width)	{ #name, title, width },
static const struct sa_column sa_columns[] = {
	SLAB_ACCOUNT_COLUMNS(SA_COLUMN)
};

void sa_seq_row(struct seq_file *m, const struct sa_row *r, char *caller,
		size_t len)
{
	const struct sa_column *c = sa_columns;

	/* total slack req live objs allocs/frees kind, then caller */
	BUILD_BUG_ON(ARRAY_SIZE(sa_columns) != 8);
	seq_printf(m, "%*llu %*llu %*llu %*lld %*lld %*llu/%-*llu %*s ",
		   c[0].width, r->bytes_alloc, c[1].width,
		   sa_slack(r->bytes_alloc, r->bytes_req), c[2].width,
		   r->bytes_req, c[3].width, r->live_bytes, c[4].width,
		   r->live_objs, c[5].width / 2, r->allocs, c[5].width / 2,
		   r->frees, c[6].width, sa_kind_name(r->kind));
	/* a wrapper's allocations: "WRAPPER_SITE <- CALLER" */
	if (r->via) {
		sa_format_caller(caller, len, r->via);
		seq_printf(m, "%s%s", caller, SLAB_ACCOUNT_VIA_SEP);
	}
	sa_format_caller(caller, len, r->call_site);
	seq_printf(m, "%s\n", caller);
}

/* "#", then each column's title in its width (the first's less the #) */
void sa_seq_row_heading(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sa_columns); i++)
		seq_printf(m, i ? " %*s" : "#%*s",
			   i ? sa_columns[i].width : sa_columns[i].width - 1,
			   sa_columns[i].title);
	seq_putc(m, '\n');
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
	sa_account_clear();
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

/*
 * /proc/slab_account_reclaim: the reclaim counters (reclaim.c), cleared
 * by "reset" with the rest.
 */
static int sa_reclaim_show(struct seq_file *m, void *v)
{
	struct sa_reclaim r;

	sa_reclaim_sum(&r);
	seq_printf(m, "# %s %d\n", SLAB_ACCOUNT_RECLAIM_NAME,
		   SLAB_ACCOUNT_RECLAIM_VERSION);
	seq_printf(m, "direct_reclaim_entries: %llu\n", r.direct_entries);
	seq_printf(m, "direct_reclaim_ns_total: %llu\n", r.direct_ns);
	seq_printf(m, "direct_reclaim_ns_max: %lld\n", r.direct_max_ns);
	seq_printf(m, "direct_reclaim_pages: %llu\n", r.direct_pages);
	seq_printf(m, "kswapd_wakeups: %llu\n", r.kswapd_wakeups);
	seq_printf(m, "kswapd_wakeup_requests: %llu\n", r.kswapd_requests);
	seq_printf(m, "shrink_slab_calls: %llu\n", r.shrink_calls);
	seq_printf(m, "shrink_slab_ns_total: %llu\n", r.shrink_ns);
	seq_printf(m, "shrink_slab_ns_max: %lld\n", r.shrink_max_ns);
	seq_printf(m, "shrink_slab_freed: %llu\n", r.shrink_freed);
	seq_printf(m, "pages_reclaimed: %llu\n", r.lru_reclaimed);
	seq_printf(m, "pages_scanned: %llu\n", r.lru_scanned);
	seq_printf(m, "unmatched_ends: %llu\n", r.unmatched);
	seq_printf(m, "pending_full: %llu\n", r.pending_full);
	return 0;
}

static int sa_reclaim_open(struct inode *inode, struct file *file)
{
	return sa_proc_permitted(file) ?: single_open(file, sa_reclaim_show,
						      NULL);
}

static ssize_t sa_reclaim_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strcmp(strim(buf), "reset"))
		return -EINVAL;
	sa_reset();
	return count;
}

static const struct proc_ops sa_reclaim_ops = {
	.proc_open	= sa_reclaim_open,
	.proc_read	= seq_read,
	.proc_write	= sa_reclaim_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
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
	if (!proc_create(SLAB_ACCOUNT_RECLAIM_NAME, 0400, NULL,
			 &sa_reclaim_ops)) {
		remove_proc_entry(SLAB_ACCOUNT_PROC_NAME, NULL);
		return -ENOMEM;
	}
	return 0;
}

void sa_proc_exit(void)
{
	remove_proc_entry(SLAB_ACCOUNT_RECLAIM_NAME, NULL);
	remove_proc_entry(SLAB_ACCOUNT_PROC_NAME, NULL);
}
