/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kallsyms of a trace (trace/kallsyms.c): libtraceevent's
 * tep_parse_kallsyms() is replaced, at link time, by a parse into a
 * sorted table that keeps each symbol's module. Why, and what it keeps of
 * the library's behaviour, is said at the top of trace/kallsyms.c; the unit
 * test test-kallsyms checks it against the library's own lookup.
 */
#ifndef SLABACCT_KALLSYMS_H
#define SLABACCT_KALLSYMS_H

#include <stdbool.h>
#include <glib.h>

struct tep_handle;

/*
 * The module of the kallsyms symbol starting at func_start, as saved in
 * the trace whose tep handle is tep (interned), or NULL for vmlinux.
 * sa_kallsyms_forget drops what was kept for tep; call it before the
 * handle is closed.
 */
const char *sa_kallsyms_module(struct tep_handle *tep, guint64 func_start);
void sa_kallsyms_forget(struct tep_handle *tep);

/*
 * Whether match(name, data) is true of a symbol of the trace whose tep
 * handle is tep (false when it has no kallsyms).
 */
bool sa_kallsyms_any(struct tep_handle *tep,
		     bool (*match)(const char *name, void *data), void *data);

/*
 * While skip is true, trace files opened by the calling thread get no
 * kallsyms (their handles resolve no symbol); it saves the parse.
 */
void sa_kallsyms_skip(bool skip);

#endif /* SLABACCT_KALLSYMS_H */
