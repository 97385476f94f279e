// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: attribution through allocation wrappers.
 *
 * The call site of an allocation made by kvmalloc_node, kasprintf,
 * mempool_alloc and the like is in the wrapper, which hides the caller
 * that asked for the memory. Each call site is classified once, when it
 * is first seen: by the name of its function, matched against the table
 * the CLI uses too (SLAB_ACCOUNT_WRAPPERS). A wrapper's call site never
 * takes its home slot in the table, where the probes' fast path looks
 * (table.c, account.h), so that the other sites pay nothing. An allocation
 * at a wrapper's site takes the caller an ftrace hook caught at the
 * wrapper's entry (sa_wrap_hook), or, where there is none or it cannot
 * be trusted, a stack trace: finds the call site among its frames, goes outwards over the frames in wrapper functions (classified
 * the same way, as rows of the call-site table that hold no allocation)
 * and accounts the allocation to a pair row: (the wrapper's site, the
 * first frame outside). The live-object map keeps the pair row of each object, so
 * its free follows it.
 *
 * Pair rows are claimed like call sites, by cmpxchg of the caller, then
 * the wrapper's row is published; a lookup meeting a slot whose caller
 * matches but whose wrapper is not published yet goes on probing, so two
 * CPUs that claim the same new pair at the same moment may each get a
 * row: both are shown, and their sum is exact. Whatever cannot be
 * attributed (no stack trace support, the call site not among the
 * frames, only wrappers, a table full) stays at the wrapper's own row.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "wrap.h"

/*
 * Frames of a wrapper's allocation taken, from the probe outwards: a
 * few, enough for the probe's own, the allocator's, the wrapper's and
 * its caller's (each costs an unwinder step: a few hundred
 * instructions); more only when the caller is not among those.
 */
#define SA_WRAP_FRAMES_FEW	8
#define SA_WRAP_FRAMES	32

static const char *const sa_wrappers[] = { SLAB_ACCOUNT_WRAPPERS };

/* A symbol's name, per CPU and context level (too large for a stack) */
static DEFINE_PER_CPU(char [SA_CONTEXTS][KSYM_SYMBOL_LEN], sa_sym_buf);

/* Is the name "func+0x1/0x2 [module]" a wrapper's? */
static bool sa_wrapper_name(const char *name)
{
	size_t len = strcspn(name, "+ ");
	size_t np = strlen(SLAB_ACCOUNT_NOPROF);
	unsigned int i;

	while (*name == '_' && len) {
		name++;
		len--;
	}
	if (len > np && !strncmp(name + len - np, SLAB_ACCOUNT_NOPROF, np))
		len -= np;
	for (i = 0; i < ARRAY_SIZE(sa_wrappers); i++)
		if (strlen(sa_wrappers[i]) == len &&
		    !strncmp(name, sa_wrappers[i], len))
			return true;
	return false;
}

/*
 * The class of a call site (or frame): SA_SITE_WRAP or SA_SITE_PLAIN;
 * and its offset in its function, 0 if not known or past 16 bits
 */
u8 sa_classify(unsigned long addr, u16 *off)
{
	char *buf = this_cpu_ptr(sa_sym_buf)[sa_context_level()];
	const char *plus;
	unsigned long o;

	sprint_symbol(buf, addr);
	plus = strchr(buf, '+');
	*off = 0;
	if (plus && sscanf(plus, "+%lx/", &o) == 1 && o <= U16_MAX)
		*off = o;
	return sa_wrapper_name(buf) ? SA_SITE_WRAP : SA_SITE_PLAIN;
}

/*
 * The class of row site, a call-site row: as its claim recorded it, or
 * (claimed by another CPU that has not recorded it yet) found again.
 */
u8 sa_site_class_of(u32 site, unsigned long call_site)
{
	u8 class = READ_ONCE(sa_site_class[site]);
	u16 off;

	return class ? class : sa_classify(call_site, &off);
}

