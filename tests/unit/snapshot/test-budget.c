// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the RAM budget of a captured 6.1 guest with 256 MB
 * (tests/data/proc/6.1-budget: its iomem, firmware memmap, dmesg,
 * meminfo, zoneinfo, buddyinfo, vmallocinfo and tracefs buffer size),
 * each owner against the figure of its file, computed by hand, and the
 * arithmetic: the owners sum to the RAM. The tree has no BTF (5 MB):
 * sizeof(struct page) is given in the capture's form.
 */
#include <check.h>
#include <string.h>

#include "snapshot/budget.h"
#include "test-snapshot-data.h"

Suite *suite(void);

static struct sa_budget_input *input(void)
{
	char *root = tree_path("6.1-budget");
	struct sa_budget_input *in = sa_budget_capture(root);

	g_free(root);
	in->page_size = 4096;
	return in;
}

static gint64 kb(const struct sa_budget *b, const char *key)
{
	guint i;

	for (i = 0; i < b->rows->len; i++) {
		const struct sa_budget_row *r = &g_array_index(b->rows,
				struct sa_budget_row, i);

		if (!strcmp(r->key, key))
			return r->kb;
	}
	ck_abort_msg("no owner %s", key);
	return -1;
}

static bool has(const struct sa_budget *b, const char *key)
{
	guint i;

	for (i = 0; i < b->rows->len; i++)
		if (!strcmp(g_array_index(b->rows, struct sa_budget_row,
					  i).key, key))
			return true;
	return false;
}

static gint64 leaves(const struct sa_budget *b)
{
	gint64 sum = 0;
	guint i;

	for (i = 0; i < b->rows->len; i++)
		if (g_array_index(b->rows, struct sa_budget_row, i).leaf)
			sum += g_array_index(b->rows, struct sa_budget_row,
					     i).kb;
	return sum;
}

