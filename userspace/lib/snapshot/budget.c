// SPDX-License-Identifier: GPL-2.0
/*
 * The RAM budget (budget.h): capture its sources, and split the RAM.
 */
#include <string.h>
#include <unistd.h>

#include "snapshot/budget.h"
#include "procfs/btf.h"
#include "procfs/buddyinfo.h"
#include "procfs/kmsg.h"
#include "procfs/meminfo.h"
#include "procfs/memlog.h"
#include "procfs/memmap.h"
#include "procfs/parse.h"
#include "procfs/tracebuf.h"
#include "procfs/vmallocinfo.h"
#include "procfs/vmcoreinfo.h"
#include "procfs/zoneinfo.h"

static const char *const source_names[SA_BSRC_NR] = {
	[SA_BSRC_MEMINFO] = "meminfo",
	[SA_BSRC_ZONEINFO] = "zoneinfo",
	[SA_BSRC_BUDDYINFO] = "buddyinfo",
	[SA_BSRC_IOMEM] = "iomem",
	[SA_BSRC_MEMMAP] = "memmap",
	[SA_BSRC_KMSG] = "kmsg",
	[SA_BSRC_TRACEBUF] = "tracefs",
	[SA_BSRC_VMALLOCINFO] = "vmallocinfo",
	[SA_BSRC_BTF] = "btf",
	[SA_BSRC_DEVICETREE] = "devicetree",
	[SA_BSRC_MEMBLOCK] = "memblock",
	[SA_BSRC_VMCOREINFO] = "vmcoreinfo",
	[SA_BSRC_FTRACE] = "ftrace",
};

const char *sa_budget_source_name(enum sa_budget_source src)
{
	return src < SA_BSRC_NR ? source_names[src] : "?";
}

/* several readings, united: one can skip a live area (vmallocinfo.h) */
static char *read_vmallocinfo(const char *root, const char *rel, GError **err)
{
	char *texts[SA_VMALLOCINFO_READS] = { NULL };
	char *text;
	int i;

	for (i = 0; i < SA_VMALLOCINFO_READS; i++) {
		texts[i] = sa_snap_read(root, rel, err);
		if (!texts[i])
			break;
	}
	text = i ? sa_vmallocinfo_union(texts, i) : NULL;
	if (text)
		g_clear_error(err);
	for (i = 0; i < SA_VMALLOCINFO_READS; i++)
		g_free(texts[i]);
	return text;
}

struct sa_budget_input *sa_budget_capture(const char *root)
{
	struct sa_budget_input *in = g_new0(struct sa_budget_input, 1);
	static const char *const files[SA_BSRC_NR] = {
		[SA_BSRC_MEMINFO] = "proc/meminfo",
		[SA_BSRC_ZONEINFO] = "proc/zoneinfo",
		[SA_BSRC_BUDDYINFO] = "proc/buddyinfo",
		[SA_BSRC_IOMEM] = "proc/iomem",
		[SA_BSRC_VMALLOCINFO] = "proc/vmallocinfo",
		[SA_BSRC_MEMBLOCK] = "sys/kernel/debug/memblock/reserved",
		[SA_BSRC_FTRACE] = "sys/kernel/tracing/dyn_ftrace_total_info",
	};
	int i;

	in->page_size = sysconf(_SC_PAGESIZE);
	for (i = 0; i < SA_BSRC_NR; i++) {
		GError *e = NULL;

		if (i == SA_BSRC_VMALLOCINFO)
			in->text[i] = read_vmallocinfo(root, files[i], &e);
		else if (files[i])
			in->text[i] = sa_snap_read(root, files[i], &e);
		else if (i == SA_BSRC_MEMMAP)
			in->text[i] = sa_memmap_capture(root, &e);
		else if (i == SA_BSRC_KMSG)
			in->text[i] = sa_kmsg_capture(root,
						      sa_memlog_line_wanted,
						      &e);
		else if (i == SA_BSRC_TRACEBUF)
			in->text[i] = sa_tracebuf_capture(root, &e);
		else if (i == SA_BSRC_DEVICETREE)
			in->text[i] = sa_devicetree_memory_capture(root, &e);
		else if (i == SA_BSRC_BTF)
			in->text[i] = sa_btf_struct_capture(root, "page", &e);
		else if (i == SA_BSRC_VMCOREINFO)
			in->text[i] = sa_vmcoreinfo_capture(root, &e);
		if (!in->text[i])
			in->why[i] = g_strdup(e ? e->message :
					      "not available");
		g_clear_error(&e);
	}
	return in;
}