/* The row of call site (or frame) key: found, or claimed with its class */
u32 sa_site_row(unsigned long key, enum sa_kind kind)
{
	u32 row = sa_site_find(key, kind);
	u16 off;
	u8 class;

	if (row != SA_NO_ROW)
		return row;
	class = sa_classify(key, &off);
	return sa_site_claim(key, kind, class, off);
}

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * The wrappers' callers, caught at the wrappers' entries by an ftrace
 * function hook (parent_ip), for a few tens of instructions where a stack
 * trace costs thousands. A slot per CPU and context level holds what the
 * latest hooked entry left: its task, the task's context switches then,
 * the entry's address (ip) and the caller of the outermost wrapper
 * (0: not known). The wrapper may sleep between its entry and its
 * allocation, so preemption cannot be kept off across it, and a task
 * has no field a module may own; a slot per CPU is read only while it
 * is still the task's own: the same task, no context switch since
 * (nvcsw + nivcsw: a task that was switched out may have moved CPU, and
 * another task may have used the slot meanwhile), and the latest
 * hooked entry in the function of the allocation's call site, so that a
 * slot left by an earlier wrapper call, or by a wrapper called and
 * returned inside this one, is never read. Interrupts and softirqs have
 * their own level's slot: a context only interrupts a lower one, and
 * never one of its own level. A hooked entry whose caller is in a
 * wrapper too keeps the slot's caller if the slot's latest entry is in
 * that wrapper (the outer call), else the caller is not known. A slot
 * that is not the allocation's is left alone, and the allocation takes
 * the stack walk below, so that a plain allocation never reads a slot
 * (only wrappers' sites do) and a wrapper's site never reads a stale one.
 */
struct sa_wrap_slot {
	struct task_struct *task;
	unsigned long switches;
	unsigned long ip;
	unsigned long caller;
	/*
	 * What this CPU and level found last, so that a loop through one
	 * wrapper from one caller looks nothing up again: a hooked entry
	 * classified a wrapper's (entry) and one not (skip); a caller of a
	 * wrapper's entry classified plain; a wrapper's call site
	 * (via_key), its row (via); the caller of its latest allocation
	 * through the hook (pair_caller, 0: none) and the row of that pair
	 * (pair).
	 * Rows never move until a reset, which clears these
	 * (sa_wrap_clear); a class never changes.
	 */
	unsigned long entry;
	unsigned long skip;
	unsigned long plain;
	unsigned long via_key;
	unsigned long pair_caller;
	u32 via;
	u32 pair;
};

static DEFINE_PER_CPU(struct sa_wrap_slot [SA_CONTEXTS], sa_wrap_slots);
static bool sa_wrap_on;

/*
 * This CPU's slot at the context level running. A task's (the common
 * case) is found by one test of the preempt count, without counting the
 * levels (sa_context_level: level 0 is none of these bits).
 */
static __always_inline struct sa_wrap_slot *sa_my_slot(void)
{
	struct sa_wrap_slot *w = this_cpu_ptr(sa_wrap_slots);

	if (likely(!(preempt_count() &
		     (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET))))
		return w;
	return &w[sa_context_level()];
}

static __always_inline unsigned long sa_switches(void)
{
	return READ_ONCE(current->nvcsw) + READ_ONCE(current->nivcsw);
}

/* Is ip in the function of addr, row site's call site, before addr? */
static __always_inline bool sa_in_function(u32 site, unsigned long addr,
					   unsigned long ip)
{
	return addr - ip - 1 < READ_ONCE(sa_site_off[site]);
}

/*
 * The classes of the hooked functions' entries, by their address: a
 * table of their own (not rows of the call-site table, whose size the
 * user chose for call sites), claimed by cmpxchg, the class stored
 * after; cleared by a reset. The filter takes a few dozen functions.
 */
#define SA_ENTRY_BITS	7
static unsigned long sa_entry_ips[1 << SA_ENTRY_BITS];
static u8 sa_entry_classes[1 << SA_ENTRY_BITS];

static notrace u8 sa_entry_class(unsigned long ip)
{
	unsigned int i = hash_long(ip, SA_ENTRY_BITS), n;
	unsigned long cur = 0;
	u16 off;
	u8 class;

	for (n = 0; n < ARRAY_SIZE(sa_entry_ips);
	     n++, i = (i + 1) % ARRAY_SIZE(sa_entry_ips)) {
		cur = READ_ONCE(sa_entry_ips[i]);
		if (cur == ip) {
			class = READ_ONCE(sa_entry_classes[i]);
			if (class)
				return class;
			break;	/* another CPU classifies it: so do we */
		}
		if (!cur)
			break;
	}
	class = sa_classify(ip, &off);
	if (!cur && !cmpxchg(&sa_entry_ips[i], 0UL, ip))
		WRITE_ONCE(sa_entry_classes[i], class);
	return class;
}

static struct ftrace_ops sa_wrap_ops;

/*
 * Hooked functions that are not wrappers, taken out of the filter by a
 * work item (ftrace_set_filter_ip, no pass over ftrace's functions), so
 * that their callers stop paying the trampoline. Only once a wrapper's
 * entry has been seen, which stays in the filter: a filter emptied would
 * hook every function. Claimed by cmpxchg, in order; the work's index.
 */
#define SA_WRAP_PRUNE	16
static unsigned long sa_prune_ips[SA_WRAP_PRUNE];
static unsigned int sa_pruned;
static bool sa_wrap_seen;

static void sa_prune_fn(struct work_struct *work)
{
	unsigned long ip;

	for (; sa_pruned < SA_WRAP_PRUNE; sa_pruned++) {
		ip = READ_ONCE(sa_prune_ips[sa_pruned]);
		if (!ip)
			break;
		if (ftrace_set_filter_ip(&sa_wrap_ops, ip, 1, 0))
			pr_debug("%pS stays hooked\n", (void *)ip);
	}
}

static DECLARE_WORK(sa_prune_work, sa_prune_fn);

static notrace void sa_prune(unsigned long ip)
{
	unsigned int i;
	unsigned long cur;

	if (in_nmi())
		return;
	for (i = 0; i < SA_WRAP_PRUNE; i++) {
		cur = cmpxchg(&sa_prune_ips[i], 0UL, ip);
		if (cur == ip)
			return;		/* asked already */
		if (!cur) {
			schedule_work(&sa_prune_work);
			return;
		}
	}
}

/*
 * Is the function whose entry is ip (hooked) a wrapper? A filter pattern
 * such as *kvmalloc* takes any function whose name holds the wrapper's
 * (kvmalloc_array_node, a test module's sa_wrap_kvmalloc): the hook
 * leaves their entries alone, so that they neither replace a wrapper's
 * entry in the slot nor pay for its caller's lookup. Out of line, as is
 * sa_wrap_caller, so that the hook's common path saves no registers.
 */
static noinline notrace bool sa_wrap_entry(struct sa_wrap_slot *w,
					   unsigned long ip)
{
	if (sa_entry_class(ip) == SA_SITE_WRAP) {
		w->entry = ip;
		if (!READ_ONCE(sa_wrap_seen))
			WRITE_ONCE(sa_wrap_seen, true);
		return true;
	}
	/* until a wrapper is seen, it is classified again: not yet pruned */
	if (READ_ONCE(sa_wrap_seen)) {
		w->skip = ip;
		sa_prune(ip);
	}
	return false;
}

/*
 * The caller to keep for a wrapper's entry called from parent_ip, which
 * is not slot w's plain caller
 */
static noinline notrace unsigned long
sa_wrap_caller(struct sa_wrap_slot *w, unsigned long parent_ip,
	       unsigned long switches)
{
	u32 p = sa_site_row(parent_ip, SA_KMALLOC);

	if (p >= sa_table_sites())
		return 0;
	if (sa_site_class_of(p, parent_ip) == SA_SITE_WRAP)
		return w->task == current && w->switches == switches &&
		       sa_in_function(p, parent_ip, w->ip) ? w->caller : 0;
	w->plain = parent_ip;
	return parent_ip;
}

/*
 * Before the wrapper's body, with preemption off (the slot is this
 * CPU's). The ops has no FTRACE_OPS_FL_RECURSION, so ftrace's trampoline
 * calls this directly, and this takes no recursion lock of its own (it
 * cost 52 instructions per hooked entry on 6.12-cloud): it calls none of
 * the functions it hooks (sa_site_row and sa_classify reach kallsyms
 * and sprintf, no allocation wrapper), so it can only run inside itself
 * at one context level through another tracer of the functions it
 * calls, and the inner run's slot is then overwritten by the outer's,
 * the latest entry still running, as it should be.
 */
static __always_inline void sa_wrap_store(struct sa_wrap_slot *w,
					  unsigned long ip,
					  unsigned long caller,
					  unsigned long switches)
{
	w->task = current;
	w->switches = switches;
	w->ip = ip;
	w->caller = caller;
}

/*
 * The hook's uncommon path: the probes paused, an entry that is not the
 * slot's latest wrapper's, or a caller that is not its plain caller.
 * Out of line, so that the common path is a leaf that saves no register
 * and builds no frame (on kernels without a per-ops trampoline, 6.1's
 * arm64 and arm, each hooked entry already pays ftrace's list function).
 */
static noinline notrace void sa_wrap_hook_slow(struct sa_wrap_slot *w,
					       unsigned long ip,
					       unsigned long parent_ip)
{
	unsigned long switches = sa_switches(), caller = parent_ip;

	if (sa_is_paused()) {
		caller = 0;
	} else {
		if (ip != w->entry && (ip == w->skip || !sa_wrap_entry(w, ip)))
			return;
		if (parent_ip != w->plain)
			caller = sa_wrap_caller(w, parent_ip, switches);
	}
	sa_wrap_store(w, ip, caller, switches);
}

static notrace void sa_wrap_hook(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	struct sa_wrap_slot *w;

	preempt_disable_notrace();
	w = sa_my_slot();
	if (likely(ip == w->entry && parent_ip == w->plain) && !sa_is_paused())
		sa_wrap_store(w, ip, parent_ip, sa_switches());
	else
		sa_wrap_hook_slow(w, ip, parent_ip);
	preempt_enable_notrace();
}

/*
 * The caller slot w's hook caught for an allocation at row site, or 0
 */
static __always_inline unsigned long
sa_slot_caller(const struct sa_wrap_slot *w, u32 site, unsigned long call_site)
{
	if (w->task != current || w->switches != sa_switches() ||
	    !sa_in_function(site, call_site, w->ip))
		return 0;
	return w->caller;
}

/*
 * The row of an allocation at call_site, of that kind, if this CPU's slot
 * knows call_site as a wrapper's call site (via_key), else SA_NO_ROW: the
 * pair row it holds if the hook caught the same caller again, else the
 * row sa_attribute finds. Reads no table on a loop's allocations.
 */
u32 sa_wrap_cached(unsigned long call_site, enum sa_kind kind)
{
	struct sa_wrap_slot *w = sa_my_slot();
	unsigned long caller;

	if (w->via_key != call_site || (w->via & 1) != kind)
		return SA_NO_ROW;
	caller = sa_slot_caller(w, w->via, call_site);
	if (caller && caller == w->pair_caller)
		return w->pair;
	return sa_attribute(w->via, call_site, kind);
}

/* What the hook caught for an allocation at row site, and where to cache */
static unsigned long sa_hooked_caller(u32 site, unsigned long call_site,
				      struct sa_wrap_slot **slot)
{
	struct sa_wrap_slot *w = sa_my_slot();

	w->via_key = call_site;
	w->via = site;
	w->pair_caller = 0;
	*slot = w;
	return sa_slot_caller(w, site, call_site);
}

/* Remember (via, caller)'s row for the next allocation: sa_wrap_cached */
static void sa_wrap_remember(struct sa_wrap_slot *w, unsigned long caller,
			     u32 via, u32 row)
{
	if (w && row != via) {
		w->pair_caller = caller;
		w->pair = row;
	}
}

/* Only while the probes are paused and quiescent (sa_account_clear) */
void sa_wrap_clear(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sa_wrap_slots, cpu), 0,
		       sizeof(sa_wrap_slots));
	memset(sa_entry_ips, 0, sizeof(sa_entry_ips));
	memset(sa_entry_classes, 0, sizeof(sa_entry_classes));
}

