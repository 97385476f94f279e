// SPDX-License-Identifier: GPL-2.0
/*
 * Boot buffer sizing. The kmem count is that of a boot to user space of
 * Debian's 6.1 kernel in a 2-CPU, 512 MB QEMU guest with a 45 MB
 * initramfs (about 320,000 events), with some room for the drivers and
 * services of a real machine; the other groups are guesses; the bytes per event are
 * the ring-buffer record sizes of those events on x86_64 (4-byte header,
 * fields padded to 4 bytes). Early boot runs on one CPU, so one CPU's
 * buffer must hold nearly everything: the estimate is not divided by the
 * number of CPUs.
 *
 * Measured since (2-CPU x86-64 guests of the test bed, 17.6 MB
 * initramfs, kmem and boot groups, per_cpu/cpuN/stats after boot):
 *
 *   kernel      RAM    events   busy CPU (of them)  bytes/event
 *   6.1         1 GB   384,561  CPU 0: 341,372      54.7 (18,658,084 B)
 *   6.12-cloud  1 GB   365,216  CPU 1: 304,386      54.6 (16,604,528 B)
 *   6.12-cloud  256 MB 357,839  CPU 0: 333,850      54.3
 *
 * The busy CPU (the one that ran the initramfs unpacking, not always
 * CPU 0) held 83-89% of the events: 350,000 of 56 bytes covers it. With
 * the stacktrace option (a kernel_stack entry after every event):
 *
 *   6.1         1 GB   643,814 entries on CPU 0, 104,754,324 B: 325.4 B
 *                      per event with its stack, so 270.7 B per stack
 *   6.12-cloud  1 GB   386,084 entries on CPU 1, 67,109,248 B: 347.7 B
 *                      per event with its stack, 293.1 B per stack
 *
 * so a stack is counted at STACK_BYTES, 296 (not "4 times larger": an
 * event with its stack is 6 times one without).
 *
 * Where a boot's kmem events come from (6.1, 1 GB, 2 CPUs, the test
 * bed's 17.8 MB initramfs, kmem and boot groups, 64 MB per CPU: 384,267
 * events, none lost; 'slabacct report -w timeline' for the phases,
 * trace-cmd report for comm and call site):
 *
 *   the kernel, to the end of the initcalls (2.15 s)   106,329
 *     CPU 0: the init thread's initcalls 40,793 and a kworker
 *       creating tracefs's event files (d_alloc, alloc_inode,
 *       security_inode_alloc, 3 x 9,700) 29,473;
 *     CPU 1: the init thread 35,278
 *   /init of the test bed, before its script              277,939
 *     of them one insmod, virtio_pci's (the test bed's
 *     virtio-serial), 265,627: QEMU's ACPI tables interpreted
 *     as it probes (acpi_ut_create_generic_state 111,744
 *     allocations, acpi_ps_alloc_op 10,714, all freed)
 *
 * The initramfs's unpacking is not among them: 56 files. So 69% of that
 * "typical boot" is the test bed's user space, 2.6 times the kernel's
 * boot. Up to the exec of /init the busiest CPU (CPU 0) held 71,000:
 * UNTIL_INIT's 72,000, for a board whose /init stops tracing first
 * thing. In 128 MB guests (guest/boot-board@6.1, 5 MB per CPU, the
 * test bed's /init stopping the trace) the boot to /init made 99,500
 * events; the busiest CPU held 56,000 to 66,000 events (2.9 to 3.5 MB,
 * per_cpu/cpuN/stats) where counted, and 'boot collect' said "4", "5"
 * or "6 MB per CPU would do" (20% over what the busiest CPU's pages
 * held, whole MB up: "6" is over 4.2 MB of the 5 MB), never a loss. A
 * CPU may hold up to 80% of such a boot: the margin is thin, and a
 * board with more drivers built in needs its own figure. The other groups were not measured that way: their figures
 * stay those of a boot into user space.
 */
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "trace/boot-estimate.h"
#include "trace/events.h"

/* 642 measured (below), with room for a board's drivers */
#define WRAPPER_STACKS	2000

