// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct boot cmdline [-e GROUPS] [--buffer-size KB]
 * slabacct boot collect [-o FILE] [--fail-on-lost]
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <tracefs.h>

#include "trace/boot-estimate.h"
#include "cli/cmd.h"
#include "util/outfile.h"
#include "trace/events.h"
#include "trace/recorder.h"
#include "emit/snapshot-origin.h"

static const char cmdline_description[] =
	"Prints, on one line of standard output, the kernel parameters that\n"
	"record the events of GROUPS from early boot into the top-level ring\n"
	"buffer; how they were chosen goes to standard error.\n"
	"\n"
	"  trace_event=...     every event of the groups, and of the boot\n"
	"                      group always (initcall levels, initcall ends,\n"
	"                      execs: the report's boot phases); a kernel\n"
	"                      that lacks one skips it ('Failed to enable\n"
	"                      trace event')\n"
	"  trace_buf_size=N    per CPU. Early boot runs on CPU 0 alone, so the\n"
	"                      estimate for a typical boot is not divided by\n"
	"                      the number of CPUs; every CPU gets N\n"
	"  trace_clock=global  when the kernel finds the TSC unstable (under\n"
	"                      QEMU TCG, about 3 s into boot) it switches the\n"
	"                      trace clock to global, which resets the ring\n"
	"                      buffer and loses every boot event so far.\n"
	"                      Starting on the global clock avoids the switch\n"
	"\n"
	"  trace_options=stacktrace  with --stacks: a kernel stack after every\n"
	"                      event, which 'slabacct report' attributes\n"
	"                      allocations through wrappers with. At boot a\n"
	"                      trigger on the wrappers' call sites cannot be\n"
	"                      set (their addresses are known only once the\n"
	"                      kernel runs: KASLR), so every event gets one,\n"
	"                      and the buffer estimate is 4 times larger\n"
	"\n"
	"After boot, 'slabacct boot collect -o boot.dat' saves the buffer and\n"
	"says how large it should have been.\n"
	"\n"
	"Example:\n"
	"  qemu-system-x86_64 ... -append \"console=ttyS0 $(slabacct boot "
	"cmdline)\"\n";

static const char collect_description[] =
	"Stops the top-level ring buffer filled since boot (see 'slabacct boot\n"
	"cmdline'), disables its events, and saves it as a trace.dat (version\n"
	"6) like 'slabacct record', with the kernel release, /proc/cmdline,\n"
	"/proc/meminfo and the events each CPU lost because the buffer filled.\n"
	"When events were lost it says which trace_buf_size would have kept\n"
	"them all.\n"
	"\n"
	"FILE is written like record's (see 'slabacct record --help'): mode\n"
	"0600, since it holds kallsyms and heap pointers; renamed into place\n"
	"when complete; a symlink at FILE is refused unless --follow-symlinks.\n"
	"\n"
	"Exit status: 0; 1 when saving failed or the disk filled (FILE then\n"
	"holds what was written); 2 for bad usage or a missing requirement\n"
	"(root, tracefs); with --fail-on-lost, 4 when the boot buffer lost\n"
	"events (FILE is written and says so).\n";

static void boot_usage(FILE *f)
{
	fprintf(f, "usage: slabacct boot cmdline [-e GROUPS] [--buffer-size KB]\n"
		   "       slabacct boot collect [-o FILE] [--fail-on-lost]\n"
		   "'slabacct boot SUBCOMMAND --help' describes one.\n");
}

static void explain(unsigned int groups, const struct sa_boot_estimate *est,
		    guint64 buffer_kb)
{
	int i, n = 0;
	const struct sa_event_desc *d;

	for (d = sa_event_table(); d->name; d++)
		n += !!(d->group & groups);
	fprintf(stderr, "# trace_event: the %d events of the groups; a kernel "
		"skips those it lacks\n", n);
	if (est) {
		fprintf(stderr, "# trace_buf_size: estimate for a typical boot "
			"(events x record size):\n");
		for (i = 0; i < est->nr_shares; i++)
			fprintf(stderr, "#   %-11s %8" G_GUINT64_FORMAT
				" events  %6.1f MB\n", est->shares[i].group,
				est->shares[i].events,
				est->shares[i].bytes / 1048576.0);
		fprintf(stderr, "#   + 25%% for page headers and variance, "
			"rounded up: %" G_GUINT64_FORMAT " MB per CPU\n",
			est->buffer_kb / 1024);
		fprintf(stderr, "#   early boot runs on CPU 0 alone, so every "
			"CPU gets the whole estimate\n");
	} else {
		fprintf(stderr, "# trace_buf_size: %" G_GUINT64_FORMAT
			" KB per CPU, as asked\n", buffer_kb);
	}
	fprintf(stderr, "# trace_clock=global: a TSC found unstable during boot "
		"(QEMU TCG) makes the kernel\n#   switch clocks, which resets "
		"the buffer; starting on global avoids it\n");
	fprintf(stderr, "# after boot: slabacct boot collect -o boot.dat\n");
}

