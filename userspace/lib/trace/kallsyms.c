// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms of a trace, as a sorted table that libtraceevent resolves
 * kernel addresses through.
 *
 * libtracecmd hands the kallsyms saved in a trace.dat to
 * tep_parse_kallsyms(). libtraceevent 1.7 parses it with one sscanf and
 * two allocations per symbol, which costs more than reading a million
 * events, and it keeps each symbol's module with no call that returns it
 * (tep_find_function_module came in a later release). So this file wraps
 * that call: it parses the text in place, in one copy, into an array
 * sorted by address, and installs it with tep_set_function_resolver(),
 * the library's hook for tools that resolve functions themselves. The
 * lookup is the library's: the symbol at or below the address, none past
 * the last symbol unless exactly on it, and the same symbols left out
 * ('$' names, and the absolute 'A'/'a' ones).
 *
 * The wrapper also lets a thread skip the parse (sa_kallsyms_skip) for
 * handles that never resolve a symbol: the extra handles of the reader
 * threads, the origin reader's and the probe's.
 */
#include <stdbool.h>
#include <string.h>

#include <event-parse.h>

#include "trace/kallsyms.h"

struct ksym {
	guint64 addr;
	const char *name;
	const char *mod;	/* NULL: the kernel itself */
	guint idx;		/* file order, for a stable order of aliases */
};

struct ktable {
	char *text;		/* the names and modules point into it */
	GArray *syms;		/* struct ksym, by address then file order */
};

static GMutex lock;
static __thread bool skip_kallsyms;
static GHashTable *by_tep;	/* tep -> struct ktable */

void sa_kallsyms_skip(bool skip)
{
	skip_kallsyms = skip;
}

static void ktable_free(gpointer p)
{
	struct ktable *t = p;

	g_array_unref(t->syms);
	g_free(t->text);
	g_free(t);
}

static int ksym_cmp(gconstpointer a, gconstpointer b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * One line, "ADDR TYPE NAME[\t[MODULE]]", cut in place; false if it is
 * not one or is left out.
 */
static bool parse_line(char *p, char *end, struct ksym *s)
{
	guint64 addr = 0;
	char *name, *q;
	int d, n = 0;
	char type;

	while (p < end && (d = hexval(*p)) >= 0 && n < 16) {
		addr = addr << 4 | d;
		p++;
		n++;
	}
	if (!n || p + 3 >= end || *p != ' ' || p[2] != ' ')
		return false;
	type = p[1];
	name = p + 3;
	for (q = name; q < end && *q != '\t' && *q != ' '; q++)
		;
	if (q == name || name[0] == '$' || type == 'A' || type == 'a')
		return false;
	s->addr = addr;
	s->name = name;
	s->mod = NULL;
	if (q < end && q + 2 < end && q[1] == '[' && end[-1] == ']') {
		end[-1] = '\0';
		s->mod = q + 2;
	}
	*q = '\0';
	return true;
}

static struct ktable *ktable_parse(const char *kallsyms)
{
	struct ktable *t = g_new0(struct ktable, 1);
	char *p, *nl, *end;
	bool sorted = true;
	guint64 last = 0;
	gsize len = strlen(kallsyms);

	t->text = g_memdup2(kallsyms, len + 1);
	t->syms = g_array_sized_new(FALSE, FALSE, sizeof(struct ksym),
				    len / 40 + 1);
	for (p = t->text, end = p + len; p < end; p = nl + 1) {
		struct ksym s;

		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		*nl = '\0';
		if (!parse_line(p, nl, &s))
			continue;
		s.idx = t->syms->len;
		if (s.addr < last)
			sorted = false;
		last = s.addr;
		g_array_append_val(t->syms, s);
	}
	if (!sorted)
		g_array_sort(t->syms, ksym_cmp);	/* stable */
	return t;
}

/*
 * The symbol containing addr: the last one at or below it, of aliases at
 * one address the first in the file (libtraceevent's choice too). None
 * past the last symbol, whose end is unknown, unless exactly on it.
 */
static const struct ksym *ktable_find(const struct ktable *t, guint64 addr)
{
	const struct ksym *s = (const struct ksym *)(void *)t->syms->data;
	guint lo = 0, hi = t->syms->len;

	while (lo < hi) {		/* the first symbol above addr */
		guint mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || (lo == t->syms->len && s[lo - 1].addr != addr))
		return NULL;
	lo--;
	while (lo && s[lo - 1].addr == s[lo].addr)
		lo--;
	return &s[lo];
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct ksym *s = ktable_find(priv, *addrp);

	if (!s)
		return NULL;
	*addrp = s->addr;
	*modp = (char *)s->mod;
	return (char *)s->name;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	struct ktable *t;

	if (skip_kallsyms || !kallsyms)
		return 0;	/* this handle resolves no symbols */
	t = ktable_parse(kallsyms);
	if (tep_set_function_resolver(tep, resolve, t)) {
		ktable_free(t);
		return -1;
	}
	g_mutex_lock(&lock);
	if (!by_tep)
		by_tep = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					       NULL, ktable_free);
	g_hash_table_insert(by_tep, tep, t);
	g_mutex_unlock(&lock);
	return 0;
}

const char *sa_kallsyms_module(struct tep_handle *tep, guint64 func_start)
{
	const struct ksym *s = NULL;
	struct ktable *t;

	g_mutex_lock(&lock);
	t = by_tep ? g_hash_table_lookup(by_tep, tep) : NULL;
	if (t)
		s = ktable_find(t, func_start);
	g_mutex_unlock(&lock);
	return s && s->addr == func_start ? s->mod : NULL;
}

void sa_kallsyms_forget(struct tep_handle *tep)
{
	g_mutex_lock(&lock);
	if (by_tep) {
		tep_reset_function_resolver(tep);
		g_hash_table_remove(by_tep, tep);
	}
	g_mutex_unlock(&lock);
}

bool sa_kallsyms_any(struct tep_handle *tep,
		     bool (*match)(const char *name, void *data), void *data)
{
	struct ktable *t;
	bool hit = false;
	guint i;

	g_mutex_lock(&lock);
	t = by_tep ? g_hash_table_lookup(by_tep, tep) : NULL;
	for (i = 0; t && i < t->syms->len && !hit; i++)
		hit = match(g_array_index(t->syms, struct ksym, i).name,
			    data);
	g_mutex_unlock(&lock);
	return hit;
}
