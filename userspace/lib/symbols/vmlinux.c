// SPDX-License-Identifier: GPL-2.0
/*
 * Which kernel a vmlinux is: its GNU build ID (the .notes the running
 * kernel shows in /sys/kernel/notes) and its Linux banner, the string
 * /proc/version prints: "Linux version RELEASE (BUILDER) (COMPILER)
 * VERSION", where RELEASE and VERSION are uname -r and uname -v. Read
 * through libelf (libdwelf for the build ID); the banner is the
 * linux_banner symbol's string, or, in a vmlinux without symbols (the
 * one inside a bzImage), a "Linux version " string of an allocated data
 * section. Since 6.1 a vmlinux holds two banners, init/version.o's with
 * no build number ("# SMP ...") and the one the kernel prints ("#1 SMP
 * ..."): the one with a build number is taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>

#include "symbols/symbols.h"

#define BANNER_PREFIX	"Linux version "
#define BANNER_MAX	1024	/* /proc/version is far shorter */
#define BUILD_ID_MAX	64

/* The string at data[0..len): up to a newline or NUL, at most BANNER_MAX. */
static char *banner_at(const char *p, size_t len)
{
	size_t n = 0;

	if (len < strlen(BANNER_PREFIX) ||
	    memcmp(p, BANNER_PREFIX, strlen(BANNER_PREFIX)))
		return NULL;
	while (n < len && n < BANNER_MAX && p[n] && p[n] != '\n')
		n++;
	return n < len && n < BANNER_MAX ? g_strndup(p, n) : NULL;
}

/* Whether banner b's version has a build number ("#1 SMP", not "# SMP"). */
static bool numbered(const char *b)
{
	const char *v = strstr(b, " #");

	return v && g_ascii_isdigit(v[2]);
}

/* Keep in *best the better of it and b (which it takes). */
static void consider(char **best, char *b)
{
	if (b && (!*best || (!numbered(*best) && numbered(b)))) {
		g_free(*best);
		*best = b;
	} else {
		g_free(b);
	}
}

/* The string of the linux_banner symbol(s), or NULL. */
static char *banner_symbol(Elf *elf)
{
	char *best = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			GElf_Shdr ds;
			GElf_Sym sym;
			Elf_Scn *where;
			Elf_Data *wd;
			const char *name;
			guint64 off;

			if (!gelf_getsym(d, i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
			    sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || strcmp(name, "linux_banner"))
				continue;
			where = elf_getscn(elf, sym.st_shndx);
			if (!where || !gelf_getshdr(where, &ds) ||
			    ds.sh_type != SHT_PROGBITS ||
			    sym.st_value < ds.sh_addr ||
			    sym.st_value - ds.sh_addr >= ds.sh_size)
				continue;
			wd = elf_getdata(where, NULL);
			off = sym.st_value - ds.sh_addr;
			if (!wd || !wd->d_buf || off >= wd->d_size)
				continue;
			consider(&best, banner_at((const char *)wd->d_buf + off,
						  wd->d_size - off));
		}
	}
	return best;
}

/* The banners of the allocated, non-executable data sections. */
static char *banner_search(Elf *elf)
{
	Elf_Scn *scn = NULL;
	char *best = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *p, *end;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) ||
		    (sh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		p = d->d_buf;
		end = p + d->d_size;
		while ((p = memmem(p, end - p, BANNER_PREFIX,
				   strlen(BANNER_PREFIX)))) {
			char *b = banner_at(p, end - p);

			/* not a format ("Linux version %s") */
			if (b && b[strlen(BANNER_PREFIX)] != '%' &&
			    b[strlen(BANNER_PREFIX)] != ' ')
				consider(&best, b);
			else
				g_free(b);
			p++;
		}
	}
	return best;
}

/* RELEASE and VERSION out of "Linux version RELEASE (...) (...) VERSION". */
static void banner_split(struct sa_kernel_id *id)
{
	const char *r = id->banner + strlen(BANNER_PREFIX);
	const char *sp = strchr(r, ' ');
	const char *v;

	id->release = sp ? g_strndup(r, sp - r) : g_strdup(r);
	/* VERSION starts at " #": uname -v is "#1 SMP ..." */
	v = sp ? strstr(sp, " #") : NULL;
	if (v)
		id->version = g_strdup(v + 1);
}

int sa_vmlinux_id(const char *path, struct sa_kernel_id *id, GError **err)
{
	const void *bid;
	ssize_t n;
	Elf *elf;
	int fd;

	memset(id, 0, sizeof(*id));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, g_strerror(e));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not an ELF file (%s)", path, elf_errmsg(-1));
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	n = dwelf_elf_gnu_build_id(elf, &bid);
	if (n > 0 && n <= BUILD_ID_MAX) {
		GString *s = g_string_sized_new(2 * n);
		ssize_t i;

		for (i = 0; i < n; i++)
			g_string_append_printf(s, "%02x",
					       ((const guint8 *)bid)[i]);
		id->build_id = g_string_free(s, FALSE);
	}
	id->banner = banner_symbol(elf);
	if (!id->banner)
		id->banner = banner_search(elf);
	if (id->banner)
		banner_split(id);
	elf_end(elf);
	close(fd);
	return 0;
}

void sa_kernel_id_clear(struct sa_kernel_id *id)
{
	g_free(id->banner);
	g_free(id->release);
	g_free(id->version);
	g_free(id->build_id);
	memset(id, 0, sizeof(*id));
}
