// SPDX-License-Identifier: GPL-2.0
/*
 * The boot log's memory lines (memlog.h).
 */
#include <string.h>

#include "procfs/kmsg.h"
#include "procfs/memlog.h"
#include "procfs/parse.h"

static const char *const wanted[] = {
	"] Memory: ", ";Memory: ", "percpu: Embedded ", "pcpu-alloc: [",
	"Freeing unused kernel", "Freeing initrd memory: ",
	" hash table entries: ", "Freeing unused decrypted memory: ",
	"Freeing SMP alternatives memory: ", "NODE_DATA(",
	"DMA: preallocated ", "ftrace: allocated ",
};

/* The tables alloc_large_system_hash makes with HASH_EARLY */
static const char *const early_hashes[] = {
	"Dentry cache", "Inode-cache", "PV qspinlock",
};

bool sa_memlog_line_wanted(const char *line)
{
	size_t i;

	if (g_str_has_prefix(line, "Memory: "))
		return true;
	for (i = 0; i < G_N_ELEMENTS(wanted); i++)
		if (strstr(line, wanted[i]))
			return true;
	return false;
}

/* No figure of the log is larger (1 EiB); a larger one is malformed */
#define MAX_KB	(1ull << 50)

/* "123K" -> 123; false if s is not that. */
static bool parse_k(const char *s, guint64 *v)
{
	size_t l = strlen(s);
	char *num;
	bool ok;

	if (l < 2 || s[l - 1] != 'K')
		return false;
	num = g_strndup(s, l - 1);
	ok = sa_parse_u64(num, v) && *v <= MAX_KB;
	g_free(num);
	return ok;
}

/* "260916K/523768K available (14343K kernel code, ..., 0K cma-reserved)" */
static bool parse_memory(const char *m, struct sa_memlog *ml)
{
	struct sa_memlog t = *ml;
	char **slash, **items, **it;
	const char *open = strchr(m, '('), *close = strrchr(m, ')');
	char *head, *inner;
	bool ok;

	if (!open || !close || close < open)
		return false;
	head = g_strndup(m, open - m);
	slash = g_strsplit(g_strstrip(head), "/", 2);
	ok = slash[0] && slash[1] && parse_k(slash[0], &t.avail_kb) &&
	     g_str_has_suffix(slash[1], "K available");
	if (ok) {
		slash[1][strlen(slash[1]) - strlen(" available")] = '\0';
		ok = parse_k(slash[1], &t.present_kb);
	}
	g_strfreev(slash);
	g_free(head);
	if (!ok)
		return false;
	inner = g_strndup(open + 1, close - open - 1);
	items = g_strsplit(inner, ",", -1);
	for (it = items; *it; it++) {
		char *item = g_strstrip(*it), *sp = strchr(item, ' ');
		guint64 v;

		if (!sp)
			continue;
		*sp = '\0';
		if (!parse_k(item, &v))
			continue;
		sp++;
		if (!strcmp(sp, "kernel code"))
			t.code_kb = v;
		else if (!strcmp(sp, "rwdata"))
			t.rwdata_kb = v;
		else if (!strcmp(sp, "rodata"))
			t.rodata_kb = v;
		else if (!strcmp(sp, "init"))
			t.init_kb = v;
		else if (!strcmp(sp, "bss"))
			t.bss_kb = v;
		else if (!strcmp(sp, "reserved"))
			t.reserved_kb = v;
		else if (!strcmp(sp, "cma-reserved"))
			t.cma_kb = v;
	}
	g_strfreev(items);
	g_free(inner);
	t.have_memory = true;
	*ml = t;
	return true;
}

/* The size at the end of "...: 2824K"; false without one. */
static bool trailing_k(const char *m, guint64 *v)
{
	const char *p = strrchr(m, ' ');

	return p && parse_k(p + 1, v);
}

static void parse_pcpu_units(const char *m, struct sa_memlog *ml)
{
	struct sa_line l = { m, strlen(m), 0 };
	char **f;
	int n, i;

	f = sa_line_fields(&l, &n);
	for (i = 1; i < n && ml->percpu_units < 1u << 20; i++)
		if (f[i][0] != '[')
			ml->percpu_units++;
	g_strfreev(f);
}

/* "NAME hash table entries: N (order: K, BYTES bytes, linear)" */
/* "NODE_DATA(0) allocated [mem 0x0ee58000-0x0ee82fff]" */
static bool parse_node_data(const char *m, struct sa_memlog *ml)
{
	const char *at = strstr(m, ") allocated [mem 0x");
	guint64 a, b;
	char *e;

	if (!at)
		return false;
	a = g_ascii_strtoull(at + strlen(") allocated [mem 0x"), &e, 16);
	if (!g_str_has_prefix(e, "-0x"))
		return false;
	b = g_ascii_strtoull(e + 3, &e, 16);
	if (*e != ']' || b < a || b - a >= (MAX_KB << 10))
		return false;
	ml->node_data_bytes = MIN(ml->node_data_bytes + (b - a + 1),
				  MAX_KB << 10);
	ml->node_datas++;
	return true;
}

