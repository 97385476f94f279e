// SPDX-License-Identifier: GPL-2.0
/* Driving a BPF tool: load, attach, and the event and counting loops. */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-tool.h"
#include "util/msg.h"

struct loop {
	struct sa_bpf_run *run;
	const struct sa_bpf_drive *d;
	int stats_fd;
	__u64 events;
};

static int map_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);

	return m ? bpf_map__fd(m) : -1;
}

static int count_report(void *arg, bool final)
{
	struct loop *l = arg;
	struct sa_count_report *r = l->d->counts;

	r->final = final;
	r->clear = true;
	return l->d->stacks ? sa_report_stacks(r) : sa_report_names(r);
}

static int event_cb(void *arg, void *data, size_t size)
{
	struct loop *l = arg;

	l->events++;
	return l->d->handle(l->d->ctx, data, size);
}

static int event_report(void *arg, bool final)
{
	struct loop *l = arg;
	__u64 lost = sa_stat_get(l->stats_fd, SA_STAT_LOST);
	JsonBuilder *b;

	if (!final)
		return 0;
	if (!l->run->opts->json) {
		printf("# %llu events, %llu lost\n",
		       (unsigned long long)l->events,
		       (unsigned long long)lost);
		fflush(stdout);
		return 0;
	}
	b = sa_json_report_begin(l->run->opts->tool);
	sa_json_put_bool(b, "final", TRUE);
	sa_json_put_uint(b, "events", l->events);
	sa_json_put_uint(b, "lost", lost);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
	return 0;
}

/* The loop of a loaded, attached object. */
static int run_loop(struct sa_bpf_run *run, struct bpf_object *obj,
		    const struct sa_bpf_drive *d)
{
	struct loop l = { .run = run, .d = d };
	struct ring_buffer *rb = NULL;
	int err;

	l.stats_fd = map_fd(obj, "stats");
	if (d->counts) {
		d->counts->tool = run->opts->tool;
		d->counts->json = run->opts->json;
		d->counts->counts_fd = map_fd(obj, "counts");
		d->counts->stack_fd = map_fd(obj, "stack_traces");
		d->counts->stats_fd = l.stats_fd;
	} else {
		rb = ring_buffer__new(map_fd(obj, "events"), event_cb, &l,
				      NULL);
		if (!rb) {
			sa_bpf_err(run->opts->tool, -errno,
				   "opening the ring buffer");
			return SA_EXIT_FAIL;
		}
	}
	if (sa_bpf_run_start(run)) {
		ring_buffer__free(rb);
		return SA_EXIT_FAIL;
	}
	if (rb && !run->opts->json && d->header) {
		printf("%s\n", d->header);
		fflush(stdout);
	}
	err = sa_bpf_run_loop(run, rb, d->counts ? count_report : event_report,
			      &l);
	ring_buffer__free(rb);
	return err ? SA_EXIT_FAIL : SA_EXIT_OK;
}

int sa_bpf_drive(struct sa_bpf_run *run, struct bpf_object_skeleton *s,
		 const struct sa_bpf_drive *d)
{
	const char *tool = run->opts->tool;
	GPtrArray *links = sa_links_new();
	struct bpf_object *obj;
	int err;

	err = bpf_object__load_skeleton(s);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	obj = *s->obj;
	err = d->attach ? d->attach(obj, d->attach_arg, links) :
			  sa_attach_all(obj, tool, links);
	if (err) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = run_loop(run, obj, d);
cleanup:
	g_ptr_array_unref(links);
	return err;
}

int sa_bpf_open_failed(const char *tool)
{
	sa_bpf_err(tool, -errno, "opening the BPF object");
	return SA_EXIT_FAIL;
}

int sa_require_tracepoint(const char *tool, const char *category,
			  const char *event, const char *needs)
{
	if (sa_tracepoint_exists(category, event))
		return 0;
	sa_err(tool, "the kernel has no %s:%s tracepoint (%s; is tracefs "
	       "mounted?)", category, event, needs);
	return -1;
}
