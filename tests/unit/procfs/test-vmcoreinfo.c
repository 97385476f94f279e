// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: VMCOREINFO from a kcore's note (a small ELF core made
 * here, with the note 6.1's x86-64 guest had), its parse, and the
 * section roots the budget counts; damaged and absent inputs.
 */
#include <elf.h>
#include <string.h>

#include <check.h>
#include <glib/gstdio.h>

#include "procfs/vmcoreinfo.h"

Suite *suite(void);

/* What 6.1.0-56-amd64 put in its note (a 256 MB guest), cut down */
static const char note61[] =
	"OSRELEASE=6.1.0-56-amd64\n"
	"BUILD-ID=0123\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_uts_ns)=ffffffffb2a1a560\n"
	"SYMBOL(_stext)=ffffffffb0e00000\n"
	"SIZE(list_head)=16\n"
	"SYMBOL(mem_section)=ff1753344eb6e000\n"
	"LENGTH(mem_section)=262144\n"
	"SIZE(mem_section)=32\n"
	"OFFSET(mem_section.section_mem_map)=0\n"
	"NUMBER(SECTION_SIZE_BITS)=27\n"
	"NUMBER(MAX_PHYSMEM_BITS)=52\n"
	"KERNELOFFSET=2fe00000\n";

static void put(GByteArray *a, const void *p, size_t n)
{
	g_byte_array_append(a, p, n);
}

static void pad4(GByteArray *a)
{
	static const guint8 z[4];

	put(a, z, (4 - a->len % 4) % 4);
}

/* root/proc/kcore: an ELF64 core with one PT_NOTE holding name's desc */
static char *make_root(const char *name, const char *desc)
{
	char *root = g_dir_make_tmp("sa-vmci-XXXXXX", NULL);
	char *proc = g_build_filename(root, "proc", NULL);
	char *path = g_build_filename(proc, "kcore", NULL);
	GByteArray *notes = g_byte_array_new(), *f = g_byte_array_new();
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { 0 };
	Elf64_Nhdr nh = { 0 };

	nh.n_namesz = strlen(name) + 1;
	nh.n_descsz = strlen(desc);
	nh.n_type = 0;
	put(notes, &nh, sizeof(nh));
	put(notes, name, nh.n_namesz);
	pad4(notes);
	put(notes, desc, nh.n_descsz);
	pad4(notes);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	ph.p_type = PT_NOTE;
	ph.p_offset = sizeof(eh) + sizeof(ph);
	ph.p_filesz = notes->len;
	put(f, &eh, sizeof(eh));
	put(f, &ph, sizeof(ph));
	put(f, notes->data, notes->len);
	ck_assert_int_eq(g_mkdir(proc, 0700), 0);
	ck_assert(g_file_set_contents(path, (char *)f->data, f->len, NULL));
	g_byte_array_unref(notes);
	g_byte_array_unref(f);
	g_free(proc);
	g_free(path);
	return root;
}

static void rm_root(char *root)
{
	char *path = g_build_filename(root, "proc", "kcore", NULL);
	char *proc = g_build_filename(root, "proc", NULL);

	g_unlink(path);
	g_rmdir(proc);
	g_rmdir(root);
	g_free(path);
	g_free(proc);
	g_free(root);
}

START_TEST(capture_and_parse)
{
	char *root = make_root("VMCOREINFO", note61);
	GError *err = NULL;
	char *text = sa_vmcoreinfo_capture(root, &err);
	struct sa_vmcoreinfo v;

	ck_assert_msg(text, "%s", err ? err->message : "?");
	/* only the lines the budget reads */
	ck_assert_str_eq(text, "PAGESIZE=4096\n"
			 "SYMBOL(_stext)=ffffffffb0e00000\n"
			 "SIZE(list_head)=16\n"
			 "SYMBOL(mem_section)=ff1753344eb6e000\n"
			 "LENGTH(mem_section)=262144\n"
			 "SIZE(mem_section)=32\n"
			 "NUMBER(SECTION_SIZE_BITS)=27\n");
	ck_assert_int_eq(sa_vmcoreinfo_parse(text, &v, &err), 0);
	ck_assert(v.have_sections);
	ck_assert_uint_eq(v.page_size, 4096);
	ck_assert_uint_eq(v.ptr_size, 8);
	ck_assert_uint_eq(v.mem_section_len, 262144);
	/* allocated at boot (memblock=debug: sparse_init, 2097152 bytes) */
	ck_assert_uint_eq(sa_vmcoreinfo_section_roots(&v, 64u << 20),
			  2097152);
	/* a static array inside the image is the image's */
	v.mem_section = v.stext + (40u << 20);
	ck_assert_uint_eq(sa_vmcoreinfo_section_roots(&v, 64u << 20), 0);
	/* no image extent known: nothing said */
	ck_assert_uint_eq(sa_vmcoreinfo_section_roots(&v, 0), 0);
	g_free(text);
	rm_root(root);
}
END_TEST

START_TEST(no_note)
{
	char *root = make_root("CORE", "xxxx");
	GError *err = NULL;

	ck_assert_ptr_null(sa_vmcoreinfo_capture(root, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "no VMCOREINFO note"));
	g_clear_error(&err);
	rm_root(root);
	/* no kcore at all */
	ck_assert_ptr_null(sa_vmcoreinfo_capture("/nonexistent", &err));
	ck_assert_ptr_nonnull(err);
	g_clear_error(&err);
}
END_TEST

START_TEST(malformed)
{
	struct sa_vmcoreinfo v;
	GError *err = NULL;

	ck_assert_int_eq(sa_vmcoreinfo_parse("LENGTH(mem_section)=12x\n",
					     &v, &err), -1);
	g_clear_error(&err);
	ck_assert_int_eq(sa_vmcoreinfo_parse("SIZE(list_head)=12\n", &v,
					     &err), -1);
	g_clear_error(&err);
	ck_assert_int_eq(sa_vmcoreinfo_parse("LENGTH(mem_section)="
					     "99999999999\n", &v, &err), -1);
	g_clear_error(&err);
	/* missing keys: parsed, but no section roots */
	ck_assert_int_eq(sa_vmcoreinfo_parse("PAGESIZE=4096\nnonsense\n", &v,
					     &err), 0);
	ck_assert(!v.have_sections);
	ck_assert_uint_eq(sa_vmcoreinfo_section_roots(&v, 1u << 30), 0);
	ck_assert_int_eq(sa_vmcoreinfo_parse(NULL, &v, &err), 0);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("vmcoreinfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, capture_and_parse);
	tcase_add_test(tc, no_note);
	tcase_add_test(tc, malformed);
	suite_add_tcase(s, tc);
	return s;
}
