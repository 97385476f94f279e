// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct boot cmdline [--mem MB] [--cpus N] [-e GROUPS] [--stacks] ...
 * slabacct boot collect [-o FILE] [--fail-on-lost]
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <tracefs.h>

#include "trace/boot-estimate.h"
#include "trace/boot-kernel.h"
#include "trace/boot-log.h"
#include "cli/cmd.h"
#include "util/outfile.h"
#include "trace/events.h"
#include "trace/recorder.h"
#include "snapshot/snapshot.h"

static const char cmdline_description[] =
	"Prints, on one line of standard output, the kernel parameters that\n"
	"record the events of GROUPS from early boot into the top-level ring\n"
	"buffer of a board of MB megabytes and N CPUs (default: this machine's\n"
	"RAM and online CPUs); how they were chosen goes to standard error.\n"
	"\n"
	"  trace_event=...     every event of the groups, and of the boot\n"
	"                      group always (initcall levels, initcall ends,\n"
	"                      execs: the report's boot phases); a kernel\n"
	"                      that lacks one skips it ('Failed to enable\n"
	"                      trace event')\n"
	"  trace_buf_size=N    per CPU, and every CPU gets it. The estimate\n"
	"                      for a typical boot is what the busiest CPU\n"
	"                      (the one that unpacks the initramfs, not\n"
	"                      always CPU 0) records, within the budget: all\n"
	"                      CPUs' buffers together take at most (MB - 108)\n"
	"                      / 2 (108 MB: a Debian kernel and its 18 MB\n"
	"                      initramfs, held twice while it is unpacked, on\n"
	"                      a 128 MB board; half of the rest left to slab,\n"
	"                      user space and 'boot collect'), and at most\n"
	"                      192 MB, 48 MB on arm64 (more keeps\n"
	"                      a CPU from coming up, or on arm64 the boot\n"
	"                      from having a buffer at all: it is allocated\n"
	"                      early, before most memory is initialised)\n"
	"  trace_clock=global  when the kernel finds the TSC unstable (under\n"
	"                      QEMU TCG, about 3 s into boot) it switches the\n"
	"                      trace clock to global, which resets the ring\n"
	"                      buffer and loses every boot event so far.\n"
	"                      Starting on the global clock avoids the switch\n"
	"\n"
	"With --stacks, a kernel stack with the allocations 'slabacct report'\n"
	"needs to name a wrapper's caller. Where the kernel takes per-event\n"
	"triggers at boot (trace_trigger=), only the allocations at an\n"
	"allocation wrapper's call site get one (a filter on\n"
	"call_site.function, with the kernel's own names of the wrappers);\n"
	"elsewhere trace_options=stacktrace puts one after every event, 6\n"
	"times the buffer (or load slab_account.ko, which attributes wrapper\n"
	"sites in the kernel, instead). What the kernel has is read from its\n"
	"symbols: --kernel-symbols FILE (its kallsyms or System.map), by\n"
	"default this machine's /proc/kallsyms: run it on the board, or give\n"
	"the board kernel's symbols.\n"
	"\n"
	"With --hist, the kernel's histograms of kmalloc and kmem_cache_alloc\n"
	"keyed by call site from boot (trace_trigger=, where the kernel takes\n"
	"it: 6.2 and later, read from its symbols as for --stacks; refused\n"
	"elsewhere, exit 2): allocations and bytes per site counted in the\n"
	"kernel, in about 1.2 MB of slab for the four maps of --hist-size\n"
	"2048 sites (measured on 6.12-cloud),\n"
	"with no ring buffer. After boot: cat /sys/kernel/tracing/events/kmem/\n"
	"{kmalloc,kmem_cache_alloc}/hist > boot.hist; slabacct report\n"
	"boot.hist. -e boot keeps the raw trace to the boot phases.\n"
	"\n"
	"--arch x86_64|arm64|arm is the board's architecture: it sets the\n"
	"typical boot (an ARM 6.1 boot to user space is 80,000 kmem events,\n"
	"x86-64's 350,000) and the early-boot cap. Default: read from\n"
	"--kernel-symbols FILE when given, else this machine's.\n"
	"\n"
	"--maxcpus N boots the board with N CPUs (maxcpus=N): the others stay\n"
	"offline and get no buffer, so the budget is shared by N.\n"
	"\n"
	"--until init sizes the buffer for a capture that ends where the\n"
	"board's /init starts: its first command stops tracing (echo 0 >\n"
	"/sys/kernel/tracing/tracing_on). A typical boot into user space is\n"
	"350,000 kmem events on its busiest CPU on x86-64, 80,000 on ARM; the\n"
	"kernel's boot to /init, 72,000 (Debian's 6.1).\n"
	"\n"
	"Exit status: 0; 4 when a typical boot's events do not fit the budget\n"
	"(the parameters are printed all the same, within the budget, and\n"
	"standard error says what to drop: stacks, groups or CPUs); 2 for bad\n"
	"usage, a budget under 1 MB per CPU, or a --buffer-size above it.\n"
	"\n"
	"After boot, 'slabacct boot collect -o boot.dat' saves the buffer and\n"
	"says how large it should have been.\n"
	"\n"
	"Example:\n"
	"  slabacct boot cmdline --mem 128 --cpus 2 -q   # for the board\n"
	"  qemu-system-x86_64 ... -append \"console=ttyS0 $(slabacct boot "
	"cmdline)\"\n";