static struct ftrace_ops sa_wrap_ops = {
	.func = sa_wrap_hook,
};

/*
 * Hook the wrappers' entries: one filter pattern per name that holds no
 * other (*kstrdup* takes kstrdup_const, devm_kstrdup, kstrdup_noprof; it
 * takes a few functions that are not wrappers, kstrdup_quotable_cmdline,
 * whose callers are recorded for nothing). Each pattern is a pass over
 * all of ftrace's functions: about a dozen at load. Without any (no
 * function of the names traceable), no hook: the stack walk alone.
 */
int sa_wrap_init(void)
{
	unsigned int i, j, n = 0;
	char pat[40];
	int ret;

	for (i = 0; i < ARRAY_SIZE(sa_wrappers); i++) {
		for (j = 0; j < ARRAY_SIZE(sa_wrappers); j++)
			if (j != i && strstr(sa_wrappers[i], sa_wrappers[j]))
				break;
		if (j < ARRAY_SIZE(sa_wrappers))
			continue;
		snprintf(pat, sizeof(pat), "*%s*", sa_wrappers[i]);
		if (!ftrace_set_filter(&sa_wrap_ops, (unsigned char *)pat,
				       strlen(pat), 0))
			n++;
	}
	/* an ops without a filter would hook every function */
	ret = n ? register_ftrace_function(&sa_wrap_ops) : -ENOENT;
	if (ret) {
		pr_info("no function hook on the allocation wrappers (%d): their callers are found by a stack walk\n",
			ret);
		ftrace_free_filter(&sa_wrap_ops);
		return 0;
	}
	sa_wrap_on = true;
	return 0;
}