void sa_budget_input_free(struct sa_budget_input *in)
{
	int i;

	if (!in)
		return;
	for (i = 0; i < SA_BSRC_NR; i++) {
		g_free(in->text[i]);
		g_free(in->why[i]);
	}
	g_free(in);
}

static void clear_row(gpointer p)
{
	g_free(((struct sa_budget_row *)p)->source);
}

/* Append a row; its index. */
static guint add(struct sa_budget *b, int depth, const char *key,
		 const char *label, gint64 kb, bool leaf, const char *fmt,
		 ...) G_GNUC_PRINTF(7, 8);
static guint add(struct sa_budget *b, int depth, const char *key,
		 const char *label, gint64 kb, bool leaf, const char *fmt,
		 ...)
{
	struct sa_budget_row r = {
		.key = key, .label = label, .depth = depth, .kb = kb,
		.leaf = leaf,
	};
	va_list ap;

	va_start(ap, fmt);
	r.source = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_array_append_val(b->rows, r);
	return b->rows->len - 1;
}

static struct sa_budget_row *row(struct sa_budget *b, guint i)
{
	return &g_array_index(b->rows, struct sa_budget_row, i);
}

/* A group's figure: the sum of the rows below it, up to its sibling. */
static void close_group(struct sa_budget *b, guint g)
{
	int depth = row(b, g)->depth;
	gint64 kb = 0;
	guint i;

	for (i = g + 1; i < b->rows->len && row(b, i)->depth > depth; i++)
		if (row(b, i)->depth == depth + 1)
			kb += row(b, i)->kb;
	row(b, g)->kb = kb;
}

