// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel structure's size from the kernel's BTF (btf.h).
 */
#include <errno.h>

#include <bpf/btf.h>

#include "snapshot/sources/btf.h"
#include "snapshot/sources/parse.h"
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

char *sa_btf_struct_capture(const char *root, const char *name,
			    GError **err)
{
	char *path = g_build_filename(root, "sys/kernel/btf/vmlinux", NULL);
	gsize len;
	char *data = sa_input_read(path, SA_BTF_MAX_FILE, &len, err);
	guint64 size;

	g_free(path);
	if (!data)
		return NULL;
	size = sa_btf_struct_size(data, len, name, err);
	g_free(data);
	return size ? g_strdup_printf("%s %" G_GUINT64_FORMAT "\n", name,
				      size) : NULL;
}