void sa_wrap_exit(void)
{
	if (!sa_wrap_on)
		return;
	unregister_ftrace_function(&sa_wrap_ops);
	/* no hook runs now to ask for more */
	cancel_work_sync(&sa_prune_work);
	ftrace_free_filter(&sa_wrap_ops);
	memset(sa_prune_ips, 0, sizeof(sa_prune_ips));
	sa_pruned = 0;
	sa_wrap_seen = false;
	sa_wrap_on = false;
}
#else
/* Without dynamic ftrace, no filter: the stack walk alone */
struct sa_wrap_slot;

static unsigned long sa_hooked_caller(u32 site, unsigned long call_site,
				      struct sa_wrap_slot **slot)
{
	*slot = NULL;
	return 0;
}

static void sa_wrap_remember(struct sa_wrap_slot *w, unsigned long caller,
			     u32 via, u32 row)
{
}

u32 sa_wrap_cached(unsigned long call_site, enum sa_kind kind)
{
	return SA_NO_ROW;
}

void sa_wrap_clear(void)
{
}

int sa_wrap_init(void)
{
	return 0;
}

void sa_wrap_exit(void)
{
}
#endif

#ifdef CONFIG_STACKTRACE
/*
 * The caller of call_site among n frames: the first frame outwards of it
 * outside the wrappers; 0 if there is none among them, -1UL if the table
 * has no room to classify a frame.
 */
