// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parser of the kernel's hist files
 * (procfs/hist.c), which `slabacct report` reads from a board's
 * events/kmem/EVENT/hist: the input is the file's text.
 */
#include "procfs/hist.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	GError *err = NULL;
	struct sa_hist *h = sa_hist_parse((const char *)data, size, &err);

	g_clear_error(&err);
	sa_hist_free(h);
	return 0;
}