static const char collect_description[] =
	"Stops the top-level ring buffer filled since boot (see 'slabacct boot\n"
	"cmdline') first, so that it does not record itself, disables its\n"
	"events, and saves it as a trace.dat (version 6) like 'slabacct\n"
	"record', with the kernel release, /proc/cmdline, /proc/meminfo,\n"
	"/proc/slabinfo (the report's coverage section) and the events each\n"
	"CPU lost because the buffer filled. When events were lost it says\n"
	"which trace_buf_size would have kept them all. The pages go from the\n"
	"buffer to files beside FILE: its memory does not grow with them.\n"
	"\n"
	"FILE is written like record's (see 'slabacct record --help'): mode\n"
	"0600, since it holds kallsyms and heap pointers; renamed into place\n"
	"when complete; a symlink at FILE is refused unless --follow-symlinks.\n"
	"When the buffer would not fit where FILE goes, nothing is read or\n"
	"written and the buffer is kept, to collect elsewhere.\n"
	"\n"
	"Exit status: 0; 1 when saving failed or the disk filled (nothing\n"
	"half-written is kept); 2 for bad usage or a missing requirement\n"
	"(root, tracefs); with --fail-on-lost, 4 when the boot buffer lost\n"
	"events (FILE is written and says so).\n";

static void boot_usage(FILE *f)
{
	fprintf(f, "usage: slabacct boot cmdline [--mem MB] [--cpus N] "
		   "[--maxcpus N]\n"
		   "                             [-e GROUPS] [--stacks] "
		   "[--until init]\n"
		   "       slabacct boot collect [-o FILE] [--fail-on-lost]\n"
		   "'slabacct boot SUBCOMMAND --help' describes one.\n");
}

static void explain(unsigned int groups, const struct sa_boot_estimate *est,
		    const struct sa_boot_budget *b, guint64 buffer_kb,
		    enum sa_boot_until until, enum sa_boot_arch arch)
{
	int i, n = 0;
	const struct sa_event_desc *d;

