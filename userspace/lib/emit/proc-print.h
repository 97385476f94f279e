/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A /proc/slab_account or /proc/allocinfo snapshot printed back as it is
 * (the account command): as text under 80 columns (folded where a name is
 * too long, bytes scaled), or as JSON with every row and field, exact.
 * Each returns 0, or -1 with errno set when f could not be written.
 */
#ifndef SLABACCT_EMIT_PROC_PRINT_H
#define SLABACCT_EMIT_PROC_PRINT_H

#include <stdio.h>

struct sa_account;
struct sa_allocinfo;

int sa_account_print_text(FILE *f, const struct sa_account *a);
int sa_account_print_json(FILE *f, const struct sa_account *a);
/* text: the rows with something live, in the file's order */
int sa_allocinfo_print_text(FILE *f, const struct sa_allocinfo *ai);
int sa_allocinfo_print_json(FILE *f, const struct sa_allocinfo *ai);

#endif /* SLABACCT_EMIT_PROC_PRINT_H */