static const struct {
	enum sa_group group;
	const char *name;
	guint64 events;
	guint64 bytes_per_event;
	guint64 wrapper_stacks;	/* stacks with SA_BOOT_STACKS_WRAPPERS */
	guint64 init_events;	/* SA_BOOT_UNTIL_INIT's events */
} typical[] = {
	/*
	 * WRAPPER_STACKS: allocations at a wrapper's call site, measured
	 * in the 6.12-cloud boot of guest/boot-board (kernel_stack
	 * entries of a trace_trigger= boot).
	 */
	{ SA_GROUP_KMEM, "kmem", 350000, 56, WRAPPER_STACKS, 72000 },
	/* half of them allocations, each with a stack */
	{ SA_GROUP_PAGE, "page", 150000, 44, 75000, 150000 },
	{ SA_GROUP_VMSCAN, "vmscan", 2000, 64, 0, 2000 },
	{ SA_GROUP_COMPACTION, "compaction", 2000, 56, 0, 2000 },
	{ SA_GROUP_OOM, "oom", 100, 64, 0, 100 },
	/*
	 * about 2,000 initcalls, 9 levels and the execs of user space;
	 * to /init, 684 (674 initcalls, 10 levels) measured
	 */
	{ SA_GROUP_BOOT, "boot", 3000, 24, 0, 1000 },
	/* vmap areas and percpu chunks of the drivers and modules loaded */
	{ SA_GROUP_VMALLOC, "vmalloc", 5000, 64, 2500, 5000 },
	{ SA_GROUP_PERCPU, "percpu", 5000, 80, 0, 5000 },
};

/*
 * ARM boots. Debian's 6.1 kernels for arm64 and armhf under QEMU (1 GB,
 * maxcpus=1, so one CPU holds the whole boot; make demo ARCH=...,
 * per_cpu/cpu0/stats and the report's event count, kmem and boot groups,
 * into user space to 'boot collect', none lost):
 *
 *   arm64   73,780 and 74,537 events    armhf   73,576 events
 *   armhf, 128 MB, 2 CPUs (arm/board): 74,444 events
 *
 * a fifth of x86-64's 350,000: the test bed's x86-64 guest spends 69% of
 * its boot in one virtio_pci probe interpreting QEMU's ACPI tables,
 * which the ARM boots do not show. ARM_EVENTS keeps
 * x86-64's 10% of room over the measured count. The boot to /init was
 * not counted apart on ARM: x86-64's 72,000 (under the whole ARM boot)
 * stands. The record and stack sizes are x86-64's: the same layout on
 * arm64, and more than 32-bit ARM's (4-byte pointers).
 */
#define ARM_EVENTS	80000

const char *sa_boot_arch_name(enum sa_boot_arch arch)
{
	switch (arch) {
	case SA_BOOT_ARCH_ARM64:
		return "arm64";
	case SA_BOOT_ARCH_ARM:
		return "arm";
	default:
		return "x86_64";
	}
}

int sa_boot_arch_parse(const char *name, enum sa_boot_arch *arch)
{
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64") ||
	    !strcmp(name, "x86-64"))
		*arch = SA_BOOT_ARCH_X86_64;
	else if (!strcmp(name, "arm64") || !strcmp(name, "aarch64"))
		*arch = SA_BOOT_ARCH_ARM64;
	else if (!strcmp(name, "arm") || !strcmp(name, "armhf") ||
		 g_str_has_prefix(name, "armv7") ||
		 g_str_has_prefix(name, "armv6"))
		*arch = SA_BOOT_ARCH_ARM;
	else
		return -1;
	return 0;
}

enum sa_boot_arch sa_boot_arch_this(void)
{
	enum sa_boot_arch arch = SA_BOOT_ARCH_X86_64;
	struct utsname u;

	if (!uname(&u))
		sa_boot_arch_parse(u.machine, &arch);
	return arch;
}

#define MB_KB		((guint64)1024)
#define STACK_BYTES	296
#define HEADROOM(x)	((x) + (x) / 4)	/* page headers, padding, variance */

static guint64 round_mb_kb(guint64 bytes)
{
	guint64 kb = (bytes + 1023) / 1024;

	return (kb + MB_KB - 1) / MB_KB * MB_KB;
}

void sa_boot_estimate(unsigned int groups, struct sa_boot_estimate *est)
{
	sa_boot_estimate_stacks(groups, SA_BOOT_STACKS_NONE, est);
}

void sa_boot_estimate_stacks(unsigned int groups, enum sa_boot_stacks stacks,
			     struct sa_boot_estimate *est)
{
	sa_boot_estimate_until(groups, stacks, SA_BOOT_UNTIL_COLLECT, est);
}

void sa_boot_estimate_until(unsigned int groups, enum sa_boot_stacks stacks,
			    enum sa_boot_until until,
			    struct sa_boot_estimate *est)
{
	sa_boot_estimate_arch(groups, stacks, until, SA_BOOT_ARCH_X86_64, est);
}

void sa_boot_estimate_arch(unsigned int groups, enum sa_boot_stacks stacks,
			   enum sa_boot_until until, enum sa_boot_arch arch,
			   struct sa_boot_estimate *est)
{
	size_t i;

