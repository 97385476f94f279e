// SPDX-License-Identifier: GPL-2.0
/*
 * Attribution through allocation wrappers (symbols/attrib.h).
 */
#include "symbols/attrib.h"

static const char *func_of(struct sa_symbols *syms, guint64 addr)
{
	struct sa_sym sym;

	return sa_symbols_lookup(syms, addr, &sym) ? NULL : sym.func;
}

bool sa_attrib_is_wrapper(struct sa_symbols *syms,
			  const struct sa_wrappers *w, guint64 addr)
{
	const char *f = func_of(syms, addr);

	return f && sa_wrappers_has(w, f);
}

enum sa_attrib_result sa_attrib_frames(struct sa_symbols *syms,
				       const struct sa_wrappers *w,
				       guint64 call_site,
				       const struct sa_stack *st,
				       bool any_site, guint64 *out,
				       guint max, guint *n)
{
	const char *site_func = func_of(syms, call_site);
	guint32 i, pos;

	*n = 0;
	if (!any_site && !(site_func && sa_wrappers_has(w, site_func)))
		return SA_ATTRIB_NONE;
	if (!st || !max)
		return SA_ATTRIB_NOT_IN_STACK;
	/* the call site: its own address, else a frame of its function */
	for (pos = 0; pos < st->n && st->ip[pos] != call_site; pos++)
		;
	for (i = 0; pos == st->n && site_func && i < st->n; i++)
		if (func_of(syms, st->ip[i]) == site_func)
			pos = i;
	if (pos == st->n)
		return SA_ATTRIB_NOT_IN_STACK;
	/* interned names: the same function is the same pointer */
	for (i = pos + 1; i < st->n; i++) {
		const char *f = func_of(syms, st->ip[i]);

		if (!f || !sa_wrappers_has(w, f))
			break;
	}
	if (i == st->n)
		return SA_ATTRIB_ALL_WRAPPERS;
	for (; i < st->n && *n < max; i++)
		out[(*n)++] = st->ip[i];
	return SA_ATTRIB_OK;
}

enum sa_attrib_result sa_attrib_outer(struct sa_symbols *syms,
				      const struct sa_wrappers *w,
				      const struct sa_stack *st,
				      guint64 *via, guint64 *out, guint max,
				      guint *n)
{
	guint32 i;

	*n = 0;
	*via = 0;
	if (!st || !max)
		return SA_ATTRIB_NOT_IN_STACK;
	for (i = 0; i < st->n && !sa_attrib_is_wrapper(syms, w, st->ip[i]);
	     i++)
		;
	if (i == st->n)
		return SA_ATTRIB_NOT_IN_STACK;
	for (; i < st->n && sa_attrib_is_wrapper(syms, w, st->ip[i]); i++)
		*via = st->ip[i];
	if (i == st->n)
		return SA_ATTRIB_ALL_WRAPPERS;
	for (; i < st->n && *n < max; i++)
		out[(*n)++] = st->ip[i];
	return SA_ATTRIB_OK;
}
