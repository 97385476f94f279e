// SPDX-License-Identifier: GPL-2.0
/*
 * Which module a kallsyms symbol belongs to.
 *
 * libtraceevent 1.7 keeps each symbol's module when it parses kallsyms,
 * but has no call that returns it (tep_find_function_module came in a
 * later release). libtracecmd hands the kallsyms saved in a trace.dat to
 * tep_parse_kallsyms(), so this file wraps that call: it notes the
 * addresses of module symbols ("addr t name [module]") for that tep
 * handle, then calls the library's own function.
 *
 * The wrapper also lets a thread skip the parse (sa_kallsyms_skip) for
 * handles that never resolve a symbol: the extra handles of the reader
 * threads, the origin reader's and the probe's. Parsing a large kallsyms
 * costs more than reading a million events.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#include <event-parse.h>

#include "symbols.h"

static GMutex lock;
static __thread bool skip_kallsyms;

void sa_kallsyms_skip(bool skip)
{
	skip_kallsyms = skip;
}
static GHashTable *by_tep;	/* tep -> GHashTable(addr -> interned mod) */

static void note_modules(struct tep_handle *tep, const char *text)
{
	GHashTable *t = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					      g_free, NULL);
	const char *p = text, *nl;

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		const char *open, *close;
		guint64 addr, *key;
		char *end, *mod;

		nl = strchr(p, '\n');
		open = memchr(p, '[', nl ? (size_t)(nl - p) : strlen(p));
		if (!open)
			continue;
		close = memchr(open, ']', nl ? (size_t)(nl - open) :
			       strlen(open));
		addr = g_ascii_strtoull(p, &end, 16);
		if (!close || end == p)
			continue;
		mod = g_strndup(open + 1, close - open - 1);
		key = g_new(guint64, 1);
		*key = addr;
		g_hash_table_insert(t, key, (gpointer)g_intern_string(mod));
		g_free(mod);
	}
	g_mutex_lock(&lock);
	if (!by_tep)
		by_tep = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					       NULL, (GDestroyNotify)
					       g_hash_table_destroy);
	g_hash_table_insert(by_tep, tep, t);
	g_mutex_unlock(&lock);
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*real)(struct tep_handle *, const char *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	if (!real)
		return -1;
	if (skip_kallsyms)
		return 0;	/* this handle resolves no symbols */
	if (kallsyms)
		note_modules(tep, kallsyms);
	return real(tep, kallsyms);
}

const char *sa_kallsyms_module(struct tep_handle *tep, guint64 func_start)
{
	const char *mod = NULL;
	GHashTable *t;

	g_mutex_lock(&lock);
	t = by_tep ? g_hash_table_lookup(by_tep, tep) : NULL;
	if (t)
		mod = g_hash_table_lookup(t, &func_start);
	g_mutex_unlock(&lock);
	return mod;
}

void sa_kallsyms_forget(struct tep_handle *tep)
{
	g_mutex_lock(&lock);
	if (by_tep)
		g_hash_table_remove(by_tep, tep);
	g_mutex_unlock(&lock);
}