START_TEST(guest_61)
{
	struct sa_budget_input *in = input();
	struct sa_budget *b = sa_budget_compute(in, NULL);

	ck_assert_ptr_nonnull(b);
	/* iomem: pages 1..158 and 0x100..0xffdf: 65406 pages, as dmesg's
	 * "Memory: 182456K/261624K" */
	ck_assert_str_eq(b->ram_source, "iomem");
	ck_assert_int_eq(b->ram_kb, 261624);
	ck_assert_int_eq(b->dmesg_present_kb, 261624);
	/* the firmware's map also has page 0 */
	ck_assert_int_eq(b->memmap_kb, 261628);
	ck_assert_int_eq(b->present_kb, 261624);
	ck_assert_int_eq(kb(b, "ram"), 261624);
	ck_assert_int_eq(kb(b, "memtotal"), 208484);
	ck_assert_int_eq(kb(b, "reserved"), 261624 - 208484);
	/* the bss less its unused decrypted part, freed */
	/* iomem: Kernel data ends at 0x0844897f, Kernel bss starts at
	 * 0x08b10000: 7108224 bytes, 6941 kB, less the init sections
	 * (2824K) and .smp_locks freed (36K): the other sections */
	ck_assert_int_eq(kb(b, "reserved.kernel_image.other"),
			 6941 - 2824 - 36);
	ck_assert_int_eq(kb(b, "reserved.kernel_image"),
			 14343 + 2338 + 9132 + 17344 - 2036 + 4081);
	ck_assert_int_eq(kb(b, "reserved.kernel_image.bss"), 17344 - 2036);
	ck_assert(!has(b, "reserved.kernel_image.init"));	/* freed */
	ck_assert_int_eq(kb(b, "reserved.percpu_first_chunk"), 62 * 2 * 4);
	ck_assert(!has(b, "reserved.crash_kernel"));
	/* Dentry cache 262144 + Inode-cache 131072 bytes */
	ck_assert_int_eq(kb(b, "reserved.hash_tables"), 384);
	ck_assert_int_eq(kb(b, "reserved.unexplained"),
			 53140 - 41121 - 4081 - 496 - 384 - 632 - 172);
	/* NODE_DATA(0) allocated [mem 0x0ee58000-0x0ee82fff]: 176128 B */
	ck_assert_int_eq(kb(b, "reserved.node_data"), 172);
	/* iomem RAM 0x1000-0x9fbff: 158 whole pages below 1 MB, and the
	 * DMA zone's present - managed = 3998 - 3840 = 158 */
	ck_assert_int_eq(kb(b, "reserved.first_mb"), 158 * 4);
	ck_assert_int_eq(kb(b, "free.buddy"), 164072);
	ck_assert_int_eq(kb(b, "free.pcp"), 284 * 4);
	ck_assert_int_eq(kb(b, "slab.reclaimable"), 8916);
	ck_assert_int_eq(kb(b, "slab.unreclaimable"), 7952);
	ck_assert(!has(b, "kreclaimable_other"));	/* = SReclaimable */
	ck_assert_int_eq(kb(b, "page_cache.files"), 17840 - 17840);
	ck_assert_int_eq(kb(b, "page_cache.shmem"), 17840);
	ck_assert_int_eq(kb(b, "anon"), 144);
	ck_assert_int_eq(kb(b, "page_tables"), 80);
	/* 57 stacks in vmallocinfo (kernel_clone): inside VmallocUsed */
	ck_assert(!has(b, "kernel_stacks"));
	ck_assert_int_eq(kb(b, "vmalloc"), 5812);
	ck_assert_int_eq(kb(b, "vmalloc.kernel_stacks"), 876);
	ck_assert_int_eq(kb(b, "vmalloc.other"), 5812 - 876);
	ck_assert_int_eq(kb(b, "percpu"), 520 - 496);
	ck_assert_int_eq(kb(b, "trace_buffers"), 14);	/* not expanded */
	/* 11 later tables: 444416 bytes */
	ck_assert_int_eq(kb(b, "hash_tables"), 434);
	/* "DMA: preallocated 128 KiB ... pool" x 3: the atomic pools */
	ck_assert_int_eq(kb(b, "dma_pools"), 3 * 128);
	/* no tracefs dyn_ftrace_total_info in the tree: the log's
	 * "ftrace: allocated 159 pages with 6 groups" */
	ck_assert_int_eq(kb(b, "ftrace_records"), 159 * 4);
	ck_assert_int_eq(kb(b, "memtotal.unexplained"),
			 2494 - 434 - 384 - 636);
	ck_assert_int_eq(b->unexplained_kb, 6254 + 1040);
	/* no proc/kcore in the tree: no section roots */
	ck_assert(!has(b, "reserved.section_roots"));
	ck_assert_int_eq(leaves(b), b->ram_kb);
	ck_assert_uint_eq(b->zones->len, 5);
	ck_assert_uint_eq(g_array_index(b->zones, struct sa_budget_zone,
					1).nr_orders, 11);
	ck_assert_uint_eq(b->notes->len, 1);
	ck_assert(g_str_has_prefix(b->notes->pdata[0], "reserved at boot, "
				   "unexplained: most of it is the struct page "
				   "of each of the 65406 present pages "
				   "(zoneinfo), 64 bytes each on most 64-bit "
				   "kernels (4087 kB)"));
	sa_budget_free(b);
	sa_budget_input_free(in);
}
END_TEST

/* tracefs's count of the ftrace records comes before the boot log's */
START_TEST(ftrace_records)
{
	struct sa_budget_input *in = input();
	struct sa_budget *b;

	g_free(in->text[SA_BSRC_FTRACE]);
	in->text[SA_BSRC_FTRACE] = g_strdup("38475 pages:150 groups: 10\n"
					    "ftrace boot update time = 1 (ns)\n");
	b = sa_budget_compute(in, NULL);
	ck_assert_int_eq(kb(b, "ftrace_records"), 150 * 4);
	ck_assert_int_eq(leaves(b), b->ram_kb);
	sa_budget_free(b);
	/* not that shape: the log's 159 pages */
	g_free(in->text[SA_BSRC_FTRACE]);
	in->text[SA_BSRC_FTRACE] = g_strdup("pages:x groups: 1\n");
	b = sa_budget_compute(in, NULL);
	ck_assert_int_eq(kb(b, "ftrace_records"), 159 * 4);
	sa_budget_free(b);
	sa_budget_input_free(in);
}
END_TEST

