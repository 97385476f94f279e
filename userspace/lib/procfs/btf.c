// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel structure's size from the kernel's BTF (btf.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "procfs/btf.h"
#include "procfs/parse.h"
#include "util/input-file.h"

guint64 sa_btf_struct_size(const void *data, gsize len, const char *name,
			   GError **err)
{
	struct btf *btf = btf__new(data, len);
	const struct btf_type *t;
	guint64 size = 0;
	__s32 id;

	if (!btf) {
		sa_parse_error(err, "BTF: not a BTF file (%s)",
			       g_strerror(errno));
		return 0;
	}
	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t)
		size = t->size;
	else
		sa_parse_error(err, "BTF: no struct %s", name);
	btf__free(btf);
	return size;
}

/* A reader of the BTF file in pieces: what the scan keeps is bounded */
struct rd {
	FILE *f;
	bool swap;	/* the file's byte order is not ours */
};

static bool rd_bytes(struct rd *r, void *buf, size_t n)
{
	return fread(buf, 1, n, r->f) == n;
}

static bool rd_u32(struct rd *r, guint32 *v)
{
	if (!rd_bytes(r, v, 4))
		return false;
	if (r->swap)
		*v = GUINT32_SWAP_LE_BE(*v);
	return true;
}

/* The bytes that follow a type's 12, by its kind (linux/btf.h); -1 if
 * the kind is unknown */
static gint64 type_extra(guint32 kind, guint32 vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return 12 * (gint64)vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8 * (gint64)vlen;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

/*
 * The offsets in the string section (at off, len bytes) of the strings
 * equal to name, read a piece at a time: only the string being compared
 * is kept (at most name's length).
 */
static GArray *name_offsets(struct rd *r, long off, guint32 len,
			    const char *name)
{
	GArray *at = g_array_new(FALSE, FALSE, sizeof(guint32));
	size_t n = strlen(name), k = 0;
	guint32 i, start = 0;
	bool same = true;
	int c;

	if (fseek(r->f, off, SEEK_SET))
		return at;
	for (i = 0; i < len && (c = fgetc(r->f)) != EOF; i++) {
		if (c) {
			same = same && k < n && name[k] == c;
			k++;
			continue;
		}
		if (same && k == n)
			g_array_append_val(at, start);
		start = i + 1;
		k = 0;
		same = true;
	}
	return at;
}

guint64 sa_btf_struct_size_file(const char *path, const char *name,
				GError **err)
{
	guint32 hdr_len, type_off, type_len, str_off, str_len, pos, j;
	struct rd r = { 0 };
	GArray *names = NULL;
	guint64 size = 0;
	guint16 magic;
	guint8 vf[2];
	int fd = sa_input_open(path, err);

	if (fd < 0)
		return 0;
	r.f = fdopen(fd, "r");
	if (!r.f) {
		close(fd);
		sa_parse_error(err, "BTF: %s", g_strerror(errno));
		return 0;
	}
	if (!rd_bytes(&r, &magic, 2) || !rd_bytes(&r, vf, 2) ||
	    (magic != BTF_MAGIC && magic != GUINT16_SWAP_LE_BE(BTF_MAGIC))) {
		sa_parse_error(err, "BTF: not a BTF file (no magic)");
		goto out;
	}
	r.swap = magic != BTF_MAGIC;
	if (!rd_u32(&r, &hdr_len) || !rd_u32(&r, &type_off) ||
	    !rd_u32(&r, &type_len) || !rd_u32(&r, &str_off) ||
	    !rd_u32(&r, &str_len) || hdr_len < 24 || hdr_len > 4096) {
		sa_parse_error(err, "BTF: a header cut short or too long");
		goto out;
	}
	names = name_offsets(&r, (long)hdr_len + str_off, str_len, name);
	if (!names->len || fseek(r.f, (long)hdr_len + type_off, SEEK_SET)) {
		sa_parse_error(err, "BTF: no struct %s", name);
		goto out;
	}
	/* every type in turn: 12 bytes, then what its kind adds */
	for (pos = 0; pos + 12 <= type_len && !size;) {
		guint32 name_off, info, sz, kind, vlen;
		gint64 extra;

		if (!rd_u32(&r, &name_off) || !rd_u32(&r, &info) ||
		    !rd_u32(&r, &sz))
			break;
		kind = (info >> 24) & 0x1f;
		vlen = info & 0xffff;
		extra = type_extra(kind, vlen);
		if (extra < 0 || extra > (gint64)type_len - pos - 12) {
			sa_parse_error(err, "BTF: a type of kind %u past its "
				       "section, at %u", kind, pos);
			goto out;
		}
		for (j = 0; kind == BTF_KIND_STRUCT && j < names->len; j++)
			if (g_array_index(names, guint32, j) == name_off)
				size = sz;
		if (!size && extra && fseek(r.f, extra, SEEK_CUR))
			break;
		pos += 12 + extra;
	}
	if (!size)
		sa_parse_error(err, "BTF: no struct %s", name);
out:
	if (names)
		g_array_unref(names);
	fclose(r.f);
	return size;
}

char *sa_btf_struct_capture(const char *root, const char *name,
			    GError **err)
{
	char *path = g_build_filename(root, "sys/kernel/btf/vmlinux", NULL);
	guint64 size = sa_btf_struct_size_file(path, name, err);

	g_free(path);
	return size ? g_strdup_printf("%s %" G_GUINT64_FORMAT "\n", name,
				      size) : NULL;
}
