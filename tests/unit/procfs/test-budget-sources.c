// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the budget's sources. The boot log's memory lines of the
 * captured guests (tests/data/proc/6.1 and 6.12-cloud, in /dev/kmsg's
 * form and in dmesg's), the memory maps, tracefs's buffer sizes, the
 * per-CPU lists of zoneinfo and the stacks of vmallocinfo; the values
 * are those of the files.
 */
#include <check.h>
#include <glib/gstdio.h>

#include <bpf/btf.h>

#include "procfs/btf.h"
#include "procfs/memlog.h"
#include "procfs/memmap.h"
#include "procfs/tracebuf.h"
#include "procfs/vmallocinfo.h"
#include "procfs/zoneinfo.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static const struct {
	const char *tree, *file;
	guint64 avail, present, code, rwdata, rodata, init, bss, reserved;
	guint64 initrd, pcpu_pages, decrypted, ftrace;
} logs[] = {
	{ "6.1", "dev/kmsg", 260916, 523768, 14343, 2338, 9132, 2824, 17344,
	  73112, 7448, 62, 2036, 159 },
	{ "6.1", "dmesg.txt", 260916, 523768, 14343, 2338, 9132, 2824, 17344,
	  73112, 7448, 62, 2036, 159 },
	{ "6.12-cloud", "dev/kmsg", 455560, 523768, 16384, 2507, 10912, 4024,
	  5288, 64008, 7564, 66, 2028, 168 },
	{ "6.12-cloud", "dmesg.txt", 455560, 523768, 16384, 2507, 10912, 4024,
	  5288, 64008, 7564, 66, 2028, 168 },
};

START_TEST(memory_lines)
{
	char *text = tree_read(logs[_i].tree, logs[_i].file);
	struct sa_memlog m;

	ck_assert(sa_memlog_parse(text, &m));
	ck_assert(m.have_memory);
	ck_assert_uint_eq(m.avail_kb, logs[_i].avail);
	ck_assert_uint_eq(m.present_kb, logs[_i].present);
	ck_assert_uint_eq(m.code_kb, logs[_i].code);
	ck_assert_uint_eq(m.rwdata_kb, logs[_i].rwdata);
	ck_assert_uint_eq(m.rodata_kb, logs[_i].rodata);
	ck_assert_uint_eq(m.init_kb, logs[_i].init);
	ck_assert_uint_eq(m.bss_kb, logs[_i].bss);
	ck_assert_uint_eq(m.reserved_kb, logs[_i].reserved);
	ck_assert_uint_eq(m.cma_kb, 0);
	ck_assert(m.init_freed);
	ck_assert(m.have_initrd_freed);
	ck_assert_uint_eq(m.initrd_freed_kb, logs[_i].initrd);
	ck_assert_uint_eq(m.decrypted_freed_kb, logs[_i].decrypted);
	ck_assert(m.have_percpu);
	ck_assert_uint_eq(m.percpu_pages, logs[_i].pcpu_pages);
	ck_assert_uint_eq(m.percpu_units, 2);		/* "[0] 0 1" */
	/* the dentry and inode caches' early tables; 11 later ones, from
	 * futex to UDP-Lite (Dquot-cache's line is another format) */
	ck_assert_uint_eq(m.early_hashes, 2);
	ck_assert_uint_eq(m.early_hash_bytes, 524288 + 262144);
	ck_assert_uint_eq(m.hashes, 11);
	ck_assert_uint_eq(m.hash_bytes, 573440);
	/* "DMA: preallocated 128 KiB ... pool" x 3 (GFP_KERNEL, DMA, DMA32) */
	ck_assert_uint_eq(m.dma_pools, 3);
	ck_assert_uint_eq(m.dma_pool_kb, 3 * 128);
	/* "ftrace: allocated N pages with M groups" */
	ck_assert(m.have_ftrace);
	ck_assert_uint_eq(m.ftrace_pages, logs[_i].ftrace);
	g_free(text);
}
END_TEST

