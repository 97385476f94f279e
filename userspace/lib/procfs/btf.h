/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The size of a kernel structure, from the kernel's BTF
 * (/sys/kernel/btf/vmlinux, read through libbpf): sizeof(struct page),
 * for the memory map the kernel reserves at boot.
 */
#ifndef SLABACCT_BTF_H
#define SLABACCT_BTF_H

#include <glib.h>

/* A kernel's BTF is a few MB; a bound on what is read */
#define SA_BTF_MAX_FILE	(64u << 20)

/*
 * The byte size of struct NAME in root/sys/kernel/btf/vmlinux, as text
 * "NAME SIZE\n" (the form the budget keeps). NULL with *err if the file
 * cannot be read or has no such struct.
 */
char *sa_btf_struct_capture(const char *root, const char *name,
			    GError **err);

/*
 * The same from the BTF file at path, read a piece at a time: what is
 * kept is the offsets of name in the string section, not the file (a
 * kernel's BTF is 5 MB; on a 128 MB board its parse by libbpf took
 * more than boot collect had). The size, or 0 with *err.
 */
guint64 sa_btf_struct_size_file(const char *path, const char *name,
				GError **err);

/* The same from a BTF blob in memory, through libbpf: the size, or 0
 * with *err. */
guint64 sa_btf_struct_size(const void *data, gsize len, const char *name,
			   GError **err);

#endif /* SLABACCT_BTF_H */
