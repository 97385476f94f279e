/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-side functions that libtracecmd.so.1 exports but declares only in
 * trace-cmd's private header (trace-cmd-private.h), which Debian does not
 * install. Their signatures have been stable since trace-cmd 2.9.
 */
#ifndef SLABACCT_TRACECMD_PRIVATE_H
#define SLABACCT_TRACECMD_PRIVATE_H

#include <trace-cmd/trace-cmd.h>

const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_version(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
/* The ring-buffer page a record of the handle lies in, or NULL */
void *tracecmd_record_page(struct tracecmd_input *handle,
			   struct tep_record *record);

#endif /* SLABACCT_TRACECMD_PRIVATE_H */
