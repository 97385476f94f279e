// SPDX-License-Identifier: GPL-2.0
/*
 * The boot kernel's abilities, from its symbol names (trace/boot-kernel.h).
 *
 * trace_trigger= is handled by setup_trace_triggers() (an __init function,
 * still listed in kallsyms after boot). Measured on Debian's kernels
 * under QEMU: 6.12-cloud has it, and takes
 * trace_trigger="kmalloc.stacktrace if call_site.function == kstrdup"
 * at boot (events/kmem/kmalloc/trigger shows it after boot); with a name
 * the kernel lacks (kstrdup_noprof) it refuses the trigger ("Failed to
 * register trigger 'stacktrace' on event kmalloc"); 6.1 has no
 * setup_trace_triggers and ignores the parameter.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "trace/boot-estimate.h"
#include "trace/boot-kernel.h"
#include "trace/events.h"
#include "uapi/slab_account.h"

#define MAX_LINE	512
#define MAX_LINES	(16 * 1024 * 1024)

static const char *const wrappers[] = { SLAB_ACCOUNT_WRAPPERS, NULL };

/* The wrapper name sym stands for (its leading '_' and "_noprof" off). */
static const char *wrapper_of(const char *sym)
{
	size_t n, np = strlen(SLAB_ACCOUNT_NOPROF);
	int i;

	while (*sym == '_')
		sym++;
	n = strlen(sym);
	if (n > np && !strcmp(sym + n - np, SLAB_ACCOUNT_NOPROF))
		n -= np;
	for (i = 0; wrappers[i]; i++)
		if (strlen(wrappers[i]) == n && !strncmp(sym, wrappers[i], n))
			return wrappers[i];
	return NULL;
}

int sa_boot_kernel_read(const char *path, struct sa_boot_kernel *k,
			GError **err)
{
	char line[MAX_LINE], type, name[MAX_LINE];
	unsigned long long addr;
	guint64 lines = 0, syms = 0;
	GHashTable *seen;
	const char *w;
	FILE *f;

	memset(k, 0, sizeof(*k));
	k->arch = -1;
	f = fopen(path, "re");
	if (!f) {
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", path, g_strerror(errno));
		return -1;
	}
	k->wrappers = g_ptr_array_new_with_free_func(g_free);
	k->cache_wrappers = g_ptr_array_new_with_free_func(g_free);
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	while (fgets(line, sizeof(line), f)) {
		if (++lines > MAX_LINES)
			break;
		/* "ADDR TYPE NAME" alone: a module symbol has "\t[mod]" */
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3 ||
		    strchr(line, '['))
			continue;
		syms++;
		if (!strcmp(name, "setup_trace_triggers"))
			k->triggers = true;
		if (!strcmp(name, "__x64_sys_read"))
			k->arch = SA_BOOT_ARCH_X86_64;
		else if (!strcmp(name, "__arm64_sys_read"))
			k->arch = SA_BOOT_ARCH_ARM64;
		else if (!strcmp(name, "vector_swi"))
			k->arch = SA_BOOT_ARCH_ARM;
		if (!strcmp(name, "event_hist_trigger_parse") ||
		    !strcmp(name, "event_hist_trigger_func"))
			k->hist = true;
		if (type != 'T' && type != 't')
			continue;
		w = wrapper_of(name);
		if (!w || g_hash_table_contains(seen, name))
			continue;
		g_hash_table_add(seen, g_strdup(name));
		g_ptr_array_add(k->wrappers, g_strdup(name));
		/*
		 * Of the wrappers, only mempool_alloc_slab calls
		 * kmem_cache_alloc (mempool_alloc calls it through the
		 * pool's function pointer); the others call kmalloc.
		 */
		if (!strcmp(w, "mempool_alloc_slab"))
			g_ptr_array_add(k->cache_wrappers, g_strdup(name));
	}
	fclose(f);
	g_hash_table_destroy(seen);
	if (lines > MAX_LINES || !syms) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "%s: %s", path, syms ? "more lines than a symbol "
			    "file has" : "not a symbol file (kallsyms or "
			    "System.map)");
		sa_boot_kernel_clear(k);
		return -1;
	}
	return 0;
}

void sa_boot_kernel_clear(struct sa_boot_kernel *k)
{
	if (k->wrappers)
		g_ptr_array_unref(k->wrappers);
	if (k->cache_wrappers)
		g_ptr_array_unref(k->cache_wrappers);
	memset(k, 0, sizeof(*k));
}

static void add_trigger(GString *s, const char *event, GPtrArray *names)
{
	guint i;

	if (names && !names->len)
		return;
	g_string_append_printf(s, "%s%s.stacktrace", s->len ? "," : "",
			       event);
	for (i = 0; names && i < names->len; i++)
		g_string_append_printf(s, "%scall_site.function == %s",
				       i ? " || " : " if ",
				       (char *)names->pdata[i]);
}

char *sa_boot_kernel_triggers(const struct sa_boot_kernel *k,
			      unsigned int groups)
{
	GString *s = g_string_new(NULL);

	if (groups & SA_GROUP_KMEM) {
		add_trigger(s, "kmalloc", k->wrappers);
		add_trigger(s, "kmem_cache_alloc", k->cache_wrappers);
	}
	if (groups & SA_GROUP_PAGE)
		add_trigger(s, "mm_page_alloc", NULL);
	if (groups & SA_GROUP_VMALLOC)
		add_trigger(s, "alloc_vmap_area", NULL);
	if (!s->len) {
		g_string_free(s, TRUE);
		return NULL;
	}
	return g_string_free(s, FALSE);
}

char *sa_boot_kernel_hist(unsigned int size)
{
	static const char *const events[] = { "kmalloc", "kmem_cache_alloc" };
	static const char *const vals[] = { "bytes_alloc", "bytes_req" };
	GString *s = g_string_new(NULL);
	size_t e, v;

	for (e = 0; e < G_N_ELEMENTS(events); e++)
		for (v = 0; v < G_N_ELEMENTS(vals); v++)
			g_string_append_printf(s, "%s%s.hist:keys=call_site."
					       "sym-offset:vals=%s:size=%u",
					       s->len ? "," : "", events[e],
					       vals[v], size);
	return g_string_free(s, FALSE);
}
