// SPDX-License-Identifier: GPL-2.0
/*
 * Count reports: read a counts map, sort by count, print.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>

#include "bpf-report.h"
#include "bpf-syms.h"
#include "bpf-tool.h"
#include "util/escape.h"

struct row {
	void *key;
	__u64 count;
};

__u64 sa_stat_get(int stats_fd, __u32 which)
{
	__u64 v = 0;

	if (stats_fd >= 0)
		bpf_map_lookup_elem(stats_fd, &which, &v);
	return v;
}

static gint row_cmp(gconstpointer a, gconstpointer b)
{
	const struct row *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* All entries of a counts map, sorted by count, largest first. */
static GArray *read_counts(int fd, size_t key_size, bool clear, __u64 *total)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct row));
	void *prev = NULL, *next = g_malloc0(key_size);
	guint i;

	*total = 0;
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		struct row r = { .key = g_memdup2(next, key_size) };

		prev = r.key;
		if (bpf_map_lookup_elem(fd, r.key, &r.count) != 0) {
			g_free(r.key);
			continue;
		}
		*total += r.count;
		g_array_append_val(rows, r);
	}
	g_free(next);
	if (clear)
		for (i = 0; i < rows->len; i++)
			bpf_map_delete_elem(fd, g_array_index(rows, struct row,
							      i).key);
	g_array_sort(rows, row_cmp);
	return rows;
}

static void free_rows(GArray *rows)
{
	guint i;

	for (i = 0; i < rows->len; i++)
		g_free(g_array_index(rows, struct row, i).key);
	g_array_unref(rows);
}

const char *sa_time_str(char *buf, size_t len)
{
	time_t t = time(NULL);

	strftime(buf, len, "%H:%M:%S", localtime(&t));
	return buf;
}

static void text_header(const struct sa_count_report *r, __u64 total,
			__u64 lost)
{
	char tbuf[16];

	printf("[%s] %llu %s", sa_time_str(tbuf, sizeof(tbuf)),
	       (unsigned long long)total, r->what);
	if (lost)
		printf(" (WARNING: %llu lost)", (unsigned long long)lost);
	printf("\n");
}

static JsonBuilder *json_header(const struct sa_count_report *r,
				__u64 total, __u64 lost)
{
	JsonBuilder *b = sa_json_report_begin(r->tool);

	sa_json_put_bool(b, "final", r->final);
	sa_json_put_uint(b, "total", total);
	sa_json_put_uint(b, "lost", lost);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	return b;
}

static void json_row_begin(JsonBuilder *b, __u32 tgid, const char *comm,
			   __u64 count)
{
	json_builder_begin_object(b);
	sa_json_put_int(b, "pid", tgid);
	sa_json_put_str(b, "comm", comm);
	sa_json_put_uint(b, "count", count);
}

static void json_end(JsonBuilder *b)
{
	json_builder_end_array(b);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
}

/* comm;outermost;...;innermost count: what flame-graph tools read */
static void print_folded(const char *comm, GPtrArray *fr, __u64 count)
{
	int j;

	printf("%s", sa_esc(comm));
	for (j = fr->len - 1; j >= 0; j--) {
		const char *f = sa_esc(g_ptr_array_index(fr, j));
		/* the function only: flame graphs merge on names */
		size_t n = strcspn(f, " +");

		printf(";%.*s", (int)n, f);
	}
	printf(" %llu\n", (unsigned long long)count);
}

int sa_report_stacks(const struct sa_count_report *r)
{
	__u64 total, lost = sa_stat_get(r->stats_fd, SA_STAT_LOST);
	GArray *rows = read_counts(r->counts_fd, sizeof(struct sa_stack_key),
				   r->clear, &total);
	struct sa_stacks *st = sa_stacks_new(r->stack_fd);
	JsonBuilder *b = NULL;
	guint i, j, n = rows->len;

	if (r->top && (guint)r->top < n)
		n = r->top;
	if (r->json)
		b = json_header(r, total, lost);
	else if (!r->folded)
		text_header(r, total, lost);
	for (i = 0; i < n; i++) {
		struct row *row = &g_array_index(rows, struct row, i);
		struct sa_stack_key *k = row->key;
		char comm[SA_COMM_LEN + 1];
		GPtrArray *fr;

		snprintf(comm, sizeof(comm), "%s", k->comm);
		fr = sa_stacks_frames(st, k->tgid, k->kstack, k->ustack);
		if (b) {
			json_row_begin(b, k->tgid, comm, row->count);
			sa_json_put_strv(b, "frames", fr);
			json_builder_end_object(b);
		} else if (r->folded) {
			print_folded(comm, fr, row->count);
		} else {
			printf("\t%llu  pid %u (%s)\n",
			       (unsigned long long)row->count, k->tgid,
			       sa_esc(comm));
			for (j = 0; j < fr->len; j++)
				printf("\t\t%s\n",
				       sa_esc(g_ptr_array_index(fr, j)));
		}
		g_ptr_array_unref(fr);
	}
	if (b)
		json_end(b);
	else if (r->folded && lost)
		fprintf(stderr, "slabacct %s: WARNING: %llu events lost\n",
			r->tool, (unsigned long long)lost);
	fflush(stdout);
	sa_stacks_free(st);
	free_rows(rows);
	return 0;
}

int sa_report_names(const struct sa_count_report *r)
{
	__u64 total, lost = sa_stat_get(r->stats_fd, SA_STAT_LOST);
	GArray *rows = read_counts(r->counts_fd, sizeof(struct sa_name_key),
				   r->clear, &total);
	JsonBuilder *b = NULL;
	guint i, n = rows->len;

	if (r->top && (guint)r->top < n)
		n = r->top;
	if (r->json) {
		b = json_header(r, total, lost);
	} else {
		text_header(r, total, lost);
		printf("%10s %7s %-16s%s%s\n", "COUNT", "PID", "COMM",
		       r->name_title ? " " : "",
		       r->name_title ? r->name_title : "");
	}
	for (i = 0; i < n; i++) {
		struct row *row = &g_array_index(rows, struct row, i);
		struct sa_name_key *k = row->key;
		char comm[SA_COMM_LEN + 1], name[SA_NAME_LEN + 1];

		snprintf(comm, sizeof(comm), "%s", k->comm);
		snprintf(name, sizeof(name), "%s", k->name);
		if (b) {
			json_row_begin(b, k->tgid, comm, row->count);
			if (r->name_title) {
				sa_json_put_str(b, "name", name);
			}
			json_builder_end_object(b);
		} else {
			printf("%10llu %7u %-16s%s%s\n",
			       (unsigned long long)row->count, k->tgid,
			       sa_esc(comm), r->name_title ? " " : "",
			       r->name_title ? sa_esc(name) : "");
		}
	}
	if (b)
		json_end(b);
	fflush(stdout);
	free_rows(rows);
	return 0;
}
