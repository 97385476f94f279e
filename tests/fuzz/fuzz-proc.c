// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parser of each /proc (and /sys, /dev/kmsg) text
 * that slabacct snapshot reads (procfs/), and what is computed
 * from each. The first byte of the input chooses the parser ('0' + the
 * index of the table below, modulo its size); the rest is the text.
 */
#include <string.h>

#include "procfs/buddyinfo.h"
#include "procfs/meminfo.h"
#include "procfs/memlog.h"
#include "procfs/memmap.h"
#include "procfs/oomlog.h"
#include "procfs/pagetypeinfo.h"
#include "procfs/procs.h"
#include "procfs/psi.h"
#include "procfs/rates.h"
#include "procfs/slabinfo.h"
#include "procfs/swaps.h"
#include "procfs/tracebuf.h"
#include "procfs/vmstat.h"
#include "procfs/zoneinfo.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void meminfo(const char *t, GError **err)
{
	GHashTable *mi = sa_meminfo_parse(t, err);
	struct sa_memfree f;

	if (mi) {
		sa_memfree_compute(mi, &f, err);
		g_hash_table_unref(mi);
	}
}

static void vmstat(const char *t, GError **err)
{
	GHashTable *vm = sa_vmstat_parse(t, err);
	struct sa_vm_counters a = { 0 }, b;
	struct sa_vm_rates r;

	if (vm) {
		sa_vm_counters_get(vm, &b);
		sa_vm_rates_compute(&a, &b, 1.0, 4096, &r);
		sa_vm_rates_compute(&b, &a, 0.5, 65536, &r);
		g_hash_table_unref(vm);
	}
}

static void slab(struct sa_slab_table *t)
{
	int k;

	if (!t)
		return;
	for (k = SA_SLAB_BY_SIZE; k <= SA_SLAB_BY_LOSS; k++)
		g_ptr_array_unref(sa_slab_sorted(t, k));
	sa_slab_table_free(t);
}

static void slabinfo(const char *t, GError **err)
{
	slab(sa_slab_parse_proc(t, 4096, err));
}

static void slab_sysfs(const char *t, GError **err)
{
	slab(sa_slab_parse_sysfs(t, 4096, err));
}

static void buddyinfo(const char *t, GError **err)
{
	GArray *zones = sa_buddyinfo_parse(t, err);
	guint i;
	int o;

	for (i = 0; zones && i < zones->len; i++) {
		const struct sa_buddy_zone *z = &g_array_index(zones,
				struct sa_buddy_zone, i);

		sa_buddy_free_pages(z);
		for (o = 0; o < z->nr_orders; o++) {
			sa_buddy_free_pages_from(z, o);
			sa_buddy_unusable(z, o);
			sa_buddy_unusable_milli(z, o);
		}
	}
	if (zones)
		g_array_unref(zones);
}

static void pagetypeinfo(const char *t, GError **err)
{
	sa_pagetypeinfo_free(sa_pagetypeinfo_parse(t, err));
}

static void zoneinfo(const char *t, GError **err)
{
	GArray *zones = sa_zoneinfo_parse(t, err);

	if (zones)
		g_array_unref(zones);
}

static void swaps(const char *t, GError **err)
{
	GArray *s = sa_swaps_parse(t, err);

	if (s)
		g_array_unref(s);
}

static void psi(const char *t, GError **err)
{
	struct sa_psi p;

	sa_psi_parse(t, &p, err);
}

static void procs(const char *t, GError **err)
{
	GArray *p = sa_procs_parse(t, err);
	int k;

	if (!p)
		return;
	for (k = SA_PROC_BY_RSS; k <= SA_PROC_BY_SWAP; k++)
		g_ptr_array_unref(sa_procs_sorted(p, k));
	g_array_unref(p);
}

static void oomlog(const char *t, GError **err)
{
	char **lines = g_strsplit(t, "\n", -1), **l;
	GArray *k;

	(void)err;
	for (l = lines; *l; l++)
		sa_oomlog_line_wanted(*l);
	g_strfreev(lines);
	k = sa_oomlog_parse(t);
	if (k)
		g_array_unref(k);
}

/* one process's smaps_rollup and status, as the capture reads them */
static void proc_files(const char *t, GError **err)
{
	struct sa_proc_mem p = { 0 };

	(void)err;
	sa_proc_from_smaps(t, &p);
	g_free(p.name);
	memset(&p, 0, sizeof(p));
	sa_proc_from_status(t, &p);
	g_free(p.name);
}

/* the firmware's memory map, as the memory budget reads it */
static void memmap(const char *t, GError **err)
{
	struct sa_memmap_ram r;

	sa_memmap_parse(t, 4096, &r, err);
}

static void iomem(const char *t, GError **err)
{
	struct sa_memmap_ram r;

	sa_iomem_parse(t, 4096, &r, err);
}

static void memblock(const char *t, GError **err)
{
	guint64 bytes;

	sa_memblock_reserved_parse(t, &bytes, err);
}

static void tracebuf(const char *t, GError **err)
{
	GArray *b = sa_tracebuf_parse(t, err);

	if (!b)
		return;
	sa_tracebuf_total_kb(b);
	g_array_unref(b);
}

/* the boot's memory lines of /dev/kmsg (or dmesg) */
static void memlog(const char *t, GError **err)
{
	struct sa_memlog ml;

	(void)err;
	sa_memlog_parse(t, &ml);
}

static void (*const parsers[])(const char *, GError **) = {
	meminfo, vmstat, slabinfo, slab_sysfs, buddyinfo, pagetypeinfo,
	zoneinfo, swaps, psi, procs, oomlog, proc_files, memmap, iomem,
	memblock, tracebuf, memlog,
};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	GError *err = NULL;
	char *text;

	if (!size)
		return 0;
	text = g_strndup((const char *)data + 1, size - 1);
	parsers[(data[0] - '0') % G_N_ELEMENTS(parsers)](text, &err);
	g_clear_error(&err);
	g_free(text);
	return 0;
}
