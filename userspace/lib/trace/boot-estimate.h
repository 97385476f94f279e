/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizing the boot-time ring buffer: the kernel parameters that start
 * slabacct's events at boot, an estimate of the per-CPU buffer a typical
 * boot needs, and, after a boot, the size that would have lost nothing.
 */
#ifndef SLABACCT_BOOT_ESTIMATE_H
#define SLABACCT_BOOT_ESTIMATE_H

#include <stdbool.h>
#include <glib.h>

/*
 * The board's architecture: the typical boot's events and the memory the
 * kernel has when it allocates the ring buffer differ between them (the
 * figures and where they come from: trace/boot-estimate.c).
 */
enum sa_boot_arch {
	SA_BOOT_ARCH_X86_64,
	SA_BOOT_ARCH_ARM64,
	SA_BOOT_ARCH_ARM,		/* 32-bit ARM (armhf, ARMv7) */
};

/* "x86_64", "arm64", "arm"; parse takes aarch64, armhf, armv7l too */
const char *sa_boot_arch_name(enum sa_boot_arch arch);
int sa_boot_arch_parse(const char *name, enum sa_boot_arch *arch);
/* This machine's (uname); x86_64 when it is none of the three */
enum sa_boot_arch sa_boot_arch_this(void);

/* One group's share of the estimate. */
struct sa_boot_share {
	const char *group;
	guint64 events;		/* events of a typical boot */
	guint64 stacks;		/* how many of them get a kernel stack */
	guint64 bytes;		/* their ring-buffer bytes, stacks included */
};

/* Which events get a kernel stack at boot */
enum sa_boot_stacks {
	SA_BOOT_STACKS_NONE,
	SA_BOOT_STACKS_WRAPPERS,	/* trace_trigger=: allocations at a
					 * wrapper's call site (and every
					 * page and vmap area allocation) */
	SA_BOOT_STACKS_ALL,		/* trace_options=stacktrace */
};

/* Where the capture ends: at 'boot collect', or where /init starts */
enum sa_boot_until {
	SA_BOOT_UNTIL_COLLECT,		/* a boot into user space */
	SA_BOOT_UNTIL_INIT,		/* /init stops tracing first thing */
};

struct sa_boot_estimate {
	struct sa_boot_share shares[12];
	int nr_shares;
	guint64 total_bytes;
	guint64 buffer_kb;	/* per CPU, headroom included, whole MB */
};

/* The estimate for a group mask (enum sa_group), without stacks. */
void sa_boot_estimate(unsigned int groups, struct sa_boot_estimate *est);
void sa_boot_estimate_stacks(unsigned int groups, enum sa_boot_stacks stacks,
			     struct sa_boot_estimate *est);
/* The same for a capture that ends at until */
void sa_boot_estimate_until(unsigned int groups, enum sa_boot_stacks stacks,
			    enum sa_boot_until until,
			    struct sa_boot_estimate *est);
/* The same for a board of arch (the others: x86_64's) */
void sa_boot_estimate_arch(unsigned int groups, enum sa_boot_stacks stacks,
			   enum sa_boot_until until, enum sa_boot_arch arch,
			   struct sa_boot_estimate *est);

/*
 * The board's budget for the ring buffers of a boot trace: all CPUs'
 * together (every CPU gets trace_buf_size). The default and why are said
 * at SA_BOOT_RESERVE_MB in trace/boot-estimate.c.
 */
#define SA_BOOT_RESERVE_MB	108	/* kernel, initramfs, user space */
#define SA_BOOT_EARLY_MB	192	/* what CPU bringup can allocate */
#define SA_BOOT_EARLY_ARM64_MB	48	/* the same on arm64 */
struct sa_boot_budget {
	guint64 mem_mb;		/* the board's RAM */
	unsigned int cpus;	/* its CPUs: each gets a buffer */
	guint64 total_kb;	/* all buffers together */
	guint64 cpu_kb;		/* one CPU's share, whole MB; 0: none */
	bool capped;		/* total_kb is the early cap */
	guint64 early_mb;	/* that cap: the arch's SA_BOOT_EARLY_*MB */
};

/*
 * The budget of a board of mem_mb MB and cpus CPUs: total_mb if not 0,
 * else (mem_mb - SA_BOOT_RESERVE_MB) / 2, at most SA_BOOT_EARLY_MB.
 */
void sa_boot_budget(guint64 mem_mb, unsigned int cpus, guint64 total_mb,
		    struct sa_boot_budget *b);
/* The same on arch: at most SA_BOOT_EARLY_ARM64_MB on arm64 */
void sa_boot_budget_arch(guint64 mem_mb, unsigned int cpus,
			 guint64 total_mb, enum sa_boot_arch arch,
			 struct sa_boot_budget *b);

/* "trace_event=kmem:kmalloc,... trace_buf_size=16M trace_clock=global" */
char *sa_boot_cmdline(unsigned int groups, guint64 buffer_kb);

/*
 * This machine as a board: its RAM in MB (the online memory blocks of
 * /sys/devices/system/memory, which count what the kernel keeps for
 * itself, unlike MemTotal; else the pages the kernel manages) and its
 * online CPUs. 0 for what cannot be read.
 */
void sa_boot_this_machine(guint64 *mem_mb, unsigned int *cpus);

/*
 * After a boot: the per-CPU size in KB (whole MB, 20% headroom) that
 * would have held every event, from what each CPU kept (bytes, events)
 * and lost. 0 when no CPU recorded anything.
 */
guint64 sa_boot_needed_kb(int nr_cpus, const guint64 *bytes,
			  const guint64 *events, const guint64 *lost);

#endif /* SLABACCT_BOOT_ESTIMATE_H */