/*
 * A kernel stack per event: about 180 bytes more to an event of 56. A
 * 6.1 boot under QEMU needed about 110 MB on its busiest CPU with
 * stacks, 4.6 times the 24 MB estimate without; but a buffer of 120 MB
 * could not always be allocated for the second CPU as it came up
 * ("failed to allocate ring buffer on CPU 1"), early in boot, whatever
 * the guest's memory. 4 (96 MB) may lose events, which are counted.
 */
#define STACKS_FACTOR	4

static int boot_cmdline(int argc, char **argv)
{
	gchar *groups = NULL;
	gint buffer_kb = 0;
	gboolean quiet = FALSE, stacks = FALSE;
	const GOptionEntry entries[] = {
		{ "stacks", 0, 0, G_OPTION_ARG_NONE, &stacks,
		  "a kernel stack after every event (trace_options="
		  "stacktrace)", NULL },
		{ "events", 'e', 0, G_OPTION_ARG_STRING, &groups,
		  "groups: kmem (default), page, vmscan, compaction, oom, "
		  "boot, vmalloc, percpu, all",
		  "GROUPS" },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_INT, &buffer_kb,
		  "ring buffer per CPU in KB (default: the estimate)", "KB" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "print the parameters only", NULL },
		{ NULL },
	};
	struct sa_boot_estimate est;
	unsigned int mask;
	char *bad = NULL, *line;
	guint64 kb;

	if (sa_parse_options(&argc, &argv, "boot cmdline", NULL,
			     "Print the kernel parameters for boot-time "
			     "tracing.", cmdline_description, entries))
		return SA_EXIT_USAGE;
	if (argc > 1) {
		sa_err("boot cmdline", "unexpected argument '%s'", argv[1]);
		g_free(groups);
		return SA_EXIT_USAGE;
	}
	if (sa_groups_parse(groups ? groups : "kmem", &mask, &bad)) {
		sa_err("boot cmdline", "unknown event group '%s' (kmem, page, "
		       "vmscan, compaction, oom, boot, vmalloc, percpu, "
		       "all)", bad);
		g_free(bad);
		g_free(groups);
		return SA_EXIT_USAGE;
	}
	g_free(groups);
	/* a boot trace carries its phases, whatever else it records */
	mask |= SA_GROUP_BOOT;
	if (buffer_kb < 0 || buffer_kb > 16 * 1024 * 1024) {
		sa_err("boot cmdline", "bad buffer size %d KB (1 to 16777216)",
		       buffer_kb);
		return SA_EXIT_USAGE;
	}
	sa_boot_estimate(mask, &est);
	if (stacks)
		est.buffer_kb *= STACKS_FACTOR;
	kb = buffer_kb > 0 ? (guint64)buffer_kb : est.buffer_kb;
	line = sa_boot_cmdline(mask, kb);
	printf("%s%s\n", line, stacks ? " trace_options=stacktrace" : "");
	if (!quiet)
		explain(mask, buffer_kb > 0 ? NULL : &est, kb);
	if (!quiet && stacks)
		fprintf(stderr, "# trace_options=stacktrace: a kernel stack "
			"after every event (the wrappers'\n#   addresses are "
			"not known before boot); the estimate is %d times "
			"larger\n", STACKS_FACTOR);
	g_free(line);
	return SA_EXIT_OK;
}

static void advise_size(const struct sa_record_result *res)
{
	guint64 need = sa_boot_needed_kb(res->nr_cpus, res->cpu_bytes,
					 res->cpu_events, res->lost);
	long long have = 0;

	tracefs_instance_file_read_number(NULL, "buffer_size_kb", &have);
	if (res->lost_total && need) {
		printf("the boot buffer (%lld KB per CPU) was too small: boot "
		       "with trace_buf_size=%" G_GUINT64_FORMAT "M (or 'slabacct "
		       "boot cmdline --buffer-size %" G_GUINT64_FORMAT "') to "
		       "keep every event\n", have, need / 1024, need);
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
		ret = SA_EXIT_FAIL;
		goto out;
	}
	sa_print_record_result("boot collect", out, &res,
			       "the boot buffer filled and overwrote them");
	advise_size(&res);
	if (res.disk_full) {
		sa_err("boot collect", "the disk filled (%s); %s is readable "
		       "and holds the events written before", error->message,
		       out);
		ret = SA_EXIT_FAIL;
	} else if (fail_on_lost && (res.lost_total || res.no_buffer)) {
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
