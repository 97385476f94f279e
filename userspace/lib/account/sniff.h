/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which text snapshot a file is, told by its content (its first line),
 * never by its name: a saved /proc/slab_account ("# slab_account N") or
 * /proc/allocinfo ("allocinfo - version: X.Y"), or a tracefs hist file
 * ("# event histogram"). Anything else (a
 * trace.dat, a file that cannot be read) is SA_TEXT_OTHER, left for the
 * trace reader to open and to name what is wrong with it.
 */
#ifndef SLABACCT_ACCOUNT_SNIFF_H
#define SLABACCT_ACCOUNT_SNIFF_H

enum sa_text_input {
	SA_TEXT_OTHER,
	SA_TEXT_SLAB_ACCOUNT,
	SA_TEXT_ALLOCINFO,
	SA_TEXT_HIST,
};

enum sa_text_input sa_text_input_sniff(const char *path);

/* "/proc/slab_account", "/proc/allocinfo", "hist" or "other" */
const char *sa_text_input_name(enum sa_text_input k);

#endif /* SLABACCT_ACCOUNT_SNIFF_H */
