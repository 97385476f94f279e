// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the trace.dat reader of slabacct report (the
 * structural check, then libtracecmd, the decoder, every aggregator and
 * every emitter) on arbitrary bytes.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emit/emit.h"
#include "trace/check.h"
#include "report/sort.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sa_report_opts opts = { .objects = true, .threads = 1 };
	struct sa_report *rep;
	GError *err = NULL;
	char path[64];
	FILE *null;
	int fd, f;

	if (sa_tracedat_check("fuzz", data, size, NULL, &err)) {
		g_clear_error(&err);
		return 0;
	}
	fd = memfd_create("fuzz.dat", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rep = sa_report_read(path, 0xf | SA_SECBIT(SA_SEC_VMALLOC) |
			     SA_SECBIT(SA_SEC_PERCPU), &opts, &err);
	if (rep) {
		null = fopen("/dev/null", "w");
		for (f = SA_FMT_TEXT; f <= SA_FMT_ACCOUNT; f++) {
			struct sa_emit e = { .fmt = f, .out = null,
					     .width = 80, .verbose = true };

			sa_callsite_view(rep->result[0], NULL, 0, 0);
			sa_emit_report(&e, rep);
		}
		fclose(null);
		sa_report_free(rep);
	}
	g_clear_error(&err);
	close(fd);
	return 0;
}