START_TEST(memory_line_wanted_and_odd)
{
	struct sa_memlog m;

	ck_assert(sa_memlog_line_wanted("6,84,180185,-;Memory: 1K/2K "
					"available (1K kernel code)"));
	ck_assert(sa_memlog_line_wanted("[    0.1] pcpu-alloc: [0] 0 1 "));
	ck_assert(!sa_memlog_line_wanted("[    0.1] pcpu-alloc: s1 r0 d1"));
	ck_assert(!sa_memlog_line_wanted("6,1,0,-;Memory cgroup out of "
					 "memory: Killed process 1"));
	/* arm's wording of the init sections, units with an empty one, and
	 * a Memory line without its parenthesis is not taken */
	ck_assert(sa_memlog_parse(
		"[0.1] percpu: Embedded 20 pages/cpu s1 r0 d1 u81920\n"
		"[0.1] pcpu-alloc: [0] 0 1 2 - \n"
		"[0.1] pcpu-alloc: [1] 3 - - - \n"
		"[0.2] Memory: 10K/20K available\n"
		"[0.3] Freeing unused kernel memory: 512K\n", &m));
	ck_assert(!m.have_memory);
	ck_assert(m.init_freed);
	ck_assert(!m.have_initrd_freed);
	ck_assert_uint_eq(m.percpu_pages, 20);
	ck_assert_uint_eq(m.percpu_units, 8);
	/* vmalloc'ed tables are VmallocUsed's; another format is not taken */
	ck_assert(!sa_memlog_parse(
		"[0.1] Dentry cache hash table entries: 4 (order: 6, 262144 "
		"bytes, vmalloc)\n"
		"[0.1] futex hash table entries: 512 (32768 bytes on 1 NUMA "
		"nodes, total 32 KiB, linear).\n", &m));
	ck_assert(sa_memlog_parse(
		"6,1,2,-;PV qspinlock hash table entries: 256 (order: 0, 4096 "
		"bytes, linear)\n"
		"6,1,2,-;TCP bind hash table entries: 2048 (order: 4, 65536 "
		"bytes, linear)\n", &m));
	ck_assert_uint_eq(m.early_hash_bytes, 4096);
	ck_assert_uint_eq(m.hash_bytes, 65536);
	ck_assert(!sa_memlog_parse("garbage\n", &m));
	ck_assert(!m.have_memory && !m.have_percpu);
}
END_TEST

static const char iomem[] =
	"00000000-00000fff : Reserved\n"
	"00001000-0009fbff : System RAM\n"
	"0009fc00-0009ffff : Reserved\n"
	"00100000-0fffffff : System RAM\n"
	"  01000000-01e00d86 : Kernel code\n"
	"  06000000-07ffffff : Crash kernel\n"
	"feffc000-feffffff : Reserved\n"
	"100000000-13fffffff : System RAM\n";

START_TEST(iomem_ram)
{
	struct sa_memmap_ram r;
	GError *e = NULL;
	char *hidden;

	ck_assert_int_eq(sa_iomem_parse(iomem, 4096, &r, &e), 0);
	/* pages 1..158 (the last, 0x9f000, is partial); 1 MiB..256 MiB;
	 * 4 GiB..5 GiB */
	ck_assert_uint_eq(r.pages, 158 + (0x10000 - 0x100) + 0x40000);
	ck_assert_uint_eq(r.ranges, 3);
	ck_assert_uint_eq(r.crash_bytes, 32u << 20);
	/* as a user reads it */
	hidden = g_regex_replace(g_regex_new("[0-9a-f]+-[0-9a-f]+", 0, 0,
					     NULL), iomem, -1, 0,
				 "00000000-00000000", 0, NULL);
	ck_assert_int_eq(sa_iomem_parse(hidden, 4096, &r, &e), -1);
	ck_assert_str_eq(e->message, "iomem: the addresses are hidden "
			 "(only root sees them)");
	g_clear_error(&e);
	g_free(hidden);
	ck_assert_int_eq(sa_iomem_parse("00000000-00000fff : Reserved\n",
					4096, &r, &e), -1);
	g_clear_error(&e);
	/* hostile: the whole address space, twice, is not RAM */
	ck_assert_int_eq(sa_iomem_parse(
		"0-ffffffffffffffff : System RAM\n"
		"0-ffffffffffffffff : System RAM\n", 4096, &r, &e), -1);
	ck_assert_str_eq(e->message, "iomem: more System RAM than 1 EiB");
	g_clear_error(&e);
	/* the last page of the space is whole */
	ck_assert_int_eq(sa_iomem_parse(
		"fffffffffffff000-ffffffffffffffff : System RAM\n", 4096, &r,
		&e), 0);
	ck_assert_uint_eq(r.pages, 1);
}
END_TEST

