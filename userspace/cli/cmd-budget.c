// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct budget: the running system's physical RAM split into its
 * owners, each from a named source, summed to the RAM, with what no
 * source names shown as "unexplained".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "emit/emit-budget.h"
#include "util/outfile.h"
#include "util/textfold.h"

static const char description[] =
	"Reads the memory map (/proc/iomem \"System RAM\", else\n"
	"/sys/firmware/memmap, else the device tree's memory nodes, else the\n"
	"zones' present pages), the boot log's\n"
	"\"Memory:\" and percpu lines (/dev/kmsg), /proc/meminfo, zoneinfo,\n"
	"buddyinfo, vmallocinfo, tracefs buffer_total_size_kb and the BTF.\n"
	"All in kB.\n"
	"\n"
	"Arithmetic (nothing is counted twice):\n"
	"  RAM = reserved at boot + MemTotal\n"
	"  reserved at boot = RAM - MemTotal\n"
	"    = struct pages (present pages x sizeof(struct page), from\n"
	"      /sys/kernel/btf/vmlinux)\n"
	"    + kernel image (dmesg: code + rwdata + rodata + bss less its\n"
	"      unused decrypted part freed, + init while not freed, + its\n"
	"      other sections: iomem \"Kernel bss\" start - \"Kernel data\"\n"
	"      end - init - SMP alternatives freed: ORC, bug table, ...)\n"
	"    + percpu first chunk (dmesg: pages/cpu x units)\n"
	"    + early hash tables (dmesg: the linear dentry, inode and\n"
	"      qspinlock ones, HASH_EARLY) + crash kernel (iomem)\n"
	"    + node data (dmesg NODE_DATA) + first 1 MB (x86, iomem)\n"
	"    + sparse section roots (/proc/kcore's VMCOREINFO:\n"
	"      LENGTH(mem_section) pointers, when outside the image)\n"
	"    + unexplained (early page tables,\n"
	"      the memory map of holes, ...)\n"
	"  MemTotal = MemFree + per-CPU lists (zoneinfo count)\n"
	"    + SReclaimable + SUnreclaim + (KReclaimable - SReclaimable)\n"
	"    + Buffers + (Cached - Shmem) + Shmem + SwapCached + AnonPages\n"
	"    + Hugetlb + PageTables + SecPageTables + KernelStack\n"
	"    + VmallocUsed (the stacks are inside it instead when\n"
	"      vmallocinfo shows them vmalloc'ed) + (Percpu - first chunk)\n"
	"    + trace buffers (every instance's per-CPU buffer_size_kb of\n"
	"      the CPUs online, else its buffer_total_size_kb, which counts\n"
	"      CPUs that never came up: page allocations made after boot)\n"
	"    + the other linear\n"
	"      hash tables (dmesg) + DMA atomic pools (dmesg, at boot)\n"
	"    + ftrace records (tracefs dyn_ftrace_total_info, else dmesg\n"
	"      \"ftrace: allocated N pages\")\n"
	"    + Zswap + Unaccepted\n"
	"    + unexplained (pages no counter names: drivers, network\n"
	"      buffers, pipes, kernel page tables, ...)\n"
	"  SwapCached pages also mapped are in AnonPages too: with swap,\n"
	"  unexplained can be negative.\n"
	"\n"
	"Examples:\n"
	"  slabacct budget                    the tree, as text\n"
	"  slabacct budget --json -o b.json   JSON (--raw: with the sources)\n"
	"  slabacct budget --csv\n"
	"  slabacct budget --root DIR         a copied proc/, sys/, dev/kmsg";

int cmd_budget(int argc, char **argv)
{
	gchar *output = NULL, *format = NULL, *root = NULL;
	gboolean json = FALSE, csv = FALSE, raw = FALSE;
	int ret = SA_EXIT_USAGE;
	struct sa_output_opts oo = { 0 };
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write the budget to FILE", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "text (default), json or csv", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "--format json",
		  NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "--format csv", NULL },
		{ "root", 0, 0, G_OPTION_ARG_FILENAME, &root,
		  "read proc/, sys/ and dev/kmsg under DIR (default /)",
		  "DIR" },
		{ "raw", 0, 0, G_OPTION_ARG_NONE, &raw,
		  "JSON: include the sources' text as read", NULL },
		SA_OUTPUT_OPTION_ENTRIES(oo),
		{ NULL },
	};
	struct sa_budget_input *in = NULL;
	struct sa_budget *b = NULL;
	struct sa_outfile_opts of;
	GError *e = NULL;
	GString *out;
	enum sa_format f;

	if (sa_parse_options(&argc, &argv, "budget", "",
			     "Split the physical RAM into its owners.",
			     description, entries))
		goto done;
	if (sa_plain_format("budget", format, json, csv, &f) ||
	    sa_output_opts_get("budget", &oo, &of))
		goto done;
	if (argc > 1) {
		sa_err("budget", "unexpected argument '%s'", argv[1]);
		goto done;
	}
	if (raw && f != SA_FMT_JSON) {
		sa_err("budget", "--raw is for --json");
		goto done;
	}
	ret = SA_EXIT_FAIL;
	in = sa_budget_capture(root ? root : "/");
	b = sa_budget_compute(in, &e);
	if (!b) {
		sa_err("budget", "%s", e->message);
		g_error_free(e);
		goto done;
	}
	out = g_string_new(NULL);
	if (f == SA_FMT_JSON) {
		JsonNode *n = sa_budget_to_json(b, raw ? in : NULL);
		char *s = json_to_string(n, TRUE);

		g_string_append(out, s);
		g_string_append_c(out, '\n');
		g_free(s);
		json_node_unref(n);
	} else if (f == SA_FMT_CSV) {
		sa_budget_emit_csv(out, b);
	} else {
		char *t;

		sa_budget_emit_text(out, b);
		t = sa_text_fold(out->str, 80);
		g_string_assign(out, t);
		g_free(t);
	}
	ret = sa_output_write("budget", output, &of, out->str, out->len) ?
		SA_EXIT_FAIL : SA_EXIT_OK;
	g_string_free(out, TRUE);
done:
	sa_output_opts_clear(&oo);
	sa_budget_free(b);
	sa_budget_input_free(in);
	g_free(output);
	g_free(format);
	g_free(root);
	return ret;
}
