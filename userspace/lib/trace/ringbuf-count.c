// SPDX-License-Identifier: GPL-2.0
/*
 * Walk raw ring-buffer pages with libtraceevent's kbuffer and count the
 * events by type.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>

#include "trace/ringbuf-count.h"

static void count_page(struct tep_handle *tep, struct kbuffer *kb,
		       void *page, struct sa_ringbuf_counts *c)
{
	unsigned long long ts;
	void *data;
	int missed;

	if (kbuffer_load_subbuffer(kb, page) < 0)
		return;
	c->pages++;
	missed = kbuffer_missed_events(kb);
	if (missed > 0)
		c->missed += missed;
	for (data = kbuffer_read_event(kb, &ts); data;
	     data = kbuffer_next_event(kb, &ts)) {
		struct tep_record rec = { .data = data, .ts = ts };
		int id = tep_data_type(tep, &rec);
		guint64 *n;

		if (id >= 0 && id < SA_RINGBUF_SMALL_IDS) {
			c->small[id]++;
		} else {
			n = g_hash_table_lookup(c->by_id, GINT_TO_POINTER(id));
			if (!n) {
				n = g_new0(guint64, 1);
				g_hash_table_insert(c->by_id,
						    GINT_TO_POINTER(id), n);
			}
			(*n)++;
		}
		c->events++;
		if (!c->first_ts || ts < c->first_ts)
			c->first_ts = ts;
		if (ts > c->last_ts)
			c->last_ts = ts;
	}
}

int sa_ringbuf_count_fd(struct tep_handle *tep, int fd, int page_size,
			struct sa_ringbuf_counts *c)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
					  KBUFFER_ENDIAN_SAME_AS_HOST);
	char *page;
	off_t off = 0;
	ssize_t n;

	if (!kb) {
		errno = EINVAL;
		return -1;
	}
	if (!c->by_id)
		c->by_id = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	if (!c->small)
		c->small = g_new0(guint64, SA_RINGBUF_SMALL_IDS);
	page = g_malloc(page_size);
	while ((n = pread(fd, page, page_size, off)) == page_size) {
		count_page(tep, kb, page, c);
		off += n;
	}
	g_free(page);
	kbuffer_free(kb);
	return n < 0 ? -1 : 0;
}

guint64 sa_ringbuf_count_of(const struct sa_ringbuf_counts *c, int id)
{
	guint64 *n;

	if (id >= 0 && id < SA_RINGBUF_SMALL_IDS)
		return c->small ? c->small[id] : 0;
	n = c->by_id ? g_hash_table_lookup(c->by_id, GINT_TO_POINTER(id))
		     : NULL;
	return n ? *n : 0;
}

void sa_ringbuf_counts_clear(struct sa_ringbuf_counts *c)
{
	if (c->by_id)
		g_hash_table_unref(c->by_id);
	g_free(c->small);
	memset(c, 0, sizeof(*c));
}
