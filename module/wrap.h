/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_account: attribution through allocation wrappers (wrap.c), above
 * the call-site table
 */
#ifndef SLAB_ACCOUNT_WRAP_H
#define SLAB_ACCOUNT_WRAP_H

#include "table.h"

u8 sa_classify(unsigned long addr, u16 *off);
u32 sa_site_row(unsigned long key, enum sa_kind kind);
int sa_wrap_init(void);
void sa_wrap_exit(void);
u8 sa_site_class_of(u32 site, unsigned long call_site);
u32 sa_attribute(u32 site, unsigned long call_site, enum sa_kind kind);
u32 sa_wrap_cached(unsigned long call_site, enum sa_kind kind);
void sa_wrap_clear(void);

#endif /* SLAB_ACCOUNT_WRAP_H */