	for (d = sa_event_table(); d->name; d++)
		n += !!(d->group & groups);
	fprintf(stderr, "# trace_event: the %d events of the groups; a kernel "
		"skips those it lacks\n", n);
	fprintf(stderr, "# budget: %" G_GUINT64_FORMAT " MB of buffers for "
		"%" G_GUINT64_FORMAT " MB and %u CPU%s (%s): %s%s; %"
		G_GUINT64_FORMAT " MB per CPU\n", b->total_kb / 1024, b->mem_mb,
		b->cpus, b->cpus == 1 ? "" : "s", sa_boot_arch_name(arch),
		b->capped ? "the most the early boot can allocate on " :
		"(RAM - 108 MB) / 2", b->capped ? sa_boot_arch_name(arch) : "",
		b->cpu_kb / 1024);
	fprintf(stderr, "# trace_buf_size: a typical %s boot%s on its busiest "
		"CPU (events x record size):\n", sa_boot_arch_name(arch),
		until == SA_BOOT_UNTIL_INIT ? " until /init" : "");
	for (i = 0; i < est->nr_shares; i++)
		fprintf(stderr, "#   %-11s %8" G_GUINT64_FORMAT " events %8"
			G_GUINT64_FORMAT " stacks %6.1f MB\n",
			est->shares[i].group, est->shares[i].events,
			est->shares[i].stacks,
			est->shares[i].bytes / 1048576.0);
	fprintf(stderr, "#   + 25%% for page headers and variance, rounded "
		"up: %" G_GUINT64_FORMAT " MB; asked: %" G_GUINT64_FORMAT
		" KB per CPU\n", est->buffer_kb / 1024, buffer_kb);
	fprintf(stderr, "# trace_clock=global: a TSC found unstable during boot "
		"(QEMU TCG) makes the kernel\n#   switch clocks, which resets "
		"the buffer; starting on global avoids it\n");
	fprintf(stderr, "# after boot: slabacct boot collect -o boot.dat\n");
}

/* What a boot that does not fit can drop, and whether each would fit. */
static void what_to_drop(unsigned int groups, enum sa_boot_stacks stacks,
			 enum sa_boot_until until, enum sa_boot_arch arch,
			 const struct sa_boot_estimate *est,
			 const struct sa_boot_budget *b)
{
	struct sa_boot_estimate e;

	fprintf(stderr, "slabacct boot cmdline: a typical boot%s needs %"
		G_GUINT64_FORMAT " MB on its busiest CPU, and the budget "
		"gives %" G_GUINT64_FORMAT " MB per CPU: events will be lost "
		"(the oldest: the start of the boot). To fit, drop:\n",
		until == SA_BOOT_UNTIL_INIT ? " until /init" : "",
		est->buffer_kb / 1024, b->cpu_kb / 1024);
	if (until == SA_BOOT_UNTIL_COLLECT) {
		sa_boot_estimate_arch(groups, stacks, SA_BOOT_UNTIL_INIT, arch,
				      &e);
		fprintf(stderr, "  user space (--until init: /init stops "
			"tracing first thing): %" G_GUINT64_FORMAT " MB%s\n",
			e.buffer_kb / 1024, e.buffer_kb <= b->cpu_kb ?
			", fits" : "");
	}
	if (stacks != SA_BOOT_STACKS_NONE) {
		sa_boot_estimate_arch(groups, SA_BOOT_STACKS_NONE, until, arch,
				      &e);
		fprintf(stderr, "  stacks (no --stacks): %" G_GUINT64_FORMAT
			" MB%s\n", e.buffer_kb / 1024, e.buffer_kb <= b->cpu_kb ?
			", fits" : "");
	}
	if (groups & ~(SA_GROUP_KMEM | SA_GROUP_BOOT)) {
		sa_boot_estimate_arch(SA_GROUP_KMEM | SA_GROUP_BOOT, stacks,
				      until, arch, &e);
		fprintf(stderr, "  groups (-e kmem): %" G_GUINT64_FORMAT
			" MB%s\n", e.buffer_kb / 1024, e.buffer_kb <= b->cpu_kb ?
			", fits" : "");
	}
	if (b->cpus > 1)
		fprintf(stderr, "  CPUs (--maxcpus 1: the boot runs on one "
			"CPU, maxcpus=1): one buffer of %" G_GUINT64_FORMAT
			" MB%s\n", b->total_kb / 1024,
			est->buffer_kb <= b->total_kb ? ", fits" : "");
	if (stacks == SA_BOOT_STACKS_ALL)
		fprintf(stderr, "  or load slab_account.ko instead of --stacks: "
			"it names wrappers' callers in the kernel, with no "
			"buffer\n");
}

