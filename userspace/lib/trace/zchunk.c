// SPDX-License-Identifier: GPL-2.0
/*
 * A compressed chunk of a version 7 trace.dat, uncompressed (zstd or zlib,
 * the two trace-cmd writes).
 */
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "trace/check.h"

int sa_tracedat_uncompress(const char *zname, const guint8 *in, size_t n,
			   guint8 *out, size_t size)
{
	if (!strcmp(zname, "zstd")) {
		size_t r = ZSTD_decompress(out, size, in, n);

		return ZSTD_isError(r) || r != size ? -1 : 0;
	}
	if (!strcmp(zname, "zlib")) {
		uLongf got = size;

		if (n > G_MAXULONG ||
		    uncompress(out, &got, in, n) != Z_OK || got != size)
			return -1;
		return 0;
	}
	return -1;
}
