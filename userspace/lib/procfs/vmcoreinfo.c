// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's VMCOREINFO, from the note of /proc/kcore (vmcoreinfo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>

#include "procfs/parse.h"
#include "procfs/vmcoreinfo.h"

/* The keys kept from the note (the rest holds addresses it does not use) */
static const char *const keys[] = {
	"PAGESIZE", "SYMBOL(_stext)", "SYMBOL(mem_section)",
	"LENGTH(mem_section)", "SIZE(mem_section)", "SIZE(list_head)",
	"NUMBER(SECTION_SIZE_BITS)",
};

/* kcore has a PT_LOAD per memory range: a few hundred */
#define MAX_PHDRS	65536u

static gboolean keep_line(void *data, const char *s, size_t len,
			  GError **err)
{
	GString *out = data;
	const char *eq = memchr(s, '=', len);
	size_t i;

	(void)err;
	if (!eq)
		return TRUE;
	for (i = 0; i < G_N_ELEMENTS(keys); i++)
		if ((size_t)(eq - s) == strlen(keys[i]) &&
		    !memcmp(s, keys[i], eq - s)) {
			g_string_append_len(out, s, len);
			g_string_append_c(out, '\n');
		}
	return TRUE;
}

/* The VMCOREINFO note's text in the notes at [off, off + size) */
static char *note_text(Elf *elf, GElf_Off off, GElf_Xword size)
{
	Elf_Data *d = elf_getdata_rawchunk(elf, off, size, ELF_T_NHDR);
	size_t pos = 0, name_off, desc_off;
	GElf_Nhdr nh;
	char *text;

	while (d && (pos = gelf_getnote(d, pos, &nh, &name_off,
					&desc_off)) > 0) {
		if (nh.n_namesz != sizeof("VMCOREINFO") ||
		    memcmp((char *)d->d_buf + name_off, "VMCOREINFO",
			   sizeof("VMCOREINFO")) ||
		    nh.n_descsz > SA_VMCOREINFO_MAX)
			continue;
		text = g_strndup((char *)d->d_buf + desc_off, nh.n_descsz);
		return text;
	}
	return NULL;
}

char *sa_vmcoreinfo_capture(const char *root, GError **err)
{
	char *path = g_build_filename(root, "proc/kcore", NULL);
	char *note = NULL, *out = NULL;
	size_t n = 0, i;
	struct stat st;
	Elf *elf = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int e = fd < 0 ? errno : EINVAL;

		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, fd < 0 ? g_strerror(e) :
			    "not a regular file");
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n) ||
	    n > MAX_PHDRS) {
		sa_parse_error(err, "%s: not an ELF core file", path);
		goto out;
	}
	for (i = 0; i < n && !note; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_NOTE &&
		    ph.p_filesz <= 16 * SA_VMCOREINFO_MAX)
			note = note_text(elf, ph.p_offset, ph.p_filesz);
	}
	if (!note) {
		sa_parse_error(err, "%s: no VMCOREINFO note", path);
		goto out;
	}
	{
		GString *s = g_string_new(NULL);

		sa_procfile_lines(note, keep_line, s, NULL);
		out = g_string_free(s, FALSE);
	}
out:
	g_free(note);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	g_free(path);
	return out;
}

struct parse {
	struct sa_vmcoreinfo *v;
	bool have_addr, have_len, have_list;
};

static gboolean parse_line(void *data, const char *s, size_t len,
			   GError **err)
{
	struct parse *p = data;
	const char *eq = memchr(s, '=', len);
	guint64 x;
	char *key, *val;
	bool hex, ok;

	if (!eq)
		return TRUE;
	key = g_strndup(s, eq - s);
	val = g_strndup(eq + 1, s + len - eq - 1);
	hex = g_str_has_prefix(key, "SYMBOL(");
	ok = g_ascii_string_to_unsigned(val, hex ? 16 : 10, 0, G_MAXUINT64,
					&x, NULL);
	if (!ok) {
		sa_parse_error(err, "vmcoreinfo: malformed %s", key);
	} else if (!strcmp(key, "PAGESIZE")) {
		p->v->page_size = x;
	} else if (!strcmp(key, "SYMBOL(_stext)")) {
		p->v->stext = x;
	} else if (!strcmp(key, "SYMBOL(mem_section)")) {
		p->v->mem_section = x;
		p->have_addr = true;
	} else if (!strcmp(key, "LENGTH(mem_section)")) {
		/* 2^32 roots of 8 bytes: far more than any kernel's */
		ok = x <= 1ull << 32;
		if (!ok)
			sa_parse_error(err, "vmcoreinfo: LENGTH(mem_section) "
				       "%" G_GUINT64_FORMAT " is too large", x);
		p->v->mem_section_len = x;
		p->have_len = true;
	} else if (!strcmp(key, "SIZE(list_head)")) {
		/* two pointers: 8 or 16 bytes */
		ok = x == 8 || x == 16;
		if (!ok)
			sa_parse_error(err, "vmcoreinfo: SIZE(list_head) "
				       "%" G_GUINT64_FORMAT " is not two "
				       "pointers", x);
		p->v->ptr_size = x / 2;
		p->have_list = true;
	}
	g_free(key);
	g_free(val);
	return ok;
}

int sa_vmcoreinfo_parse(const char *text, struct sa_vmcoreinfo *v,
			GError **err)
{
	struct parse p = { .v = v };

	memset(v, 0, sizeof(*v));
	if (!sa_procfile_lines(text, parse_line, &p, err))
		return -1;
	v->have_sections = p.have_addr && p.have_len && p.have_list;
	return 0;
}

guint64 sa_vmcoreinfo_section_roots(const struct sa_vmcoreinfo *v,
				    guint64 image_bytes)
{
	if (!v->have_sections || !v->stext || !image_bytes)
		return 0;
	if (v->mem_section >= v->stext &&
	    v->mem_section - v->stext < image_bytes)
		return 0;
	return v->mem_section_len * v->ptr_size;
}