/* The board's RAM in MB, and its online CPUs: this machine's. */
static void this_machine(gint *mem_mb, gint *cpus)
{
	guint64 mb;
	unsigned int n;

	sa_boot_this_machine(&mb, &n);
	if (!*mem_mb)
		*mem_mb = (gint)MIN(mb, 64 * 1024 * 1024);
	if (!*cpus)
		*cpus = (gint)n;
}

/*
 * The board's architecture: --arch, else that of the kernel whose
 * symbols are given, else this machine's. --arch and the symbols must
 * agree.
 */
static int board_arch(const char *name, const char *symbols,
		      enum sa_boot_arch *arch)
{
	struct sa_boot_kernel k;
	GError *error = NULL;

	*arch = sa_boot_arch_this();
	if (name && sa_boot_arch_parse(name, arch)) {
		sa_err("boot cmdline", "unknown --arch '%s' (x86_64, arm64, "
		       "arm)", name);
		return -1;
	}
	if (!symbols)
		return 0;
	if (sa_boot_kernel_read(symbols, &k, &error)) {
		sa_err("boot cmdline", "%s", error->message);
		g_error_free(error);
		return -1;
	}
	if (k.arch >= 0 && name && (enum sa_boot_arch)k.arch != *arch) {
		sa_err("boot cmdline", "--arch %s, but %s is an %s kernel's",
		       name, symbols, sa_boot_arch_name(k.arch));
		sa_boot_kernel_clear(&k);
		return -1;
	}
	if (k.arch >= 0)
		*arch = k.arch;
	sa_boot_kernel_clear(&k);
	return 0;
}

/*
 * --stacks: triggers on the wrappers where the kernel has them, else the
 * stacktrace option. *trig gets the trace_trigger= value.
 */
static int stacks_mode(const char *symbols, unsigned int groups, bool quiet,
		       enum sa_boot_stacks *mode, char **trig)
{
	struct sa_boot_kernel k;
	GError *error = NULL;

	*mode = SA_BOOT_STACKS_ALL;
	*trig = NULL;
	if (sa_boot_kernel_read(symbols ? symbols : "/proc/kallsyms", &k,
				&error)) {
		if (symbols) {
			sa_err("boot cmdline", "%s", error->message);
			g_error_free(error);
			return -1;
		}
		if (!quiet)
			fprintf(stderr, "# kernel: cannot read its symbols "
				"(%s): the stacktrace option\n", error->message);
		g_error_free(error);
		return 0;
	}
	if (k.triggers)
		*trig = sa_boot_kernel_triggers(&k, groups);
	if (*trig)
		*mode = SA_BOOT_STACKS_WRAPPERS;
	if (!quiet)
		fprintf(stderr, "# kernel (%s): %s; %u wrapper functions\n",
			symbols ? symbols : "this machine's /proc/kallsyms",
			k.triggers ? "trace_trigger= at boot" :
			"no trace_trigger= (setup_trace_triggers)",
			k.wrappers->len);
	sa_boot_kernel_clear(&k);
	return 0;
}

/*
 * --hist: the histogram triggers, where the kernel takes them on its
 * command line and has them; refused (with why and what instead) where
 * it does not. Read from its symbols, never from its version.
 */
static int hist_triggers(const char *symbols, gint size, char **htrig)
{
	const char *what = symbols ? symbols : "this machine's /proc/kallsyms";
	struct sa_boot_kernel k;
	GError *error = NULL;
	int ret = -1;

	*htrig = NULL;
	if (size < SA_BOOT_HIST_MIN || size > SA_BOOT_HIST_MAX ||
	    (size & (size - 1))) {
		sa_err("boot cmdline", "bad --hist-size %d (a power of two, "
		       "%d to %d)", size, SA_BOOT_HIST_MIN, SA_BOOT_HIST_MAX);
		return -1;
	}
	if (sa_boot_kernel_read(symbols ? symbols : "/proc/kallsyms", &k,
				&error)) {
		sa_err("boot cmdline", "--hist needs the kernel's symbols to "
		       "know whether it takes histograms at boot: %s "
		       "(--kernel-symbols FILE gives the board's)",
		       error->message);
		g_error_free(error);
		return -1;
	}
	if (!k.triggers)
		sa_err("boot cmdline", "--hist: this kernel takes no trigger "
		       "on its command line (no setup_trace_triggers in %s; "
		       "6.2 and later have it): it would ignore "
		       "trace_trigger=. Set the histograms after boot "
		       "(events/kmem/kmalloc/trigger), or record the events, "
		       "or load slab_account.ko", what);
	else if (!k.hist)
		sa_err("boot cmdline", "--hist: this kernel has no histogram "
		       "triggers (no event_hist_trigger_parse in %s: built "
		       "without CONFIG_HIST_TRIGGERS)", what);
	else {
		*htrig = sa_boot_kernel_hist((unsigned int)size);
		ret = 0;
	}
	sa_boot_kernel_clear(&k);
	return ret;
}