START_TEST(struct_pages)
{
	struct sa_budget_input *in = input();
	struct sa_budget *b;

	/* the capture's form of the BTF's size */
	g_free(in->text[SA_BSRC_BTF]);
	in->text[SA_BSRC_BTF] = g_strdup("page 64\n");
	b = sa_budget_compute(in, NULL);
	/* 65406 present pages x 64 bytes = 4185984 bytes: 4087 kB */
	ck_assert_int_eq(kb(b, "reserved.struct_pages"), 4087);
	/* with the BTF: 2167 kB unexplained at boot, 0.8% of the RAM */
	ck_assert_int_eq(kb(b, "reserved.unexplained"), 6254 - 4087);
	ck_assert_int_eq(leaves(b), b->ram_kb);
	ck_assert_uint_eq(b->notes->len, 0);
	sa_budget_free(b);
	/* a size no struct page has is not taken */
	g_free(in->text[SA_BSRC_BTF]);
	in->text[SA_BSRC_BTF] = g_strdup("page 99999\n");
	b = sa_budget_compute(in, NULL);
	ck_assert(!has(b, "reserved.struct_pages"));
	sa_budget_free(b);
	sa_budget_input_free(in);
}
END_TEST

START_TEST(sources_missing)
{
	struct sa_budget_input *in = input();
	struct sa_budget *b;
	GError *e = NULL;
	int i;

	/* without iomem, the firmware's map; without it, the zones */
	g_clear_pointer(&in->text[SA_BSRC_IOMEM], g_free);
	b = sa_budget_compute(in, NULL);
	ck_assert_str_eq(b->ram_source, "memmap");
	ck_assert_int_eq(kb(b, "reserved.unexplained"), 11139 + 4 - 172);
	ck_assert(!has(b, "reserved.kernel_image.other"));	/* iomem names it */
	ck_assert_int_eq(leaves(b), 261628);
	sa_budget_free(b);
	g_clear_pointer(&in->text[SA_BSRC_MEMMAP], g_free);
	/* without the log: no image, no first chunk; all of Percpu */
	g_clear_pointer(&in->text[SA_BSRC_KMSG], g_free);
	in->why[SA_BSRC_KMSG] = g_strdup("Operation not permitted");
	b = sa_budget_compute(in, NULL);
	ck_assert_str_eq(b->ram_source, "zoneinfo");
	ck_assert(!has(b, "reserved.kernel_image"));
	ck_assert_int_eq(kb(b, "percpu"), 520);
	ck_assert_int_eq(kb(b, "reserved.unexplained"), 261624 - 208484);
	ck_assert_int_eq(leaves(b), 261624);
	ck_assert_str_eq(b->notes->pdata[0], "kmsg not available (Operation "
			 "not permitted): the kernel image and the percpu "
			 "first chunk are in unexplained");
	sa_budget_free(b);
	/* no meminfo: no budget */
	for (i = 0; i < SA_BSRC_NR; i++)
		g_clear_pointer(&in->text[i], g_free);
	ck_assert_ptr_null(sa_budget_compute(in, &e));
	ck_assert_str_eq(e->message, "meminfo: not available");
	g_clear_error(&e);
	in->text[SA_BSRC_MEMINFO] = g_strdup("MemTotal: 100 kB\n");
	ck_assert_ptr_null(sa_budget_compute(in, &e));
	ck_assert_str_eq(e->message, "no source of the RAM size (iomem, "
			 "firmware memmap, device tree, zoneinfo)");
	g_clear_error(&e);
	g_free(in->text[SA_BSRC_MEMINFO]);
	in->text[SA_BSRC_MEMINFO] = g_strdup("MemTotal: 100 kB\n"
					     "AnonPages: 18446744073709551615 kB\n");
	ck_assert_ptr_null(sa_budget_compute(in, &e));
	ck_assert_str_eq(e->message, "meminfo: AnonPages is implausible");
	g_clear_error(&e);
	in->page_size = 3000;
	ck_assert_ptr_null(sa_budget_compute(in, &e));
	g_clear_error(&e);
	sa_budget_input_free(in);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("budget");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, guest_61);
	tcase_add_test(tc, struct_pages);
	tcase_add_test(tc, ftrace_records);
	tcase_add_test(tc, sources_missing);
	suite_add_tcase(s, tc);
	return s;
}