	memset(est, 0, sizeof(*est));
	for (i = 0; i < G_N_ELEMENTS(typical); i++) {
		struct sa_boot_share *s;

		if (!(groups & typical[i].group))
			continue;
		s = &est->shares[est->nr_shares++];
		s->group = typical[i].name;
		s->events = until == SA_BOOT_UNTIL_INIT ?
			    typical[i].init_events : typical[i].events;
		if (typical[i].group == SA_GROUP_KMEM &&
		    arch != SA_BOOT_ARCH_X86_64)
			s->events = MIN(s->events, ARM_EVENTS);
		if (stacks == SA_BOOT_STACKS_ALL)
			s->stacks = s->events;
		else if (stacks == SA_BOOT_STACKS_WRAPPERS)
			s->stacks = typical[i].wrapper_stacks;
		s->bytes = s->events * typical[i].bytes_per_event +
			   s->stacks * STACK_BYTES;
		est->total_bytes += s->bytes;
	}
	est->buffer_kb = round_mb_kb(HEADROOM(est->total_bytes));
}

/*
 * The budget. SA_BOOT_RESERVE_MB: on a 128 MB x86-64 guest, Debian's 6.1
 * kernel leaves 53.7 MB available at boot ("Memory: 53744K/130552K
 * available": its image with 17 MB of bss, the memory map and the 17.6 MB
 * initramfs held until it is unpacked); unpacking it fills 17.7 MB of
 * tmpfs, so about 18.6 MB are free at that peak. There, 2 x 8 MB of
 * buffers panicked the guest ("System is deadlocked on memory", in
 * unpack_to_rootfs); 2 x 6 MB booted, but 'boot collect' writing its
 * 12 MB file to the guest's tmpfs and 'slabacct report' reading it there
 * ran out of memory (the OOM killer took the report); 2 x 4 MB booted
 * alone but panicked the same way in 3 of 3 boots with a CPU hog beside
 * (perhaps as the unpacking, which runs beside other initcalls, then
 * overlaps them more); 2 x 2 MB and 2 x 1 MB booted there (28 and 30 MB
 * free after boot, 32 MB without tracing).
 *
 * Measured again (the same guest, a 17.8 MB initramfs of 56 files):
 * "Memory: 53192K/130552K available" (77 MB reserved: the kernel's 46 MB
 * image with its 17 MB of bss, the 18.2 MB initrd, the memory map);
 * after boot, without tracing, MemFree 35.6 MB, MemAvailable 41.9 MB,
 * Shmem 18.3 MB (the unpacked initramfs), Slab 16.9 MB. Until "Freeing
 * initrd memory" the initrd and its unpacked copy are both held: about
 * 17.4 MB free at that peak, so the fixed cost at the peak is 110.6 MB,
 * twice the initramfs's size in it. 2 x 5 MB of buffers (25.4 MB free
 * after boot) booted 3 of 3, 2 of them with two CPU hogs beside (and
 * guest/boot-board's runs since), leaving 7.4 MB at the peak (the
 * 2 x 4 MB panics with a hog above did not come back); 2 x 8 MB (1.4 MB
 * left) panicked. So: what remains of the RAM past 108 MB,
 * halved (the other half for slab, page cache, user space and the
 * collected file): 10 MB on 128 MB (guest/boot-board), 74 MB on 256 MB
 * (6.12-cloud there: 2 x 36 MB booted, 105 MB free after boot). A board
 * with a larger initramfs pays twice its size at the peak: --budget.
 *
 * SA_BOOT_EARLY_MB: a CPU's buffer is allocated as it comes up, early in
 * boot, and the kernel refuses it when its size passes the memory then
 * available (si_mem_available(), before deferred struct pages are
 * initialised: "Memory: 260916K/1048056K available" on a 1 GB 6.1
 * guest), and the CPU does not come up ("failed to allocate ring buffer
 * on CPU 1"): 2 x 120 MB booted there, 2 x 128 MB did not, and with a
 * CPU hog beside, 2 x 112 MB did not either (guest/boot-stacks@6.1):
 * 192 MB, 2 x 96 MB. (6.12-cloud there refused CPU 0's 600 MB early,
 * leaving no buffer at all; 2 x 450 MB booted.)
 *
 * SA_BOOT_EARLY_ARM64_MB: Debian's arm64 6.1 kernel defers all but its
 * first 128 MB section (DEFERRED_STRUCT_PAGE_INIT, the pages past it
 * initialised in kernel_init, after the CPUs are up): "Memory:
 * 98324K/1048576K available" in a 1 GB QEMU guest, 96 MB, and the same
 * with 512 MB, so more RAM does not raise it. There trace_buf_size=149M
 * failed ("tracer: failed to allocate ring buffer!", no trace at all);
 * 48M with maxcpus=1 booted and lost nothing (make demo ARCH=arm64,
 * arm/demo), leaving the early boot half of that memory. (armhf, 32-bit,
 * has 964 MB then of 1 GB: x86-64's 192 MB holds there, 149M booted.)
 */