START_TEST(memmap_ram)
{
	struct sa_memmap_ram r;
	GError *e = NULL;

	/* the firmware's table keeps page 0, the kernel's drops it */
	ck_assert_int_eq(sa_memmap_parse("0x0 0x9fbff System RAM\n"
					 "0x9fc00 0x9ffff Reserved\n"
					 "0x100000 0xfffffff System RAM\n",
					 4096, &r, &e), 0);
	ck_assert_uint_eq(r.pages, 159 + 0x10000 - 0x100);
	ck_assert_uint_eq(r.ranges, 2);
	/* 64 KiB pages: 0..0x9fbff holds 9 whole ones */
	ck_assert_int_eq(sa_memmap_parse("0x0 0x9fbff System RAM\n",
					 65536, &r, &e), 0);
	ck_assert_uint_eq(r.pages, 9);
	ck_assert_int_eq(sa_memmap_parse("0x0 zz System RAM\n", 4096, &r,
					 &e), -1);
	g_clear_error(&e);
	ck_assert_int_eq(sa_memmap_parse("0x0 0xfff Reserved\n", 4096, &r,
					 &e), -1);
	g_clear_error(&e);
}
END_TEST

static void put(const char *dir, const char *name, const void *data,
		gsize len)
{
	char *p = g_build_filename(dir, name, NULL);

	ck_assert(g_file_set_contents(p, data, len, NULL));
	g_free(p);
}

/* remove dir/name, or dir itself */
static void rm(const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);

	ck_assert_int_eq(g_remove(p), 0);
	g_free(p);
}

START_TEST(devicetree_memory)
{
	char *root = g_dir_make_tmp("budget-dt-XXXXXX", NULL);
	char *base = g_build_filename(root, "sys/firmware/devicetree/base",
				      NULL);
	char *m1 = g_build_filename(base, "memory@40000000", NULL);
	char *m2 = g_build_filename(base, "memory@80000000", NULL);
	static const guchar two[] = { 0, 0, 0, 2 }, one[] = { 0, 0, 0, 1 };
	/* 2+2 cells: 0x40000000 + 256 MiB, and 0x1_0000_0000 + 1 GiB */
	static const guchar reg[] = {
		0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0,
	};
	static const guchar reg1[] = { 0x80, 0, 0, 0, 0x08, 0, 0, 0 };
	struct sa_memmap_ram r;
	GError *e = NULL;
	char *text;

	ck_assert_int_eq(g_mkdir_with_parents(m1, 0700), 0);
	ck_assert_int_eq(g_mkdir_with_parents(m2, 0700), 0);
	put(base, "#address-cells", two, 4);
	put(base, "#size-cells", two, 4);
	put(m1, "reg", reg, sizeof(reg));
	put(m1, "device_type", "memory", 7);
	put(m2, "reg", reg, 16);
	put(m2, "status", "disabled", 9);
	text = sa_devicetree_memory_capture(root, &e);
	ck_assert_str_eq(text, "0x40000000 0x4fffffff System RAM\n"
			 "0x100000000 0x13fffffff System RAM\n");
	ck_assert_int_eq(sa_memmap_parse(text, 4096, &r, NULL), 0);
	ck_assert_uint_eq(r.pages, 0x10000 + 0x40000);
	g_free(text);
	/* 1+1 cells (armhf), and "okay" */
	put(base, "#address-cells", one, 4);
	put(base, "#size-cells", one, 4);
	put(m1, "reg", reg1, sizeof(reg1));
	put(m2, "reg", reg1, 4);	/* too short: no range */
	put(m2, "status", "okay", 5);
	text = sa_devicetree_memory_capture(root, &e);
	ck_assert_str_eq(text, "0x80000000 0x87ffffff System RAM\n");
	g_free(text);
	/* without the nodes, none */
	rm(m1, "reg");
	rm(m1, "device_type");
	rm(m1, NULL);
	rm(m2, "reg");
	rm(m2, "status");
	rm(m2, NULL);
	ck_assert_ptr_null(sa_devicetree_memory_capture(root, &e));
	ck_assert_str_eq(e->message, "devicetree: no memory nodes");
	g_clear_error(&e);
	rm(base, "#address-cells");
	rm(base, "#size-cells");
	g_free(m1);
	g_free(m2);
	g_free(base);
	rm(root, "sys/firmware/devicetree/base");
	rm(root, "sys/firmware/devicetree");
	rm(root, "sys/firmware");
	rm(root, "sys");
	rm(root, NULL);
	g_free(root);
}
END_TEST

