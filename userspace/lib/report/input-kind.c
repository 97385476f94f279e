// SPDX-License-Identifier: GPL-2.0
/* What an input file is, by its content (report/input-kind.h). */
#include <unistd.h>

#include "procfs/account.h"
#include "procfs/sniff.h"
#include "report/input-kind.h"
#include "trace/check.h"
#include "util/input-file.h"

/* JSON may start after this much white space; nothing of ours does */
#define HEAD_MAX	(64 * 1024)

static enum sa_input_kind kind_of(const char *head, size_t n)
{
	size_t i;

	if (sa_tracedat_sniff(head, n))
		return SA_INPUT_TRACEDAT;
	switch (sa_procfs_sniff(head, n)) {
	case SA_PROCFS_SLAB_ACCOUNT:
		return SA_INPUT_SLAB_ACCOUNT;
	case SA_PROCFS_ALLOCINFO:
		return SA_INPUT_ALLOCINFO;
	case SA_PROCFS_HIST:
		return SA_INPUT_HIST;
	case SA_PROCFS_NONE:
		break;
	}
	for (i = 0; i < n && g_ascii_isspace(head[i]); i++)
		;
	return i < n && head[i] == '{' ? SA_INPUT_JSON : SA_INPUT_OTHER;
}

int sa_input_kind(const char *path, enum sa_input_kind *kind, GError **err)
{
	char *head = g_malloc(HEAD_MAX);
	int fd = sa_input_open(path, err);
	size_t n = 0;
	ssize_t r = 0;

	if (fd < 0) {
		g_free(head);
		return -1;
	}
	while (n < HEAD_MAX && (r = read(fd, head + n, HEAD_MAX - n)) > 0)
		n += r;
	close(fd);
	if (r < 0) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_IO,
			    "%s: cannot read it", path);
		g_free(head);
		return -1;
	}
	*kind = kind_of(head, n);
	g_free(head);
	return 0;
}

const char *sa_input_kind_name(enum sa_input_kind k)
{
	switch (k) {
	case SA_INPUT_TRACEDAT:
		return "trace.dat";
	case SA_INPUT_SLAB_ACCOUNT:
		return "/proc/" SLAB_ACCOUNT_PROC_NAME;
	case SA_INPUT_ALLOCINFO:
		return "/proc/allocinfo";
	case SA_INPUT_HIST:
		return "hist";
	case SA_INPUT_JSON:
		return "JSON";
	case SA_INPUT_OTHER:
		break;
	}
	return "other";
}
