/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a raw trace.dat's pages with several threads, whatever the
 * spread of the events over the trace's CPUs: each CPU's data is cut into
 * segments of consecutive pages, and each reader takes the unread segment
 * that the merge will need first. The merge takes each CPU's chunks in
 * order, one stream per CPU.
 */
#ifndef SLABACCT_TRACE_SEGMENTS_H
#define SLABACCT_TRACE_SEGMENTS_H

#include "trace/check.h"
#include "trace/chunk.h"
#include "trace/decode.h"

struct sa_segments;

/*
 * Start nthreads readers over map (the whole file, len bytes, open as
 * fd, which is not kept), the reader i decoding with dec[i] (built on its own tep[i]: decoders keep
 * state). The layout must stay valid until sa_segments_finish.
 */
struct sa_segments *sa_segments_start(const guint8 *map, size_t len, int fd,
				      const struct sa_tracedat_layout *lay,
				      struct sa_decode **dec,
				      struct tep_handle **tep, int nthreads);

/* The streams: one per CPU with data, in CPU order. */
int sa_segments_streams(const struct sa_segments *ss);

/*
 * The next chunk of a stream, in order, waiting for it to be read; NULL
 * once the stream has ended. Give each chunk back with sa_segments_put.
 */
struct chunk *sa_segments_next(struct sa_segments *ss, int stream);
void sa_segments_put(struct sa_segments *ss, struct chunk *c);

/*
 * Stop the readers (the chunks not taken are dropped) and free it all.
 * Returns true if a reader met a damaged page: *dmg is the first one in
 * the file, and every stream ended early (sa_segments_next gave NULL).
 */
bool sa_segments_finish(struct sa_segments *ss, struct sa_page_damage *dmg);

#endif /* SLABACCT_TRACE_SEGMENTS_H */
