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
 * that call: it parses the text in one copy, keeping only the names and
 * modules there (packed in place, the copy then shrunk to them: half of
 * the text), into an array sorted by address (16 bytes a symbol), and
 * installs it with tep_set_function_resolver(),
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

/*
 * A 6.1 kernel's kallsyms is 95,000 lines and 4 MB, which a report on a
 * small board holds throughout: each symbol takes 16 bytes here and its
 * name only, not its line.
 */
struct ksym {
	guint64 addr;
	guint32 name;		/* offsets into the table's text */
	guint32 mod;		/* 0: the kernel itself */
};

struct ktable {
	char *text;		/* the names and modules, each ended by NUL */
	struct ksym *syms;	/* by address, then file order */
	guint n;
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

	g_free(t->syms);
	g_free(t->text);
	g_free(t);
}

/* by address; g_array_sort() is stable: aliases stay in file order */
static gint ksym_cmp(gconstpointer a, gconstpointer b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * One line, "ADDR TYPE NAME[\t[MODULE]]", its name and module (or NULL)
 * ended in place; false if it is not one or is left out.
 */
static bool parse_line(char *p, char *end, guint64 *addrp, char **namep,
		       char **modp)
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
	*addrp = addr;
	*namep = name;
	*modp = NULL;
	if (q < end && q + 2 < end && q[1] == '[' && end[-1] == ']') {
		end[-1] = '\0';
		*modp = q + 2;
	}
	*q = '\0';
	return true;
}

/*
 * Move the string at from down to text + *w, where *w is never past from:
 * a line gives up at least its address and type ("0 t "), so what the
 * lines before it kept ends before it starts. Returns its offset.
 */
static guint32 pack(char *text, gsize *w, const char *from)
{
	gsize n = strlen(from) + 1, at = *w;

	memmove(text + at, from, n);
	*w = at + n;
	return (guint32)at;
}

/* NULL for a text whose offsets would not fit 32 bits */
static struct ktable *ktable_parse(const char *kallsyms)
{
	gsize len = strlen(kallsyms), w = 1, mod = 0;
	struct ktable *t;
	char *p, *nl, *end, *text;
	bool sorted = true;
	guint64 last = 0;
	GArray *syms;

	if (len >= G_MAXUINT32)
		return NULL;
	/* names from offset 1 on: a module at 0 is none */
	text = g_memdup2(kallsyms, len + 1);
	syms = g_array_sized_new(FALSE, FALSE, sizeof(struct ksym),
				 len / 40 + 1);
	for (p = text, end = p + len; p < end; p = nl + 1) {
		struct ksym s;
		char *name, *m;

		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		*nl = '\0';
		if (!parse_line(p, nl, &s.addr, &name, &m))
			continue;
		s.name = pack(text, &w, name);
		s.mod = 0;
		if (m) {	/* a module's symbols come together */
			if (!mod || strcmp(text + mod, m))
				mod = pack(text, &w, m);
			s.mod = mod;
		}
		if (s.addr < last)
			sorted = false;
		last = s.addr;
		g_array_append_val(syms, s);
	}
	if (!sorted)
		g_array_sort(syms, ksym_cmp);
	t = g_new0(struct ktable, 1);
	t->n = syms->len;
	t->syms = g_renew(struct ksym, (struct ksym *)g_array_free(syms, FALSE),
			  MAX(t->n, 1));
	t->text = g_realloc(text, w);
	return t;
}

/*
 * The symbol containing addr: the last one at or below it, of aliases at
 * one address the first in the file (libtraceevent's choice too). None
 * past the last symbol, whose end is unknown, unless exactly on it.
 */
static const struct ksym *ktable_find(const struct ktable *t, guint64 addr)
{
	const struct ksym *s = t->syms;
	guint lo = 0, hi = t->n;

	while (lo < hi) {		/* the first symbol above addr */
		guint mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || (lo == t->n && s[lo - 1].addr != addr))
		return NULL;
	lo--;
	while (lo && s[lo - 1].addr == s[lo].addr)
		lo--;
	return &s[lo];
}

static char *ksym_mod(const struct ktable *t, const struct ksym *s)
{
	return s->mod ? t->text + s->mod : NULL;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct ktable *t = priv;
	const struct ksym *s = ktable_find(t, *addrp);

	if (!s)
		return NULL;
	*addrp = s->addr;
	*modp = ksym_mod(t, s);
	return t->text + s->name;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	struct ktable *t;

	if (skip_kallsyms || !kallsyms)
		return 0;	/* this handle resolves no symbols */
	t = ktable_parse(kallsyms);
	if (!t)
		return -1;
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
	const char *mod = NULL;
	struct ktable *t;

	g_mutex_lock(&lock);
	t = by_tep ? g_hash_table_lookup(by_tep, tep) : NULL;
	if (t)
		s = ktable_find(t, func_start);
	if (s && s->addr == func_start)
		mod = ksym_mod(t, s);
	g_mutex_unlock(&lock);
	return mod;
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
	for (i = 0; t && i < t->n && !hit; i++)
		hit = match(t->text + t->syms[i].name, data);
	g_mutex_unlock(&lock);
	return hit;
}