void sa_boot_budget(guint64 mem_mb, unsigned int cpus, guint64 total_mb,
		    struct sa_boot_budget *b)
{
	sa_boot_budget_arch(mem_mb, cpus, total_mb, SA_BOOT_ARCH_X86_64, b);
}

void sa_boot_budget_arch(guint64 mem_mb, unsigned int cpus,
			 guint64 total_mb, enum sa_boot_arch arch,
			 struct sa_boot_budget *b)
{
	memset(b, 0, sizeof(*b));
	b->mem_mb = mem_mb;
	b->cpus = cpus ? cpus : 1;
	b->early_mb = arch == SA_BOOT_ARCH_ARM64 ? SA_BOOT_EARLY_ARM64_MB :
		      SA_BOOT_EARLY_MB;
	if (!total_mb) {
		total_mb = mem_mb > SA_BOOT_RESERVE_MB ?
			   (mem_mb - SA_BOOT_RESERVE_MB) / 2 : 0;
		if (total_mb > b->early_mb) {
			total_mb = b->early_mb;
			b->capped = true;
		}
	}
	b->total_kb = total_mb * MB_KB;
	b->cpu_kb = total_mb / b->cpus * MB_KB;
}

static guint64 memory_blocks_mb(void)
{
	const char *base = "/sys/devices/system/memory";
	char *text = NULL, *path, *end;
	const gchar *name;
	guint64 block = 0, n = 0;
	GDir *dir;

	path = g_strdup_printf("%s/block_size_bytes", base);
	if (g_file_get_contents(path, &text, NULL, NULL))
		block = g_ascii_strtoull(text, &end, 16);
	g_free(text);
	g_free(path);
	if (!block || block > ((guint64)1 << 40))
		return 0;
	dir = g_dir_open(base, 0, NULL);
	if (!dir)
		return 0;
	while ((name = g_dir_read_name(dir)) && n < (1 << 20)) {
		if (!g_str_has_prefix(name, "memory") ||
		    !g_ascii_isdigit(name[6]))
			continue;
		path = g_strdup_printf("%s/%s/online", base, name);
		text = NULL;
		if (g_file_get_contents(path, &text, NULL, NULL) &&
		    text[0] == '1')
			n++;
		g_free(text);
		g_free(path);
	}
	g_dir_close(dir);
	return n * block / (1024 * 1024);
}

void sa_boot_this_machine(guint64 *mem_mb, unsigned int *cpus)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	*mem_mb = memory_blocks_mb();
	if (!*mem_mb && pages > 0 && size > 0)
		*mem_mb = (guint64)pages * size / (1024 * 1024);
	*cpus = n > 0 ? (unsigned int)MIN(n, 4096) : 0;
}

char *sa_boot_cmdline(unsigned int groups, guint64 buffer_kb)
{
	const struct sa_event_desc *d;
	GString *s = g_string_new("trace_event=");
	gboolean first = TRUE;

	for (d = sa_event_table(); d->name; d++) {
		if (!(d->group & groups))
			continue;
		g_string_append_printf(s, "%s%s:%s", first ? "" : ",",
				       d->system, d->name);
		first = FALSE;
	}
	if (buffer_kb % MB_KB == 0)
		g_string_append_printf(s, " trace_buf_size=%" G_GUINT64_FORMAT
				       "M", buffer_kb / MB_KB);
	else
		g_string_append_printf(s, " trace_buf_size=%" G_GUINT64_FORMAT
				       "K", buffer_kb);
	g_string_append(s, " trace_clock=global");
	return g_string_free(s, FALSE);
}

guint64 sa_boot_needed_kb(int nr_cpus, const guint64 *bytes,
			  const guint64 *events, const guint64 *lost)
{
	guint64 worst = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		guint64 need;

		if (!events[cpu])
			continue;
		/* what it kept, scaled up to what it was sent */
		need = (guint64)((double)bytes[cpu] *
				 (events[cpu] + lost[cpu]) / events[cpu]);
		if (need > worst)
			worst = need;
	}
	if (!worst)
		return 0;
	return round_mb_kb(worst + worst / 5);
}