START_TEST(memblock_reserved)
{
	GError *e = NULL;
	guint64 bytes;

	/* 6.1's form, and 6.10+'s with the node and flags */
	ck_assert_int_eq(sa_memblock_reserved_parse(
		"   0: 0x0000000040000000..0x0000000040000fff\n"
		"   1: 0x0000000040210000..0x000000004220ffff\n", &bytes, &e),
		0);
	ck_assert_uint_eq(bytes, 4096 + (32u << 20));
	ck_assert_int_eq(sa_memblock_reserved_parse(
		"   0: 0x0000000000000000..0x0000000000000fff    0 NONE\n",
		&bytes, &e), 0);
	ck_assert_uint_eq(bytes, 4096);
	ck_assert_int_eq(sa_memblock_reserved_parse("   0: 0x10..0x1\n",
						    &bytes, &e), -1);
	ck_assert_str_eq(e->message, "memblock/reserved: malformed line "
			 "'   0: 0x10..0x1'");
	g_clear_error(&e);
	ck_assert_int_eq(sa_memblock_reserved_parse("", &bytes, &e), -1);
	g_clear_error(&e);
}
END_TEST

START_TEST(trace_buffers)
{
	GError *e = NULL;
	GArray *b = sa_tracebuf_parse(". 14 (expanded: 2816)\n"
				      "slabacct-1 98304\n", &e);

	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->len, 2);
	ck_assert_uint_eq(sa_tracebuf_total_kb(b), 14 + 98304);
	g_array_unref(b);
	ck_assert_ptr_null(sa_tracebuf_parse(". lots\n", &e));
	g_clear_error(&e);
}
END_TEST

/* mkdir -p root/rel */
static char *mkdirs(const char *root, const char *rel)
{
	char *p = g_build_filename(root, rel, NULL);

	ck_assert_int_eq(g_mkdir_with_parents(p, 0700), 0);
	return p;
}

/*
 * The capture sums the per-CPU buffers of the CPUs online: with maxcpus=1
 * on 2 CPUs, buffer_total_size_kb counts the second CPU, which has no
 * buffer. An instance without per_cpu/ (an older copy) keeps the total;
 * a per-CPU size that cannot be read as a number falls back to it too.
 */
START_TEST(trace_buffers_online)
{
	char *root = g_dir_make_tmp("budget-tb-XXXXXX", NULL);
	char *top = mkdirs(root, "sys/kernel/tracing");
	char *c0 = mkdirs(top, "per_cpu/cpu0"), *c1 = mkdirs(top, "per_cpu/cpu1");
	char *inst = mkdirs(top, "instances/old");
	char *cpu1 = mkdirs(root, "sys/devices/system/cpu/cpu1");
	GError *e = NULL;
	char *text;

	put(top, "buffer_total_size_kb", "65542\n", 6);
	put(c0, "buffer_size_kb", "32771\n", 6);
	put(c1, "buffer_size_kb", "32771\n", 6);
	put(cpu1, "online", "0\n", 2);
	put(inst, "buffer_total_size_kb", "14 (expanded: 2816)\n", 20);
	text = sa_tracebuf_capture(root, &e);
	ck_assert_str_eq(text, ". 32771\nold 14 (expanded: 2816)\n");
	g_free(text);
	/* both online: both counted */
	put(cpu1, "online", "1\n", 2);
	text = sa_tracebuf_capture(root, &e);
	ck_assert_str_eq(text, ". 65542\nold 14 (expanded: 2816)\n");
	g_free(text);
	/* a per-CPU size that is no number: the total, as before */
	put(c1, "buffer_size_kb", "lots\n", 5);
	text = sa_tracebuf_capture(root, &e);
	ck_assert_str_eq(text, ". 65542\nold 14 (expanded: 2816)\n");
	g_free(text);
	g_free(cpu1);
	g_free(inst);
	g_free(c1);
	g_free(c0);
	g_free(top);
	text = g_strdup_printf("rm -rf '%s'", root);
	ck_assert(g_spawn_command_line_sync(text, NULL, NULL, NULL, NULL));
	g_free(text);
	g_free(root);
}
END_TEST

START_TEST(zoneinfo_pcp)
{
	char *text = tree_read("6.1", "proc/zoneinfo");
	GArray *z = sa_zoneinfo_parse(text, NULL);
	guint64 pcp = 0, present = 0;
	guint i;

	for (i = 0; i < z->len; i++) {
		pcp += g_array_index(z, struct sa_zone_info, i).pcp;
		present += g_array_index(z, struct sa_zone_info, i).present;
	}
	/* awk '$1 == "count:" { s += $2 }' and '$1 == "present"' */
	ck_assert_uint_eq(pcp, 283);
	ck_assert_uint_eq(present, 130942);
	/* the watermarks are not taken from the pagesets' "high:" */
	ck_assert_uint_ne(g_array_index(z, struct sa_zone_info, 1).high, 0);
	g_array_unref(z);
	g_free(text);
}
END_TEST

