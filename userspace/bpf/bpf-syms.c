// SPDX-License-Identifier: GPL-2.0
/*
 * Stack symbolisation: libdwfl reads a process's mappings and the ELF
 * symbol tables of the mapped objects; kallsyms names kernel addresses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <elfutils/libdwfl.h>

#include "bpf-syms.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct sa_stacks {
	int stack_fd;
	GArray *ksyms;		/* struct ksym, sorted; NULL until needed */
	GHashTable *dwfls;	/* pid -> Dwfl* (NULL: failed) */
};

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

static void dwfl_free(gpointer p)
{
	if (p)
		dwfl_end(p);
}

struct sa_stacks *sa_stacks_new(int stack_fd)
{
	struct sa_stacks *st = g_new0(struct sa_stacks, 1);

	st->stack_fd = stack_fd;
	st->dwfls = g_hash_table_new_full(NULL, NULL, NULL, dwfl_free);
	return st;
}

static void ksyms_clear(gpointer p)
{
	g_free(((struct ksym *)p)->name);
}

void sa_stacks_free(struct sa_stacks *st)
{
	if (!st)
		return;
	if (st->ksyms)
		g_array_unref(st->ksyms);
	g_hash_table_destroy(st->dwfls);
	g_free(st);
}

void sa_stacks_forget(struct sa_stacks *st, pid_t pid)
{
	g_hash_table_remove(st->dwfls, GINT_TO_POINTER(pid));
}

static gint ksym_cmp(gconstpointer a, gconstpointer b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksyms_load(struct sa_stacks *st)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f;

	st->ksyms = g_array_new(FALSE, FALSE, sizeof(struct ksym));
	g_array_set_clear_func(st->ksyms, ksyms_clear);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct ksym k;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!addr || (type != 't' && type != 'T' && type != 'W' &&
			      type != 'w'))
			continue;
		k.addr = addr;
		k.name = g_strdup(name);
		g_array_append_val(st->ksyms, k);
	}
	fclose(f);
	g_array_sort(st->ksyms, ksym_cmp);
}

const char *sa_stacks_ksym(struct sa_stacks *st, uint64_t addr, char *buf,
			   size_t len)
{
	guint lo = 0, hi;
	struct ksym *k;

	if (!st->ksyms)
		ksyms_load(st);
	hi = st->ksyms->len;
	/* the last symbol at or below addr */
	while (lo < hi) {
		guint mid = (lo + hi) / 2;

		if (g_array_index(st->ksyms, struct ksym, mid).addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return buf;
	}
	k = &g_array_index(st->ksyms, struct ksym, lo - 1);
	snprintf(buf, len, "%s+0x%" PRIx64, k->name, addr - k->addr);
	return buf;
}

static Dwfl *proc_dwfl(struct sa_stacks *st, pid_t pid)
{
	gpointer key = GINT_TO_POINTER(pid), val;
	Dwfl *dwfl;

	if (g_hash_table_lookup_extended(st->dwfls, key, NULL, &val))
		return val;
	dwfl = dwfl_begin(&proc_callbacks);
	if (dwfl && (dwfl_linux_proc_report(dwfl, pid) != 0 ||
		     dwfl_report_end(dwfl, NULL, NULL) != 0)) {
		dwfl_end(dwfl);
		dwfl = NULL;
	}
	g_hash_table_insert(st->dwfls, key, dwfl);
	return dwfl;
}

const char *sa_stacks_usym(struct sa_stacks *st, pid_t pid, uint64_t addr,
			   char *buf, size_t len)
{
	Dwfl *dwfl = proc_dwfl(st, pid);
	const char *sym = NULL, *obj = NULL, *base;
	Dwfl_Module *mod = NULL;
	GElf_Off off = 0;
	GElf_Sym s;

	if (dwfl)
		mod = dwfl_addrmodule(dwfl, addr);
	if (mod) {
		obj = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL,
				       NULL, NULL);
		sym = dwfl_module_addrinfo(mod, addr, &off, &s, NULL, NULL,
					   NULL);
	}
	base = obj ? strrchr(obj, '/') : NULL;
	base = base ? base + 1 : obj;
	if (sym)
		snprintf(buf, len, "%s+0x%" PRIx64 " [%s]", sym, (uint64_t)off,
			 base ? base : "?");
	else if (base)
		snprintf(buf, len, "0x%" PRIx64 " [%s]", addr, base);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
	return buf;
}

static void add_stack(struct sa_stacks *st, GPtrArray *out, pid_t pid,
		      int id, bool kernel)
{
	uint64_t ips[SA_STACK_DEPTH];
	char buf[512];
	int i;

	if (id < 0) {
		if (id != -EFAULT)	/* EFAULT: simply no stack there */
			g_ptr_array_add(out, g_strdup("[stack lost]"));
		return;
	}
	memset(ips, 0, sizeof(ips));
	if (bpf_map_lookup_elem(st->stack_fd, &id, ips) != 0) {
		g_ptr_array_add(out, g_strdup("[stack lost]"));
		return;
	}
	for (i = 0; i < SA_STACK_DEPTH && ips[i]; i++) {
		if (kernel)
			sa_stacks_ksym(st, ips[i], buf, sizeof(buf));
		else
			sa_stacks_usym(st, pid, ips[i], buf, sizeof(buf));
		g_ptr_array_add(out, g_strdup(buf));
	}
}

GPtrArray *sa_stacks_frames(struct sa_stacks *st, pid_t pid, int kid,
			    int uid)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	if (kid != SA_NO_STACK)
		add_stack(st, out, pid, kid, true);
	if (uid != SA_NO_STACK)
		add_stack(st, out, pid, uid, false);
	return out;
}

bool sa_frames_cut(const GPtrArray *frames)
{
	static const char *const starts[] = {
		"__libc_start_call_main", "__libc_start_main",
		"__libc_start_main_impl", "libc_start_main", "_start",
		"start_thread", "clone", "clone3", "__clone", "__clone3",
		"__clone_internal", "thread_start",
	};
	const char *last;
	size_t i, n;

	if (!frames->len)
		return false;
	if (frames->len >= SA_STACK_DEPTH)
		return true;
	last = g_ptr_array_index(frames, frames->len - 1);
	if (!strcmp(last, "[stack lost]"))
		return false;
	for (i = 0; i < G_N_ELEMENTS(starts); i++) {
		n = strlen(starts[i]);
		if (!strncmp(last, starts[i], n) &&
		    (last[n] == '+' || last[n] == ' ' || last[n] == '\0'))
			return false;
	}
	return true;
}

bool sa_frames_have(const GPtrArray *frames, const char *func)
{
	size_t n = strlen(func);
	guint i;

	for (i = 0; i < frames->len; i++) {
		const char *f = g_ptr_array_index(frames, i);

		if (!strncmp(f, func, n) && (f[n] == '+' || f[n] == ' ' ||
					    f[n] == '\0'))
			return true;
	}
	return false;
}
