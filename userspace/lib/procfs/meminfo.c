// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/meminfo: parse it, and compute what free(1) and sar print.
 */
#include <string.h>

#include "procfs/meminfo.h"
#include "procfs/parse.h"

GHashTable *sa_meminfo_parse(const char *text, GError **err)
{
	return sa_procfile_parse_keyvals(text, ':', "meminfo", err);
}

bool sa_meminfo_get(GHashTable *mi, const char *name, guint64 *v)
{
	return sa_procfile_get(mi, name, v);
}

static guint64 get0(GHashTable *mi, const char *name)
{
	guint64 v = 0;

	sa_meminfo_get(mi, name, &v);
	return v;
}

static double pct(guint64 part, guint64 whole)
{
	return whole ? 100.0 * part / whole : 0;
}

int sa_memfree_compute(GHashTable *mi, struct sa_memfree *f, GError **err)
{
	guint64 hp_total, hp_free, hp_size;

	memset(f, 0, sizeof(*f));
	if (!sa_meminfo_get(mi, "MemTotal", &f->total) ||
	    !sa_meminfo_get(mi, "MemFree", &f->free)) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "meminfo has no MemTotal or MemFree");
		return -1;
	}
	f->shared = get0(mi, "Shmem");
	f->buffers = get0(mi, "Buffers");
	f->sreclaimable = get0(mi, "SReclaimable");
	f->cache = get0(mi, "Cached") + f->sreclaimable;
	f->buff_cache = f->buffers + f->cache;
	if (!sa_meminfo_get(mi, "MemAvailable", &f->available)) {
		f->available = f->free;
		f->available_estimated = true;
	}
	if (f->total >= f->available)
		f->used = f->total - f->available;
	else
		f->used = f->total - f->free;
	f->swap_total = get0(mi, "SwapTotal");
	f->swap_free = get0(mi, "SwapFree");
	f->swap_used = f->swap_total > f->swap_free ?
		f->swap_total - f->swap_free : 0;
	f->swap_cached = get0(mi, "SwapCached");
	f->swap_used_pct = pct(f->swap_used, f->swap_total);
	f->swap_cached_pct = pct(f->swap_cached, f->swap_used);

	f->file_lru = get0(mi, "Active(file)") + get0(mi, "Inactive(file)");
	f->anon = get0(mi, "AnonPages");
	f->slab = get0(mi, "Slab");
	f->sunreclaim = get0(mi, "SUnreclaim");
	f->kernel_stack = get0(mi, "KernelStack");
	f->page_tables = get0(mi, "PageTables");
	f->vmalloc_used = get0(mi, "VmallocUsed");
	f->percpu = get0(mi, "Percpu");
	f->committed_as = get0(mi, "Committed_AS");
	f->commit_limit = get0(mi, "CommitLimit");
	f->commit_pct = pct(f->committed_as, f->total + f->swap_total);

	hp_total = get0(mi, "HugePages_Total");
	hp_free = get0(mi, "HugePages_Free");
	hp_size = get0(mi, "Hugepagesize");
	f->huge_total_kb = hp_total * hp_size;
	f->huge_free_kb = hp_free * hp_size;
	f->huge_used_pct = pct(f->huge_total_kb - f->huge_free_kb,
			       f->huge_total_kb);
	return 0;
}