START_TEST(vmalloc_stacks)
{
	ck_assert_uint_eq(sa_vmallocinfo_stack_pages(
		"0x1-0x2   20480 alloc_thread_stack_node+0x12f/0x4d0 pages=4 "
		"vmalloc N0=4\n"
		"0x3-0x4   20480 dup_task_struct+0x50/0x1a0 pages=4 vmalloc\n"
		"0x5-0x6   8192 bpf_prog_alloc+0x1/0x2 pages=1 vmalloc\n"
		"0x7-0x8   8192 stack_depot_init+0x1/0x2 pages=9 vmalloc\n"
		"0x9-0xa   20480 kernel_clone+0xbf/0x430 pages=4 vmalloc N0=4\n"
		"0xb-0xc   20480 irq_init_percpu_irqstack+0xf0/0x120 vmap\n"),
		12);
	ck_assert_uint_eq(sa_vmallocinfo_stack_pages(""), 0);
}
END_TEST

START_TEST(vmalloc_union)
{
	/* the second reading skipped 0x3 (an area freed before it) */
	char *texts[] = {
		"0x1-0x2 8192 a+0x1/0x2 pages=1 vmalloc\n"
		"0x3-0x4 8192 b+0x1/0x2 pages=1 vmalloc\n",
		"0x1-0x2 8192 a+0x1/0x2 pages=1 vmalloc\n"
		"0x5-0x6 20480 kernel_clone+0x1/0x2 pages=4 vmalloc\n",
		NULL,
	};
	char *u = sa_vmallocinfo_union(texts, 3);

	ck_assert_str_eq(u, "0x1-0x2 8192 a+0x1/0x2 pages=1 vmalloc\n"
			 "0x3-0x4 8192 b+0x1/0x2 pages=1 vmalloc\n"
			 "0x5-0x6 20480 kernel_clone+0x1/0x2 pages=4 vmalloc\n");
	ck_assert_uint_eq(sa_vmallocinfo_stack_pages(u), 4);
	g_free(u);
	ck_assert_ptr_null(sa_vmallocinfo_union(texts, 0));
}
END_TEST

START_TEST(btf_struct_size)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	GError *e = NULL;
	__u32 len;
	int u64;

	u64 = btf__add_int(btf, "u64", 8, 0);
	ck_assert_int_gt(u64, 0);
	ck_assert_int_gt(btf__add_struct(btf, "page", 64), 0);
	ck_assert_int_eq(btf__add_field(btf, "flags", u64, 0, 0), 0);
	ck_assert_int_gt(btf__add_union(btf, "pageish", 8), 0);
	raw = btf__raw_data(btf, &len);
	ck_assert_uint_eq(sa_btf_struct_size(raw, len, "page", &e), 64);
	/* a union of that name is not the struct */
	ck_assert_uint_eq(sa_btf_struct_size(raw, len, "pageish", &e), 0);
	ck_assert_str_eq(e->message, "BTF: no struct pageish");
	g_clear_error(&e);
	ck_assert_uint_eq(sa_btf_struct_size("not BTF", 7, "page", &e), 0);
	ck_assert(g_str_has_prefix(e->message, "BTF: not a BTF file"));
	g_clear_error(&e);
	btf__free(btf);
}
END_TEST