static bool parse_hash(const char *m, struct sa_memlog *ml)
{
	const char *p = strstr(m, " hash table entries: "), *q;
	char *name, *e;
	guint64 bytes;
	bool early = false;
	size_t i;

	if (!p || !(q = strstr(p, " (order: ")) || !g_str_has_suffix(m,
	    " bytes, linear)"))
		return false;
	q = strchr(q + strlen(" (order: "), ',');
	if (!q || q[1] != ' ')
		return false;
	bytes = g_ascii_strtoull(q + 2, &e, 10);
	if (e == q + 2 || strcmp(e, " bytes, linear)") ||
	    bytes > MAX_KB * 1024)
		return false;
	name = g_strndup(m, p - m);
	for (i = 0; i < G_N_ELEMENTS(early_hashes); i++)
		early |= !strcmp(name, early_hashes[i]);
	g_free(name);
	/* sums bounded as each figure is (at most 2^16 tables counted) */
	if (early && ml->early_hashes < 1u << 16) {
		ml->early_hash_bytes += bytes;
		ml->early_hashes++;
	} else if (!early && ml->hashes < 1u << 16) {
		ml->hash_bytes += bytes;
		ml->hashes++;
	}
	return true;
}

struct memlog_walk {
	struct sa_memlog *ml;
	bool any, units_done;
};

static void memlog_line(void *data, const char *m, double t)
{
	struct memlog_walk *w = data;
	struct sa_memlog *ml = w->ml;
	guint64 v;

	(void)t;
	if (g_str_has_prefix(m, "Memory: ") && strstr(m, "K available (")) {
		w->any |= parse_memory(m + strlen("Memory: "), ml);
	} else if (g_str_has_prefix(m, "percpu: Embedded ")) {
		char *e;

		v = g_ascii_strtoull(m + strlen("percpu: Embedded "), &e, 10);
		if (g_str_has_prefix(e, " pages/cpu") && v <= MAX_KB) {
			ml->percpu_pages = v;
			ml->percpu_units = 0;
			w->units_done = false;
			w->any = true;
		}
	} else if (g_str_has_prefix(m, "pcpu-alloc: [") &&
		   ml->percpu_pages && !w->units_done) {
		parse_pcpu_units(m, ml);
	} else if ((g_str_has_prefix(m, "Freeing unused kernel image "
				     "(initmem) memory: ") ||
		    g_str_has_prefix(m, "Freeing unused kernel memory: ")) &&
		   trailing_k(m, &v)) {
		ml->init_freed = true;
		w->any = true;
	} else if (g_str_has_prefix(m, "Freeing unused decrypted memory: ") &&
		   trailing_k(m, &v)) {
		ml->decrypted_freed_kb = MIN(ml->decrypted_freed_kb + v,
					     MAX_KB);
		w->any = true;
	} else if (g_str_has_prefix(m, "NODE_DATA(")) {
		w->any |= parse_node_data(m, ml);
	} else if (g_str_has_prefix(m, "Freeing SMP alternatives memory: ") &&
		   trailing_k(m, &v)) {
		ml->smp_alt_freed_kb = MIN(ml->smp_alt_freed_kb + v, MAX_KB);
		w->any = true;
	} else if (g_str_has_prefix(m, "Freeing initrd memory: ") &&
		   trailing_k(m, &v)) {
		ml->have_initrd_freed = true;
		ml->initrd_freed_kb = MIN(ml->initrd_freed_kb + v, MAX_KB);
		w->any = true;
	} else if (strstr(m, " hash table entries: ")) {
		w->any |= parse_hash(m, ml);
	} else if (g_str_has_prefix(m, "ftrace: allocated ")) {
		char *e;

		v = g_ascii_strtoull(m + strlen("ftrace: allocated "), &e, 10);
		if (e != m + strlen("ftrace: allocated ") &&
		    g_str_has_prefix(e, " pages with ") && v <= MAX_KB) {
			ml->ftrace_pages = v;
			ml->have_ftrace = true;
			w->any = true;
		}
	} else if (g_str_has_prefix(m, "DMA: preallocated ")) {
		char *e;

		v = g_ascii_strtoull(m + strlen("DMA: preallocated "), &e, 10);
		if (g_str_has_prefix(e, " KiB ") && strstr(e, " pool") &&
		    v <= MAX_KB && ml->dma_pools < 1u << 16) {
			ml->dma_pool_kb = MIN(ml->dma_pool_kb + v, MAX_KB);
			ml->dma_pools++;
			w->any = true;
		}
	}
	/* the unit lines end at the first line of another kind */
	if (ml->percpu_units && !g_str_has_prefix(m, "pcpu-alloc: ["))
		w->units_done = true;
}

bool sa_memlog_parse(const char *text, struct sa_memlog *ml)
{
	struct memlog_walk w = { .ml = ml };

	memset(ml, 0, sizeof(*ml));
	sa_kmsg_lines(text, memlog_line, &w);
	ml->have_percpu = ml->percpu_pages && ml->percpu_units;
	return w.any;
}
