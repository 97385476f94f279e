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
 * (table.c, table.h), so that the other sites pay nothing. An allocation
 * at a wrapper's site takes a stack trace, finds the call site among its
 * frames, goes outwards over the frames in wrapper functions (classified
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

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "table.h"

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

/* Is the name "func" or "func [module]" a wrapper's? */
static bool sa_wrapper_name(const char *name)
{
	size_t len = strcspn(name, " ");
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

/* The class of a call site (or frame): SA_SITE_WRAP or SA_SITE_PLAIN */
u8 sa_classify(unsigned long addr)
{
	char *buf = this_cpu_ptr(sa_sym_buf)[sa_context_level()];

	sprint_symbol_no_offset(buf, addr);
	return sa_wrapper_name(buf) ? SA_SITE_WRAP : SA_SITE_PLAIN;
}

/*
 * The class of row site, a call-site row: as its claim recorded it, or
 * (claimed by another CPU that has not recorded it yet) found again.
 */
u8 sa_site_class_of(u32 site, unsigned long call_site)
{
	u8 class = READ_ONCE(sa_site_class[site]);

	return class ? class : sa_classify(call_site);
}

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
		u32 f = sa_site_claim(frames[i], kind);

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
	unsigned int n;

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
	this_cpu_inc(sa_pcpu.unattributed);
	return site;
}
#endif