static char *btf_file(const void *data, size_t len)
{
	char *path = g_strdup("/tmp/sa-test-btf-XXXXXX");
	int fd = g_mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

/*
 * The file read in pieces gives libbpf's answer, through every kind of
 * type that adds bytes after its 12 (so that a wrong length for one
 * kind loses the struct that follows), and refuses what is cut short.
 */
START_TEST(btf_struct_size_file)
{
	static const char *const names[] = { "page", "pag", "pages",
					     "after", "u64", "pageish" };
	struct btf *btf = btf__new_empty();
	const void *raw;
	GError *e = NULL;
	char *path;
	__u32 len;
	int u64, fp, i;

	u64 = btf__add_int(btf, "u64", 8, 0);
	ck_assert_int_gt(btf__add_ptr(btf, u64), 0);
	ck_assert_int_gt(btf__add_array(btf, u64, u64, 4), 0);
	ck_assert_int_gt(btf__add_struct(btf, "pag", 24), 0);
	ck_assert_int_eq(btf__add_field(btf, "a", u64, 0, 0), 0);
	ck_assert_int_eq(btf__add_field(btf, "b", u64, 64, 0), 0);
	ck_assert_int_gt(btf__add_union(btf, "pageish", 8), 0);
	ck_assert_int_eq(btf__add_field(btf, "c", u64, 0, 0), 0);
	ck_assert_int_gt(btf__add_enum(btf, "e", 4), 0);
	ck_assert_int_eq(btf__add_enum_value(btf, "E1", 1), 0);
	ck_assert_int_eq(btf__add_enum_value(btf, "E2", 2), 0);
	ck_assert_int_gt(btf__add_enum64(btf, "e64", 8, false), 0);
	ck_assert_int_eq(btf__add_enum64_value(btf, "F1", 1), 0);
	fp = btf__add_func_proto(btf, u64);
	ck_assert_int_gt(fp, 0);
	ck_assert_int_eq(btf__add_func_param(btf, "x", u64), 0);
	ck_assert_int_gt(btf__add_func(btf, "fn", BTF_FUNC_GLOBAL, fp), 0);
	ck_assert_int_gt(btf__add_typedef(btf, "td", u64), 0);
	ck_assert_int_gt(btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED,
				      u64), 0);
	ck_assert_int_gt(btf__add_datasec(btf, ".data", 8), 0);
	ck_assert_int_eq(btf__add_datasec_var_info(btf, u64 + 12, 0, 8), 0);
	ck_assert_int_gt(btf__add_float(btf, "f", 8), 0);
	ck_assert_int_gt(btf__add_decl_tag(btf, "tag", u64, -1), 0);
	ck_assert_int_gt(btf__add_fwd(btf, "fwd", BTF_FWD_STRUCT), 0);
	ck_assert_int_gt(btf__add_struct(btf, "page", 64), 0);
	ck_assert_int_eq(btf__add_field(btf, "flags", u64, 0, 0), 0);
	ck_assert_int_gt(btf__add_struct(btf, "after", 16), 0);
	raw = btf__raw_data(btf, &len);
	path = btf_file(raw, len);
	for (i = 0; i < (int)G_N_ELEMENTS(names); i++) {
		GError *e2 = NULL;
		guint64 want = sa_btf_struct_size(raw, len, names[i], &e2);

		ck_assert_msg(sa_btf_struct_size_file(path, names[i], &e) ==
			      want, "struct %s: not libbpf's %" G_GUINT64_FORMAT,
			      names[i], want);
		ck_assert_int_eq(!e, !e2);
		g_clear_error(&e);
		g_clear_error(&e2);
	}
	ck_assert_uint_eq(sa_btf_struct_size_file(path, "page", &e), 64);
	unlink(path);
	g_free(path);
	/* cut inside the types: the struct after the cut is not found */
	path = btf_file(raw, len - 40);
	ck_assert_uint_eq(sa_btf_struct_size_file(path, "after", &e), 0);
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	unlink(path);
	g_free(path);
	path = btf_file("not BTF at all, not at all", 26);
	ck_assert_uint_eq(sa_btf_struct_size_file(path, "page", &e), 0);
	ck_assert(g_str_has_prefix(e->message, "BTF: not a BTF file"));
	g_clear_error(&e);
	unlink(path);
	g_free(path);
	ck_assert_uint_eq(sa_btf_struct_size_file("/nonexistent/btf", "page",
						  &e), 0);
	ck_assert_ptr_nonnull(e);
	g_clear_error(&e);
	btf__free(btf);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("budget-sources");
	TCase *tc = tcase_create("budget-sources");

	tcase_add_loop_test(tc, memory_lines, 0, G_N_ELEMENTS(logs));
	tcase_add_test(tc, memory_line_wanted_and_odd);
	tcase_add_test(tc, iomem_ram);
	tcase_add_test(tc, memmap_ram);
	tcase_add_test(tc, trace_buffers);
	tcase_add_test(tc, trace_buffers_online);
	tcase_add_test(tc, zoneinfo_pcp);
	tcase_add_test(tc, vmalloc_stacks);
	tcase_add_test(tc, vmalloc_union);
	tcase_add_test(tc, btf_struct_size);
	tcase_add_test(tc, btf_struct_size_file);
	tcase_add_test(tc, devicetree_memory);
	tcase_add_test(tc, memblock_reserved);
	suite_add_tcase(s, tc);
	return s;
}