/* what the parameters may take of the kernel's 2048 bytes, with the rest */
#define CMDLINE_ROOM	1536

static int boot_cmdline(int argc, char **argv)
{
	gchar *groups = NULL, *symbols = NULL, *until_s = NULL, *arch_s = NULL;
	gint buffer_kb = 0, mem_mb = 0, cpus = 0, budget_mb = 0, maxcpus = 0;
	gboolean quiet = FALSE, stacks = FALSE, hist = FALSE;
	gint hist_size = 2048;
	const GOptionEntry entries[] = {
		{ "mem", 'm', 0, G_OPTION_ARG_INT, &mem_mb,
		  "the board's RAM (default: this machine's)", "MB" },
		{ "cpus", 0, 0, G_OPTION_ARG_INT, &cpus,
		  "the board's CPUs (default: this machine's online CPUs)",
		  "N" },
		{ "maxcpus", 0, 0, G_OPTION_ARG_INT, &maxcpus,
		  "boot with N of them (maxcpus=N): only those get a buffer",
		  "N" },
		{ "budget", 0, 0, G_OPTION_ARG_INT, &budget_mb,
		  "all CPUs' buffers together (default: (MB - 108) / 2, at "
		  "most 192, 48 on arm64)", "MB" },
		{ "arch", 0, 0, G_OPTION_ARG_STRING, &arch_s,
		  "the board's architecture: x86_64, arm64 or arm (default: "
		  "the --kernel-symbols kernel's, else this machine's)",
		  "ARCH" },
		{ "until", 0, 0, G_OPTION_ARG_STRING, &until_s,
		  "where the capture ends: collect (default: 'boot collect', "
		  "in user space) or init (/init stops tracing first thing)",
		  "POINT" },
		{ "stacks", 0, 0, G_OPTION_ARG_NONE, &stacks,
		  "a kernel stack with the allocations at a wrapper's call "
		  "site (trace_trigger=), or after every event "
		  "(trace_options=stacktrace)", NULL },
		{ "hist", 0, 0, G_OPTION_ARG_NONE, &hist,
		  "the kernel's histograms of the allocations, keyed by call "
		  "site, from boot (trace_trigger=, 6.2 and later): counts "
		  "and bytes per site with no ring buffer", NULL },
		{ "hist-size", 0, 0, G_OPTION_ARG_INT, &hist_size,
		  "call sites each histogram holds (default 2048; a power "
		  "of two, 128 to 131072)", "N" },
		{ "kernel-symbols", 0, 0, G_OPTION_ARG_FILENAME, &symbols,
		  "the board kernel's kallsyms or System.map, for --stacks "
		  "(default /proc/kallsyms)", "FILE" },
		{ "events", 'e', 0, G_OPTION_ARG_STRING, &groups,
		  "groups: kmem (default), page, vmscan, compaction, oom, "
		  "boot, vmalloc, percpu, all",
		  "GROUPS" },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_INT, &buffer_kb,
		  "ring buffer per CPU in KB (default: the estimate, within "
		  "the budget)", "KB" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "print the parameters only", NULL },
		{ NULL },
	};
	enum sa_boot_stacks mode = SA_BOOT_STACKS_NONE;
	enum sa_boot_until until = SA_BOOT_UNTIL_COLLECT;
	enum sa_boot_arch arch = SA_BOOT_ARCH_X86_64;
	struct sa_boot_estimate est;
	struct sa_boot_budget b;
	unsigned int mask;
	char *bad = NULL, *line = NULL, *trig = NULL, *htrig = NULL;
	int ret = SA_EXIT_USAGE;
	guint64 kb;
	size_t n;

	if (sa_parse_options(&argc, &argv, "boot cmdline", NULL,
			     "Print the kernel parameters for boot-time "
			     "tracing.", cmdline_description, entries))
		return SA_EXIT_USAGE;
	if (argc > 1) {
		sa_err("boot cmdline", "unexpected argument '%s'", argv[1]);
		goto out;
	}
	if (sa_groups_parse(groups ? groups : "kmem", &mask, &bad)) {
		sa_err("boot cmdline", "unknown event group '%s' (kmem, page, "
		       "vmscan, compaction, oom, boot, vmalloc, percpu, "
		       "all)", bad);
		g_free(bad);
		goto out;
	}
	if (until_s && !strcmp(until_s, "init")) {
		until = SA_BOOT_UNTIL_INIT;
	} else if (until_s && strcmp(until_s, "collect")) {
		sa_err("boot cmdline", "unknown --until '%s' (collect, init)",
		       until_s);
		goto out;
	}
	/* a boot trace carries its phases, whatever else it records */
	mask |= SA_GROUP_BOOT;
	if (buffer_kb < 0 || buffer_kb > 16 * 1024 * 1024) {
		sa_err("boot cmdline", "bad buffer size %d KB (1 to 16777216)",
		       buffer_kb);
		goto out;
	}
	if (mem_mb < 0 || mem_mb > 64 * 1024 * 1024 || cpus < 0 ||
	    cpus > 4096 || maxcpus < 0 || maxcpus > 4096 || budget_mb < 0 ||
	    budget_mb > 1024 * 1024) {
		sa_err("boot cmdline", "bad --mem, --cpus, --maxcpus or --budget "
		       "(MB: 1 to 67108864; CPUs: 1 to 4096; budget MB: up to "
		       "1048576)");
		goto out;
	}
	/* what the kernel takes first: its symbols' own errors */
	if (hist && hist_triggers(symbols, hist_size, &htrig))
		goto out;
	if (stacks && stacks_mode(symbols, mask, quiet, &mode, &trig))
		goto out;
	if (board_arch(arch_s, symbols, &arch))
		goto out;
	this_machine(&mem_mb, &cpus);
	if (maxcpus && maxcpus < cpus)
		cpus = maxcpus;
	else
		maxcpus = 0;
	sa_boot_budget_arch(mem_mb, cpus, budget_mb, arch, &b);
	if (b.cpu_kb < 1024) {
		sa_err("boot cmdline", "%d MB and %d CPUs leave no buffer: the "
		       "budget is %" G_GUINT64_FORMAT " MB, under 1 MB per CPU "
		       "(--budget sets it; --cpus 1 with maxcpus=1 takes one "
		       "buffer)", mem_mb, cpus, b.total_kb / 1024);
		goto out;
	}
	sa_boot_estimate_arch(mask, mode, until, arch, &est);
	if (buffer_kb > 0 && (guint64)buffer_kb > b.cpu_kb) {
		sa_err("boot cmdline", "--buffer-size %d KB is over the budget "
		       "of %" G_GUINT64_FORMAT " KB per CPU (%d MB, %d CPUs): "
		       "the board may panic or a CPU not come up (--budget "
		       "raises it)", buffer_kb, b.cpu_kb, mem_mb, cpus);
		goto out;
	}
	kb = buffer_kb > 0 ? (guint64)buffer_kb : MIN(est.buffer_kb, b.cpu_kb);
	line = sa_boot_cmdline(mask, kb);
	printf("%s", line);
	if (mode == SA_BOOT_STACKS_WRAPPERS || htrig)
		printf(" trace_trigger=\"%s%s%s\"",
		       mode == SA_BOOT_STACKS_WRAPPERS ? trig : "",
		       mode == SA_BOOT_STACKS_WRAPPERS && htrig ? "," : "",
		       htrig ? htrig : "");
	if (mode == SA_BOOT_STACKS_ALL)
		printf(" trace_options=stacktrace");
	if (maxcpus)
		printf(" maxcpus=%d", maxcpus);
	printf("\n");
	n = strlen(line) + (trig ? strlen(trig) + 17 : 0) +
	    (htrig ? strlen(htrig) + 17 : 0) + 26;
	if (n > CMDLINE_ROOM)
		sa_warn("boot cmdline", "the parameters take %zu bytes: with "
			"the rest of the command line they may pass what the "
			"kernel keeps (COMMAND_LINE_SIZE: 2048 on x86-64 and "
			"arm64, 1024 on 32-bit ARM), which cuts it short; fewer "
			"groups (-e) shorten it", n);
	if (!quiet)
		explain(mask, &est, &b, kb, until, arch);
	if (!quiet && mode == SA_BOOT_STACKS_WRAPPERS)
		fprintf(stderr, "# trace_trigger: a stack with the allocations "
			"at a wrapper's call site only\n");
	if (!quiet && htrig)
		fprintf(stderr, "# trace_trigger: %d histograms of %d call "
			"sites (kmalloc, kmem_cache_alloc; bytes_alloc and "
			"bytes_req),\n#   about %d KB of slab (measured on "
			"6.12-cloud: 1.2 MB for four of 2048,\n#   6.1 MB for "
			"four of 8192); after boot: cat\n#   /sys/kernel/"
			"tracing/events/kmem/{kmalloc,kmem_cache_alloc}/hist "
			"> boot.hist;\n#   slabacct report boot.hist\n",
			SA_BOOT_HIST_MAPS, hist_size,
			/* about 160 bytes an entry, as measured */
			SA_BOOT_HIST_MAPS * hist_size * 160 / 1024);
	if (!quiet && mode == SA_BOOT_STACKS_ALL)
		fprintf(stderr, "# trace_options=stacktrace: this kernel takes "
			"no trigger at boot, so a stack\n#   after every event, "
			"frees included: 6 times the buffer; slab_account.ko\n"
			"#   attributes wrapper sites in the kernel instead\n");
	ret = SA_EXIT_OK;
	if (!buffer_kb && est.buffer_kb > b.cpu_kb) {
		what_to_drop(mask, mode, until, arch, &est, &b);
		ret = SA_EXIT_LOST;
	}