static unsigned long sa_caller(const unsigned long *frames, unsigned int n,
			       unsigned long call_site, enum sa_kind kind)
{
	unsigned int i;

	for (i = 0; i < n && frames[i] != call_site; i++)
		;
	for (i++; i < n; i++) {
		u32 f = sa_site_row(frames[i], kind);

		if (f >= sa_table_sites())
			return -1UL;
		if (sa_site_class_of(f, frames[i]) != SA_SITE_WRAP)
			return frames[i];
	}
	return 0;
}

/*
 * The row of an allocation at row site, a wrapper's call site: the pair
 * (site, its caller), or site itself if the caller is not found.
 */
u32 sa_attribute(u32 site, unsigned long call_site, enum sa_kind kind)
{
	unsigned long frames[SA_WRAP_FRAMES], caller;
	struct sa_wrap_slot *w;
	unsigned int n;
	u32 row;

	caller = sa_hooked_caller(site, call_site, &w);
	if (caller) {
		row = sa_pair_claim(site, caller);
		sa_wrap_remember(w, caller, site, row);
		return row;
	}
	n = stack_trace_save(frames, SA_WRAP_FRAMES_FEW, 1);
	caller = sa_caller(frames, n, call_site, kind);
	if (!caller && n == SA_WRAP_FRAMES_FEW) {
		n = stack_trace_save(frames, ARRAY_SIZE(frames), 1);
		caller = sa_caller(frames, n, call_site, kind);
	}
	if (caller && caller != -1UL)
		return sa_pair_claim(site, caller);
	this_cpu_inc(sa_pcpu.unattributed);
	return site;
}
#else
u32 sa_attribute(u32 site, unsigned long call_site, enum sa_kind kind)
{
	struct sa_wrap_slot *w;
	unsigned long caller = sa_hooked_caller(site, call_site, &w);
	u32 row;

	if (caller) {
		row = sa_pair_claim(site, caller);
		sa_wrap_remember(w, caller, site, row);
		return row;
	}
	this_cpu_inc(sa_pcpu.unattributed);
	return site;
}
#endif