static void note(struct sa_budget *b, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
static void note(struct sa_budget *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(b->notes, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

static void missing(struct sa_budget *b, const struct sa_budget_input *in,
		    int src, const char *effect)
{
	note(b, "%s not available (%s): %s", source_names[src],
	     in->why[src] ? in->why[src] : "?", effect);
}

/* The RAM, from the first source that has it; and the others' figures. */
static int ram(struct sa_budget *b, const struct sa_budget_input *in,
	       struct sa_memmap_ram *iomem, GError **err)
{
	struct sa_memmap_ram mm;
	guint64 pk = b->page_size / 1024;
	GError *e = NULL;
	guint i;

	b->iomem_kb = b->memmap_kb = b->present_kb = b->devicetree_kb = -1;
	memset(iomem, 0, sizeof(*iomem));
	if (in->text[SA_BSRC_IOMEM]) {
		if (!sa_iomem_parse(in->text[SA_BSRC_IOMEM], b->page_size,
				    iomem, &e))
			b->iomem_kb = iomem->pages * pk;
		else
			note(b, "%s", e->message);
		g_clear_error(&e);
	}
	if (in->text[SA_BSRC_MEMMAP]) {
		if (!sa_memmap_parse(in->text[SA_BSRC_MEMMAP], b->page_size,
				     &mm, &e))
			b->memmap_kb = mm.pages * pk;
		else
			note(b, "%s", e->message);
		g_clear_error(&e);
	}
	if (in->text[SA_BSRC_DEVICETREE]) {
		if (!sa_memmap_parse(in->text[SA_BSRC_DEVICETREE],
				     b->page_size, &mm, &e))
			b->devicetree_kb = mm.pages * pk;
		else
			note(b, "devicetree %s", e->message);
		g_clear_error(&e);
	}
	for (i = 0; b->zones && i < b->zones->len; i++) {
		if (b->present_kb < 0)
			b->present_kb = 0;
		b->present_kb += g_array_index(b->zones,
				struct sa_budget_zone, i).present_pages * pk;
	}
	if (b->iomem_kb >= 0) {
		b->ram_kb = b->iomem_kb;
		b->ram_source = "iomem";
	} else if (b->memmap_kb >= 0) {
		b->ram_kb = b->memmap_kb;
		b->ram_source = "memmap";
	} else if (b->devicetree_kb >= 0) {
		b->ram_kb = b->devicetree_kb;
		b->ram_source = "devicetree";
	} else if (b->present_kb >= 0) {
		b->ram_kb = b->present_kb;
		b->ram_source = "zoneinfo";
	} else {
		sa_parse_error(err, "no source of the RAM size (iomem, "
			       "firmware memmap, device tree, zoneinfo)");
		return -1;
	}
	return 0;
}

static void zones(struct sa_budget *b, const struct sa_budget_input *in)
{
	GArray *zi = NULL, *bi = NULL;
	guint i, j;

	b->zones = g_array_new(FALSE, TRUE, sizeof(struct sa_budget_zone));
	if (in->text[SA_BSRC_ZONEINFO])
		zi = sa_zoneinfo_parse(in->text[SA_BSRC_ZONEINFO], NULL);
	if (in->text[SA_BSRC_BUDDYINFO])
		bi = sa_buddyinfo_parse(in->text[SA_BSRC_BUDDYINFO], NULL);
	for (i = 0; zi && i < zi->len && i < 4096; i++) {
		const struct sa_zone_info *z = &g_array_index(zi,
				struct sa_zone_info, i);
		/* a zone of more than 2^40 pages (4 EiB) is malformed */
		struct sa_budget_zone bz = {
			.node = z->node, .free_pages = MIN(z->free, 1ull << 40),
			.pcp_pages = MIN(z->pcp, 1ull << 40),
			.managed_pages = MIN(z->managed, 1ull << 40),
			.present_pages = MIN(z->present, 1ull << 40),
		};

		g_strlcpy(bz.zone, z->zone, sizeof(bz.zone));
		for (j = 0; bi && j < bi->len; j++) {
			const struct sa_buddy_zone *y = &g_array_index(bi,
					struct sa_buddy_zone, j);

			if (y->node == z->node && !strcmp(y->zone, z->zone)) {
				bz.nr_orders = MIN(y->nr_orders, 16);
				memcpy(bz.nr_free, y->nr_free,
				       bz.nr_orders * sizeof(guint64));
			}
		}
		g_array_append_val(b->zones, bz);
	}
	if (zi)
		g_array_unref(zi);
	if (bi)
		g_array_unref(bi);
}

/* sizeof(struct page) from the capture's "page SIZE"; 0 if unknown */
static guint64 btf_page_size(const struct sa_budget_input *in)
{
	const char *t = in->text[SA_BSRC_BTF];
	guint64 v = 0;
	char *n;

	if (!t || !g_str_has_prefix(t, "page "))
		return 0;
	n = g_strchomp(g_strdup(t + 5));
	if (!sa_parse_u64(n, &v) || v > 4096)
		v = 0;
	g_free(n);
	return v;
}

/*
 * The image between .data and .bss that the Memory: line does not count
 * (x86: the bug and ORC unwind tables, the vvar page, .smp_locks,
 * .data_nosave, the init sections and the alignment between them):
 * iomem's "Kernel bss" start - "Kernel data" end, less the init
 * sections (the Memory: line's init: freed into MemTotal, or their own
 * row) and the .smp_locks freed. Where iomem does not name both, none.
 */
static void other_sections(struct sa_budget *b, const struct sa_memlog *ml,
			   const struct sa_memmap_ram *iomem)
{
	gint64 gap, kb;

	if (!iomem->kdata_end || iomem->kbss_start <= iomem->kdata_end)
		return;
	gap = MIN(iomem->kbss_start - iomem->kdata_end - 1, 1ull << 50);
	kb = gap / 1024 - (gint64)ml->init_kb - (gint64)ml->smp_alt_freed_kb;
	if (kb <= 0)
		return;
	add(b, 3, "reserved.kernel_image.other", "other sections", kb, true,
	    "iomem data..bss - init");
}

/*
 * x86 reserves the whole first 1 MB of RAM at boot (reserve_real_mode:
 * BIOSes corrupt it), and never gives it to the page allocator: iomem's
 * System RAM pages below 1 MB, where the DMA zone's present - managed
 * pages hold them all (measured, so no other architecture's low RAM is
 * taken for it). Its kB, 0 if not.
 */
static gint64 first_mb(struct sa_budget *b, const struct sa_memmap_ram *iomem)
{
	guint64 unmanaged = 0;
	bool dma = false;
	gint64 kb;
	guint i;

	if (!iomem->low_pages)
		return 0;
	for (i = 0; i < b->zones->len; i++) {
		const struct sa_budget_zone *z = &g_array_index(b->zones,
				struct sa_budget_zone, i);

		if (!strcmp(z->zone, "DMA") &&
		    z->present_pages >= z->managed_pages) {
			unmanaged += z->present_pages - z->managed_pages;
			dma = true;
		}
	}
	if (!dma || unmanaged < iomem->low_pages)
		return 0;
	kb = iomem->low_pages * (b->page_size / 1024);
	add(b, 2, "reserved.first_mb", "first 1 MB (x86)", kb, true,
	    "iomem RAM < 1 MB, DMA unmanaged");
	return kb;
}

/*
 * The sparse memory model's section roots (SPARSEMEM_EXTREME), which
 * sparse_init allocates from memblock at boot: LENGTH(mem_section)
 * pointers from VMCOREINFO (2 MB on 6.1 x86-64 with 5-level paging,
 * whatever the RAM), when mem_section is outside the kernel image (a
 * static array is part of the image: its figures already count it). The
 * image's extent is the Memory: line's sections and 8 MB for the
 * alignment between them. Its kB, 0 if none.
 */
static gint64 section_roots(struct sa_budget *b,
			    const struct sa_budget_input *in,
			    const struct sa_memlog *ml)
{
	struct sa_vmcoreinfo v;
	guint64 image, bytes;
	GError *e = NULL;

	if (!in->text[SA_BSRC_VMCOREINFO] || !ml->have_memory)
		return 0;
	if (sa_vmcoreinfo_parse(in->text[SA_BSRC_VMCOREINFO], &v, &e)) {
		note(b, "%s", e->message);
		g_clear_error(&e);
		return 0;
	}
	image = (ml->code_kb + ml->rwdata_kb + ml->rodata_kb + ml->init_kb +
		 ml->bss_kb) * 1024 + (8u << 20);
	bytes = sa_vmcoreinfo_section_roots(&v, image);
	if (!bytes)
		return 0;
	add(b, 2, "reserved.section_roots", "sparse section roots",
	    bytes / 1024, true, "vmcoreinfo mem_section x %"
	    G_GUINT64_FORMAT " B", v.ptr_size);
	return bytes / 1024;
}

static void reserved(struct sa_budget *b, const struct sa_budget_input *in,
		     gint64 memtotal, const struct sa_memlog *ml,
		     const struct sa_memmap_ram *iomem, gint64 *first_chunk)
{
	guint g = add(b, 1, "reserved", "reserved at boot", 0, false,
		      "%s - MemTotal", b->ram_source), img;
	gint64 named = 0;
	guint64 page_size;

	*first_chunk = -1;
	page_size = btf_page_size(in);
	if (page_size && b->present_kb >= 0) {
		gint64 kb = b->present_kb / (gint64)(b->page_size / 1024) *
			page_size / 1024;

		add(b, 2, "reserved.struct_pages", "struct pages", kb, true,
		    "zoneinfo present x %" G_GUINT64_FORMAT " B (BTF)",
		    page_size);
		named += kb;
	}
	if (ml->have_memory) {
		img = add(b, 2, "reserved.kernel_image", "kernel image", 0,
			  false, "dmesg Memory:");
		add(b, 3, "reserved.kernel_image.code", "code", ml->code_kb,
		    true, "dmesg kernel code");
		add(b, 3, "reserved.kernel_image.rwdata", "rwdata",
		    ml->rwdata_kb, true, "dmesg rwdata");
		add(b, 3, "reserved.kernel_image.rodata", "rodata",
		    ml->rodata_kb, true, "dmesg rodata");
		if (ml->decrypted_freed_kb)
			add(b, 3, "reserved.kernel_image.bss", "bss",
			    (gint64)ml->bss_kb - ml->decrypted_freed_kb, true,
			    "dmesg bss - decrypted freed");
		else
			add(b, 3, "reserved.kernel_image.bss", "bss",
			    ml->bss_kb, true, "dmesg bss");
		if (!ml->init_freed)
			add(b, 3, "reserved.kernel_image.init", "init",
			    ml->init_kb, true, "dmesg init (not freed)");
		other_sections(b, ml, iomem);
		close_group(b, img);
		named += row(b, img)->kb;
	} else if (in->text[SA_BSRC_KMSG]) {
		note(b, "the kernel log has no \"Memory:\" line (overwritten?): "
		     "the kernel image is in unexplained");
	}
	if (ml->have_percpu) {
		*first_chunk = ml->percpu_pages * ml->percpu_units *
			(b->page_size / 1024);
		add(b, 2, "reserved.percpu_first_chunk", "percpu first chunk",
		    *first_chunk, true, "dmesg %" G_GUINT64_FORMAT
		    " pages/cpu x %u", ml->percpu_pages, ml->percpu_units);
		named += *first_chunk;
	}
	if (ml->node_datas) {
		gint64 kb = ml->node_data_bytes / 1024;

		add(b, 2, "reserved.node_data", "node data", kb, true,
		    "dmesg NODE_DATA allocated x %u", ml->node_datas);
		named += kb;
	}
	if (ml->early_hashes) {
		gint64 kb = ml->early_hash_bytes / 1024;

		add(b, 2, "reserved.hash_tables", "hash tables (early)", kb,
		    true, "dmesg %u linear, HASH_EARLY", ml->early_hashes);
		named += kb;
	}
	named += section_roots(b, in, ml);
	if (iomem->crash_bytes) {
		gint64 kb = iomem->crash_bytes / 1024;

		add(b, 2, "reserved.crash_kernel", "crash kernel", kb, true,
		    "iomem Crash kernel");
		named += kb;
	}
	named += first_mb(b, iomem);
	add(b, 2, "reserved.unexplained", "unexplained",
	    b->ram_kb - memtotal - named, true, page_size ?
	    "early page tables, ..." : "struct pages, ... (notes)");
	row(b, b->rows->len - 1)->unexplained = true;
	if (!page_size && b->present_kb > 0)
		note(b, "reserved at boot, unexplained: most of it is the "
		     "struct page of each of the %" G_GINT64_FORMAT " present "
		     "pages (zoneinfo), 64 bytes each on most 64-bit kernels "
		     "(%" G_GINT64_FORMAT " kB), not counted: %s",
		     b->present_kb / (gint64)(b->page_size / 1024),
		     b->present_kb / (gint64)(b->page_size / 1024) * 64 /
		     1024, in->why[SA_BSRC_BTF] ? in->why[SA_BSRC_BTF] :
		     "no struct page in the BTF");
	close_group(b, g);
}

static gint64 get(GHashTable *mi, const char *name, bool *have)
{
	guint64 v = 0;

	*have = sa_meminfo_get(mi, name, &v);
	return v;
}

/* A leaf from one meminfo line, if the line exists. */
static gint64 line(struct sa_budget *b, GHashTable *mi, int depth,
		   const char *key, const char *label, const char *name)
{
	bool have;
	gint64 kb = get(mi, name, &have);

	if (have)
		add(b, depth, key, label, kb, true, "meminfo %s", name);
	return have ? kb : 0;
}

/*
 * The dyn_ftrace records' pages now, from tracefs's "38475 pages:159
 * groups: 10" (entries, pages, groups): ftrace frees some after boot
 * (6.12-cloud: 168 at boot, 161 later), so this comes before the boot
 * log's line. False if the text is not that.
 */
static bool ftrace_pages(const struct sa_budget_input *in, guint64 *pages)
{
	const char *t = in->text[SA_BSRC_FTRACE], *p;
	char *e;

	if (!t || !(p = strstr(t, " pages:")) || p == t)
		return false;
	p += strlen(" pages:");
	*pages = g_ascii_strtoull(p, &e, 10);
	return e != p && g_str_has_prefix(e, " groups:") &&
	       *pages <= 1ull << 38;
}

static void memtotal(struct sa_budget *b, const struct sa_budget_input *in,
		     GHashTable *mi, gint64 total, gint64 first_chunk,
		     const struct sa_memlog *ml)
{
	guint g = add(b, 1, "memtotal", "page allocator", 0, false,
		      "meminfo MemTotal"), s;
	gint64 named = 0, kb, kb2, stacks = 0, pcp = 0;
	guint64 pk = b->page_size / 1024, stack_pages = 0, v;
	bool have, have2, vmap_stacks = false;
	GArray *tb = NULL;
	guint i;

	/* free: the buddy lists, and the per-CPU lists beside them */
	s = add(b, 2, "free", "free", 0, false, "meminfo, zoneinfo");
	line(b, mi, 3, "free.buddy", "buddy lists", "MemFree");
	if (b->zones->len) {
		for (i = 0; i < b->zones->len; i++)
			pcp += g_array_index(b->zones, struct sa_budget_zone,
					     i).pcp_pages * pk;
		add(b, 3, "free.pcp", "per-CPU lists", pcp, true,
		    "zoneinfo pagesets count");
	} else {
		missing(b, in, SA_BSRC_ZONEINFO, "the per-CPU free lists "
			"are in unexplained");
	}
	close_group(b, s);
	named += row(b, s)->kb;

	s = add(b, 2, "slab", "slab", 0, false, "meminfo Slab");
	line(b, mi, 3, "slab.reclaimable", "reclaimable", "SReclaimable");
	line(b, mi, 3, "slab.unreclaimable", "unreclaimable", "SUnreclaim");
	close_group(b, s);
	named += row(b, s)->kb;

	kb = get(mi, "KReclaimable", &have);
	kb2 = get(mi, "SReclaimable", &have2);
	if (have && have2 && kb != kb2) {
		add(b, 2, "kreclaimable_other", "other reclaimable kernel",
		    kb - kb2, true, "KReclaimable - SReclaimable");
		named += kb - kb2;
	}

	s = add(b, 2, "page_cache", "page cache", 0, false,
		"meminfo Buffers + Cached");
	line(b, mi, 3, "page_cache.buffers", "buffers", "Buffers");
	kb = get(mi, "Cached", &have);
	kb2 = get(mi, "Shmem", &have2);
	if (have)
		add(b, 3, "page_cache.files", "files", kb - kb2, true,
		    "meminfo Cached - Shmem");
	line(b, mi, 3, "page_cache.shmem", "shmem, tmpfs", "Shmem");
	close_group(b, s);
	named += row(b, s)->kb;

	named += line(b, mi, 2, "swap_cache", "swap cache", "SwapCached");
	named += line(b, mi, 2, "anon", "anon", "AnonPages");
	named += line(b, mi, 2, "hugetlb", "hugetlb", "Hugetlb");

	s = add(b, 2, "page_tables", "page tables", 0, false,
		"meminfo");
	line(b, mi, 3, "page_tables.user", "process", "PageTables");
	line(b, mi, 3, "page_tables.secondary", "secondary (KVM, IOMMU)",
	     "SecPageTables");
	close_group(b, s);
	named += row(b, s)->kb;

	/* kernel stacks: inside VmallocUsed when vmalloc'ed */
	stacks = get(mi, "KernelStack", &have);
	if (in->text[SA_BSRC_VMALLOCINFO]) {
		stack_pages = sa_vmallocinfo_stack_pages(
					in->text[SA_BSRC_VMALLOCINFO]);
		vmap_stacks = stack_pages > 0;
	} else if (have) {
		missing(b, in, SA_BSRC_VMALLOCINFO, "kernel stacks counted "
			"apart from vmalloc; if they are vmalloc'ed "
			"(VMAP_STACK) they are counted twice");
	}
	kb = get(mi, "VmallocUsed", &have2);
	if (have && !vmap_stacks) {
		add(b, 2, "kernel_stacks", "kernel stacks", stacks, true,
		    "meminfo KernelStack");
		named += stacks;
	}
	if (have2 && have && vmap_stacks) {
		s = add(b, 2, "vmalloc", "vmalloc", 0, false,
			"meminfo VmallocUsed");
		add(b, 3, "vmalloc.kernel_stacks", "kernel stacks", stacks,
		    true, "meminfo KernelStack");
		add(b, 3, "vmalloc.other", "other", kb - stacks, true,
		    "VmallocUsed - KernelStack");
		close_group(b, s);
		named += kb;
	} else if (have2) {
		add(b, 2, "vmalloc", "vmalloc", kb, true,
		    "meminfo VmallocUsed");
		named += kb;
	}

	kb = get(mi, "Percpu", &have);
	if (have && first_chunk >= 0) {
		add(b, 2, "percpu", "percpu (later chunks)", kb - first_chunk,
		    true, "Percpu - first chunk");
		named += kb - first_chunk;
	} else if (have) {
		add(b, 2, "percpu", "percpu", kb, true, "meminfo Percpu");
		note(b, "percpu: the first chunk (reserved at boot) is not "
		     "in the kernel log; all of Percpu is counted in "
		     "MemTotal");
		named += kb;
	}

	if (in->text[SA_BSRC_TRACEBUF])
		tb = sa_tracebuf_parse(in->text[SA_BSRC_TRACEBUF], NULL);
	if (tb) {
		kb = sa_tracebuf_total_kb(tb);
		add(b, 2, "trace_buffers", "trace buffers", kb, true,
		    "tracefs, CPUs online");
		named += kb;
		g_array_unref(tb);
	} else {
		missing(b, in, SA_BSRC_TRACEBUF, "trace buffers are in "
			"unexplained");
	}
	if (ml->hashes) {
		kb = ml->hash_bytes / 1024;
		add(b, 2, "hash_tables", "hash tables", kb, true,
		    "dmesg %u linear tables", ml->hashes);
		named += kb;
	}
	if (ftrace_pages(in, &v)) {
		kb = v * pk;
		add(b, 2, "ftrace_records", "ftrace records", kb, true,
		    "tracefs dyn_ftrace_total_info");
		named += kb;
	} else if (ml->have_ftrace) {
		kb = ml->ftrace_pages * pk;
		add(b, 2, "ftrace_records", "ftrace records", kb, true,
		    "dmesg ftrace: %" G_GUINT64_FORMAT " pages at boot",
		    ml->ftrace_pages);
		named += kb;
	}
	if (ml->dma_pools) {
		add(b, 2, "dma_pools", "DMA atomic pools", ml->dma_pool_kb,
		    true, "dmesg %u preallocated (at boot)", ml->dma_pools);
		named += ml->dma_pool_kb;
	}
	named += line(b, mi, 2, "zswap", "zswap pool", "Zswap");
	named += line(b, mi, 2, "unaccepted", "unaccepted", "Unaccepted");

	add(b, 2, "memtotal.unexplained", "unexplained", total - named, true,
	    "pages no counter names");
	row(b, b->rows->len - 1)->unexplained = true;
	close_group(b, g);
}

/* No figure is above 1 EiB, so that no sum of them overflows */
#define MAX_KB	(1ll << 50)

static bool implausible(GHashTable *mi, GError **err)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, mi);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (*(guint64 *)v > (guint64)MAX_KB &&
		    strcmp(k, "VmallocTotal")) {
			sa_parse_error(err, "meminfo: %s is implausible",
				       (const char *)k);
			return true;
		}
	return false;
}

struct sa_budget *sa_budget_compute(const struct sa_budget_input *in,
				    GError **err)
{
	struct sa_budget *b = g_new0(struct sa_budget, 1);
	struct sa_memmap_ram iomem;
	struct sa_memlog ml = { 0 };
	GHashTable *mi = NULL;
	guint64 total;
	gint64 first_chunk;
	guint r, i;

	b->page_size = in->page_size ? in->page_size : 4096;
	b->rows = g_array_new(FALSE, TRUE, sizeof(struct sa_budget_row));
	g_array_set_clear_func(b->rows, clear_row);
	b->notes = g_ptr_array_new_with_free_func(g_free);
	b->dmesg_present_kb = b->memblock_reserved_kb = -1;
	if (b->page_size < 1024 || b->page_size > (1u << 24) ||
	    (b->page_size & (b->page_size - 1))) {
		sa_parse_error(err, "page size %" G_GUINT64_FORMAT
			       " is not a power of 2 of 1 KiB to 16 MiB",
			       b->page_size);
		goto fail;
	}
	if (!in->text[SA_BSRC_MEMINFO]) {
		sa_parse_error(err, "meminfo: %s", in->why[SA_BSRC_MEMINFO] ?
			       in->why[SA_BSRC_MEMINFO] : "not available");
		goto fail;
	}
	mi = sa_meminfo_parse(in->text[SA_BSRC_MEMINFO], err);
	if (!mi)
		goto fail;
	if (!sa_meminfo_get(mi, "MemTotal", &total)) {
		sa_parse_error(err, "meminfo has no MemTotal");
		goto fail;
	}
	if (implausible(mi, err))
		goto fail;
	zones(b, in);
	if (ram(b, in, &iomem, err))
		goto fail;
	if (in->text[SA_BSRC_KMSG]) {
		sa_memlog_parse(in->text[SA_BSRC_KMSG], &ml);
		if (ml.have_memory)
			b->dmesg_present_kb = ml.present_kb;
	} else {
		missing(b, in, SA_BSRC_KMSG, "the kernel image and the "
			"percpu first chunk are in unexplained");
	}
	if (in->text[SA_BSRC_MEMBLOCK]) {
		guint64 bytes;
		GError *e = NULL;

		if (!sa_memblock_reserved_parse(in->text[SA_BSRC_MEMBLOCK],
						&bytes, &e))
			b->memblock_reserved_kb = bytes / 1024;
		else
			note(b, "%s", e->message);
		g_clear_error(&e);
	}
	r = add(b, 0, "ram", "RAM", b->ram_kb, false, "%s",
		!strcmp(b->ram_source, "zoneinfo") ? "zoneinfo present" :
		!strcmp(b->ram_source, "iomem") ? "iomem System RAM" :
		!strcmp(b->ram_source, "devicetree") ? "device tree memory" :
		"firmware memmap System RAM");
	reserved(b, in, total, &ml, &iomem, &first_chunk);
	memtotal(b, in, mi, total, first_chunk, &ml);
	row(b, r)->kb = b->ram_kb;
	for (i = 0; i < b->rows->len; i++)
		if (row(b, i)->unexplained)
			b->unexplained_kb += row(b, i)->kb;
	g_hash_table_unref(mi);
	return b;
fail:
	if (mi)
		g_hash_table_unref(mi);
	sa_budget_free(b);
	return NULL;
}

void sa_budget_free(struct sa_budget *b)
{
	if (!b)
		return;
	g_array_unref(b->rows);
	if (b->zones)
		g_array_unref(b->zones);
	g_ptr_array_unref(b->notes);
	g_free(b);
}