out:
	g_free(line);
	g_free(trig);
	g_free(htrig);
	g_free(groups);
	g_free(symbols);
	g_free(until_s);
	g_free(arch_s);
	return ret;
}

/*
 * What trace_buf_size would have kept every event, within this board's
 * budget (trace/boot-estimate.h): its RAM, and its CPUs (the trace's,
 * which counts a CPU that did not come up).
 */
static void advise_size(const struct sa_record_result *res)
{
	guint64 need = sa_boot_needed_kb(res->nr_cpus, res->cpu_bytes,
					 res->cpu_events, res->lost);
	long long have = 0;
	struct sa_boot_budget b;
	unsigned int online;
	guint64 mem;

	tracefs_instance_file_read_number(NULL, "buffer_size_kb", &have);
	sa_boot_this_machine(&mem, &online);
	/* collect runs on the board: its architecture is this machine's */
	sa_boot_budget_arch(mem, res->nr_cpus, 0, sa_boot_arch_this(), &b);
	if (res->lost_total && need && need <= b.cpu_kb) {
		printf("the boot buffer (%lld KB per CPU) was too small: boot "
		       "with trace_buf_size=%" G_GUINT64_FORMAT "M ('slabacct "
		       "boot cmdline --mem %" G_GUINT64_FORMAT " --cpus %u "
		       "--buffer-size %" G_GUINT64_FORMAT "') to keep every "
		       "event\n", have, need / 1024, b.mem_mb, b.cpus, need);
	} else if (res->lost_total && need) {
		printf("the boot buffer (%lld KB per CPU) was too small: every "
		       "event needs %" G_GUINT64_FORMAT " MB per CPU, over the "
		       "budget of this board ('slabacct boot cmdline --mem %"
		       G_GUINT64_FORMAT " --cpus %u': %" G_GUINT64_FORMAT " MB "
		       "per CPU); drop stacks, groups (-e), or CPUs (--cpus 1 "
		       "and maxcpus=1: one buffer of %" G_GUINT64_FORMAT
		       " MB)\n", have, need / 1024, b.mem_mb, b.cpus,
		       b.cpu_kb / 1024, b.total_kb / 1024);
	} else if (need) {
		printf("the boot buffer (%lld KB per CPU) held every event; "
		       "%" G_GUINT64_FORMAT " MB per CPU would do\n", have,
		       need / 1024);
	}
}

static int boot_collect(int argc, char **argv)
{
	gchar *output = NULL;
	gboolean fail_on_lost = FALSE;
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "the trace.dat to write (default boot.dat)", "FILE" },
		{ "fail-on-lost", 0, 0, G_OPTION_ARG_NONE, &fail_on_lost,
		  "exit 4 if the boot buffer lost events: an incomplete "
		  "measurement fails (for CI)", NULL },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_outfile_opts of;
	struct sa_record_result res;
	GError *error = NULL;
	const char *out;
	int ret;

	if (sa_parse_options(&argc, &argv, "boot collect", NULL,
			     "Save the boot-time trace buffer as trace.dat.",
			     collect_description, entries))
		return SA_EXIT_USAGE;
	ret = SA_EXIT_USAGE;
	if (argc > 1) {
		sa_err("boot collect", "unexpected argument '%s'", argv[1]);
		goto out;
	}
	if (sa_output_opts_get("boot collect", &oo, &of) ||
	    sa_require_tracefs("boot collect"))
		goto out;
	sa_stale_instances("boot collect", false);
	out = output ? output : "boot.dat";
	signal(SIGXFSZ, SIG_IGN);	/* a file size limit is EFBIG */
	ret = sa_recorder_collect_boot(out, &of, "slabacct boot collect",
				       sa_snapshot_capture_json, &res,
				       &error);
	if (ret && !res.disk_full) {
		sa_output_error("boot collect", error);
		if (sa_boot_log_no_tracer())
			sa_err("boot collect", "the kernel could not allocate "
			       "the boot's ring buffer (dmesg: \"tracer: failed "
			       "to allocate ring buffer!\"): trace_buf_size was "
			       "over the memory early in boot; 'slabacct boot "
			       "cmdline --mem MB --cpus N' sizes it");
		ret = SA_EXIT_FAIL;
		goto out;
	}
	sa_print_record_result("boot collect", out, &res,
			       "the boot buffer filled and overwrote them");
	advise_size(&res);
	if (res.disk_full) {
		/* boot collect keeps nothing half-written */
		sa_err("boot collect", "the disk filled (%s): %s was not "
		       "kept, nothing half-written is", error->message, out);
		ret = SA_EXIT_FAIL;
	} else if (fail_on_lost && (res.lost_total || res.no_buffer ||
				    res.truncated || res.buffer_failed)) {
		sa_fail_on_lost("boot collect", &res);
		ret = SA_EXIT_LOST;
	}
	sa_record_result_clear(&res);
out:
	g_clear_error(&error);
	g_free(output);
	sa_output_opts_clear(&oo);
	return ret;
}

int cmd_boot(int argc, char **argv)
{
	if (argc < 2) {
		boot_usage(stderr);
		return SA_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		boot_usage(stdout);
		return SA_EXIT_OK;
	}
	if (!strcmp(argv[1], "cmdline"))
		return boot_cmdline(argc - 1, argv + 1);
	if (!strcmp(argv[1], "collect"))
		return boot_collect(argc - 1, argv + 1);
	sa_err("boot", "unknown subcommand '%s'", argv[1]);
	boot_usage(stderr);
	return SA_EXIT_USAGE;
}
