// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct pmc: sample perf events (hardware counters, or software events
 * where the CPU has none) with a BPF program counting the samples by
 * process, or by stack for flame graphs.
 */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-syms.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "pmc-events.h"
#include "pmc.h"
#include "pmc.skel.h"

static gchar *opt_events, *opt_by;
static gint64 opt_period;
static gboolean opt_freq, opt_stacks, opt_folded, opt_no_fallback;
static gint opt_top = 20;

static const GOptionEntry entries[] = {
	{ "events", 'e', 0, G_OPTION_ARG_STRING, &opt_events,
	  "events to sample, comma-separated (default cycles,instructions; "
	  "--help names them)", "LIST" },
	{ "period", 'P', 0, G_OPTION_ARG_INT64, &opt_period,
	  "one sample every N events (default: per event)", "N" },
	{ "freq", 'F', 0, G_OPTION_ARG_NONE, &opt_freq,
	  "--period is a frequency in Hz instead", NULL },
	{ "by", 'b', 0, G_OPTION_ARG_STRING, &opt_by,
	  "rows by process (default) or function (the sampled address's "
	  "symbol, over all traced processes)", "WHAT" },
	{ "stacks", 'g', 0, G_OPTION_ARG_NONE, &opt_stacks,
	  "count by user and kernel stack (one event only)", NULL },
	{ "folded", 'f', 0, G_OPTION_ARG_NONE, &opt_folded,
	  "with --stacks: folded stacks for flame-graph tools", NULL },
	{ "no-fallback", 0, 0, G_OPTION_ARG_NONE, &opt_no_fallback,
	  "fail (exit 2) instead of using software events when the CPU has "
	  "no counters", NULL },
	{ "top", 'T', 0, G_OPTION_ARG_INT, &opt_top,
	  "show the N busiest processes or stacks (default 20)", "N" },
	{ NULL },
};

struct pmc_state {
	struct sa_bpf_run *run;
	struct pmc_bpf *skel;
	const struct sa_pmc_event *ev[PMC_MAX_EVENTS];
	__u64 period[PMC_MAX_EVENTS];
	int nev;
	bool fallback;
	bool by_func;
	GArray *fds;		/* the perf event fds */
	GPtrArray *links;
};

/* One process's or function's samples, for the report. */
struct pmc_row {
	__u32 tgid;
	char comm[SA_COMM_LEN + 1];
	char *func;		/* --by function: "symbol [object]" */
	__u64 samples[PMC_MAX_EVENTS];
	__u64 comm_samples;	/* the samples under the comm shown */
};

static int parse_events(struct pmc_state *s, const char *list,
			const char *tool)
{
	gchar **names = g_strsplit(list, ",", -1);
	int i, ret = 0;

	s->nev = 0;
	for (i = 0; names[i] && !ret; i++) {
		const struct sa_pmc_event *e = sa_pmc_event_find(g_strstrip(
								names[i]));

		if (!e) {
			sa_err(tool, "unknown event '%s' (--help names them)",
			       names[i]);
			ret = -1;
		} else if (s->nev == PMC_MAX_EVENTS) {
			sa_err(tool, "at most %d events", PMC_MAX_EVENTS);
			ret = -1;
		} else {
			s->ev[s->nev] = e;
			s->period[s->nev] = opt_period ? (__u64)opt_period :
							 e->period;
			s->nev++;
		}
	}
	g_strfreev(names);
	if (!ret && !s->nev) {
		sa_err(tool, "no events given");
		ret = -1;
	}
	return ret;
}

static void close_events(struct pmc_state *s)
{
	guint i;

	g_ptr_array_set_size(s->links, 0);
	for (i = 0; i < s->fds->len; i++)
		close(g_array_index(s->fds, int, i));
	g_array_set_size(s->fds, 0);
}

/*
 * Open every event on every CPU and attach the program. Returns 0, 1 if
 * the CPU has no counter for a hardware event (printed as a notice), or
 * -1 on another failure (printed).
 */
static int open_events(struct pmc_state *s, const char *tool)
{
	int ncpu = libbpf_num_possible_cpus(), i, cpu;

	if (ncpu < 0) {
		sa_bpf_err(tool, ncpu, "counting the CPUs");
		return -1;
	}
	for (i = 0; i < s->nev; i++) {
		for (cpu = 0; cpu < ncpu; cpu++) {
			LIBBPF_OPTS(bpf_perf_event_opts, po, .bpf_cookie = i);
			struct perf_event_attr attr;
			struct bpf_link *l;
			bool no_counter;
			int fd;

			sa_pmc_attr(&attr, s->ev[i]->name, s->period[i],
				    opt_freq);
			fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
				     PERF_FLAG_FD_CLOEXEC);
			if (fd < 0 && errno == ENODEV && cpu > 0)
				continue;	/* an offline CPU */
			if (fd < 0) {
				int err = errno;
				const char *why = sa_pmc_explain(s->ev[i], err,
								 &no_counter);

				if (no_counter && !opt_no_fallback &&
				    !s->fallback) {
					sa_warn(tool, "%s: %s; sampling the "
						"software events %s instead",
						s->ev[i]->name, why,
						SA_PMC_FALLBACK);
					return 1;
				}
				sa_err(tool, "%s: %s (perf_event_open: %s)%s",
				       s->ev[i]->name, why, strerror(err),
				       no_counter ? "; the software events "
				       SA_PMC_FALLBACK " work here" : "");
				return -1;
			}
			g_array_append_val(s->fds, fd);
			l = bpf_program__attach_perf_event_opts(
				s->skel->progs.on_sample, fd, &po);
			if (!l) {
				sa_bpf_err(tool, -errno, "attaching to %s on "
					   "CPU %d", s->ev[i]->name, cpu);
				return -1;
			}
			g_ptr_array_add(s->links, l);
		}
	}
	return 0;
}

static gint row_cmp(gconstpointer a, gconstpointer b)
{
	const struct pmc_row *x = a, *y = b;

	return x->samples[0] < y->samples[0] ? 1 :
	       x->samples[0] > y->samples[0] ? -1 : 0;
}

/*
 * What a sample is grouped under: its process, or with --by function the
 * function at its address, "symbol [object]" (the offset dropped).
 */
static gchar *row_key(struct pmc_state *s, struct sa_stacks *st,
		      const struct pmc_key *k)
{
	char buf[512];

	if (!s->by_func)
		return g_strdup_printf("%u", k->tgid);
	if (k->ip >= 0xffff800000000000ULL)
		sa_stacks_ksym(st, k->ip, buf, sizeof(buf));
	else
		sa_stacks_usym(st, k->tgid, k->ip, buf, sizeof(buf));
	/* "sym+0xoff [obj]" -> "sym [obj]"; unknown addresses stay */
	if (buf[0] != '0') {
		char *plus = strchr(buf, '+');

		if (plus) {
			char *rest = strchr(plus, ' ');

			memmove(plus, rest ? rest : "", strlen(rest ? rest :
								"") + 1);
		}
	}
	return g_strdup(buf);
}

/* Read and clear the samples map into rows by process or function. */
static GArray *collect(struct pmc_state *s)
{
	int fd = bpf_map__fd(s->skel->maps.samples);
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct pmc_row));
	GArray *keys = g_array_new(FALSE, FALSE, sizeof(struct pmc_key));
	GHashTable *idx = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	struct sa_stacks *st = s->by_func ? sa_stacks_new(-1) : NULL;
	struct pmc_key key, *prev = NULL;
	guint i;

	while (bpf_map_get_next_key(fd, prev, &key) == 0) {
		g_array_append_val(keys, key);
		prev = &g_array_index(keys, struct pmc_key, keys->len - 1);
	}
	for (i = 0; i < keys->len; i++) {
		struct pmc_key *k = &g_array_index(keys, struct pmc_key, i);
		struct pmc_row *row;
		gpointer v;
		gchar *gk;
		__u64 n;

		if (bpf_map_lookup_elem(fd, k, &n) != 0 ||
		    k->event >= (__u32)s->nev)
			continue;
		bpf_map_delete_elem(fd, k);
		gk = row_key(s, st, k);
		if (!g_hash_table_lookup_extended(idx, gk, NULL, &v)) {
			struct pmc_row r = { .tgid = k->tgid };

			memcpy(r.comm, k->comm, SA_COMM_LEN);
			if (s->by_func)
				r.func = g_strdup(gk);
			g_array_append_val(rows, r);
			v = GUINT_TO_POINTER(rows->len);
			g_hash_table_insert(idx, gk, v);
		} else {
			g_free(gk);
		}
		row = &g_array_index(rows, struct pmc_row,
				     GPOINTER_TO_UINT(v) - 1);
		row->samples[k->event] += n;
		/* a -c child has slabacct's name until it execs */
		if (n > row->comm_samples) {
			memcpy(row->comm, k->comm, SA_COMM_LEN);
			row->comm_samples = n;
		}
	}
	g_hash_table_destroy(idx);
	sa_stacks_free(st);
	g_array_unref(keys);
	g_array_sort(rows, row_cmp);
	return rows;
}

static void free_rows(GArray *rows)
{
	guint i;

	for (i = 0; i < rows->len; i++)
		g_free(g_array_index(rows, struct pmc_row, i).func);
	g_array_unref(rows);
}

static int event_index(struct pmc_state *s, const char *name)
{
	int i;

	for (i = 0; i < s->nev; i++)
		if (!strcmp(s->ev[i]->name, name))
			return i;
	return -1;
}

/* The ratio r of a row, if both its events are sampled; false if not. */
static bool ratio(struct pmc_state *s, const struct sa_pmc_ratio *r,
		  const struct pmc_row *row, double *out)
{
	int n = event_index(s, r->num), d = event_index(s, r->den);
	double den;

	if (n < 0 || d < 0)
		return false;
	den = (double)row->samples[d] * s->period[d];
	*out = den ? (double)row->samples[n] * s->period[n] / den : 0;
	if (r->percent)
		*out *= 100;
	return true;
}

static void report_json(struct pmc_state *s, GArray *rows, bool final)
{
	JsonBuilder *b = sa_json_report_begin("pmc");
	const struct sa_pmc_ratio *r;
	guint i;
	int e;

	sa_json_put_bool(b, "final", final);
	sa_json_put_bool(b, "fallback", s->fallback);
	json_builder_set_member_name(b, "events");
	json_builder_begin_array(b);
	for (e = 0; e < s->nev; e++) {
		json_builder_begin_object(b);
		sa_json_put_str(b, "name", s->ev[e]->name);
		sa_json_put_uint(b, opt_freq ? "freq" : "period", s->period[e]);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sa_json_put_uint(b, "lost",
		sa_stat_get(bpf_map__fd( s->skel->maps.stats), SA_STAT_LOST));
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (i = 0; i < rows->len && i < (guint)opt_top; i++) {
		struct pmc_row *row = &g_array_index(rows, struct pmc_row, i);
		double v;

		json_builder_begin_object(b);
		if (row->func) {
			sa_json_put_str(b, "function", row->func);
		} else {
			sa_json_put_int(b, "pid", row->tgid);
			sa_json_put_str(b, "comm", row->comm);
		}
		json_builder_set_member_name(b, "samples");
		json_builder_begin_object(b);
		for (e = 0; e < s->nev; e++) {
			sa_json_put_uint(b, s->ev[e]->name, row->samples[e]);
		}
		json_builder_end_object(b);
		for (r = sa_pmc_ratios(); r->num; r++) {
			if (!ratio(s, r, row, &v))
				continue;
			json_builder_set_member_name(b, r->label);
			json_builder_add_double_value(b, v);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
}

static void report_text(struct pmc_state *s, GArray *rows)
{
	const struct sa_pmc_ratio *r;
	__u64 lost = sa_stat_get(bpf_map__fd(s->skel->maps.stats),
				 SA_STAT_LOST);
	char tbuf[16];
	guint i;
	int e;

	printf("[%s] samples%s (each stands for PERIOD events: an "
	       "estimate)\n", sa_time_str(tbuf, sizeof(tbuf)),
	       s->fallback ? ", software events: no hardware counters" : "");
	if (lost)
		printf("WARNING: %llu samples lost (the table was full)\n",
		       (unsigned long long)lost);
	if (s->by_func)
		printf("%-40s", "FUNCTION");
	else
		printf("%7s %-16s", "PID", "COMM");
	for (e = 0; e < s->nev; e++)
		printf(" %16s", s->ev[e]->name);
	for (r = sa_pmc_ratios(); r->num; r++)
		if (event_index(s, r->num) >= 0 && event_index(s, r->den) >= 0)
			printf(" %11s", r->label);
	printf("\n");
	for (i = 0; i < rows->len && i < (guint)opt_top; i++) {
		struct pmc_row *row = &g_array_index(rows, struct pmc_row, i);
		double v;

		if (row->func)
			printf("%-40s", row->func);
		else
			printf("%7u %-16s", row->tgid, row->comm);
		for (e = 0; e < s->nev; e++)
			printf(" %16llu", (unsigned long long)row->samples[e]);
		for (r = sa_pmc_ratios(); r->num; r++)
			if (ratio(s, r, row, &v))
				printf(" %11.2f", v);
		printf("\n");
	}
	fflush(stdout);
}

static int report(void *arg, bool final)
{
	struct pmc_state *s = arg;
	GArray *rows;

	if (opt_stacks) {
		struct sa_count_report r = {
			.tool = "pmc", .what = s->ev[0]->name,
			.counts_fd = bpf_map__fd(s->skel->maps.counts),
			.stack_fd = bpf_map__fd(s->skel->maps.stack_traces),
			.stats_fd = bpf_map__fd(s->skel->maps.stats),
			.top = opt_folded ? 0 : opt_top,
			.json = s->run->opts->json, .folded = opt_folded,
			.clear = true, .final = final,
		};

		return sa_report_stacks(&r);
	}
	rows = collect(s);
	if (s->run->opts->json)
		report_json(s, rows, final);
	else
		report_text(s, rows);
	free_rows(rows);
	return 0;
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct pmc_state s = { .run = run };
	int err, opened;

	s.fds = g_array_new(FALSE, FALSE, sizeof(int));
	s.links = sa_links_new();
	if (opt_period < 0 || opt_top < 1) {
		sa_err(tool, "--period must not be negative, --top positive");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	if (parse_events(&s, opt_events ? opt_events : "cycles,instructions",
			 tool)) {
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	opt_stacks |= opt_folded;
	if (opt_by && strcmp(opt_by, "process") && strcmp(opt_by, "function")) {
		sa_err(tool, "--by must be process or function");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	s.by_func = opt_by && !strcmp(opt_by, "function");
	if (s.by_func && opt_stacks) {
		sa_err(tool, "--by function and --stacks exclude each other");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	if (opt_stacks && s.nev != 1) {
		sa_err(tool, "--stacks and --folded take one event (-e)");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	s.skel = pmc_bpf__open();
	if (!s.skel) {
		err = sa_bpf_open_failed(tool);
		goto cleanup;
	}
	s.skel->rodata->targ_tgid = run->target;
	s.skel->rodata->with_stacks = opt_stacks;
	s.skel->rodata->by_ip = s.by_func;
	err = pmc_bpf__load(s.skel);
	if (err) {
		err = sa_bpf_load_err(tool, err);
		goto cleanup;
	}
	opened = open_events(&s, tool);
	if (opened == 1) {
		close_events(&s);
		s.fallback = true;
		if (parse_events(&s, opt_stacks ? "cpu-clock" : SA_PMC_FALLBACK,
				 tool) == 0)
			opened = open_events(&s, tool);
		else
			opened = -1;
	}
	if (opened) {
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	if (sa_bpf_run_start(run)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = sa_bpf_run_loop(run, NULL, report, &s) ? SA_EXIT_FAIL :
						       SA_EXIT_OK;
cleanup:
	close_events(&s);
	g_ptr_array_unref(s.links);
	g_array_unref(s.fds);
	pmc_bpf__destroy(s.skel);
	return err;
}

const struct sa_bpf_tool sa_tool_pmc = {
	.name = "pmc",
	.line = "sample hardware (or software) perf events",
	.summary = "Sample perf events (LLC and dTLB loads and misses, cycles, "
		   "instructions...) by process, with hit ratios, or by stack.",
	.description =
		"Events: cycles, instructions, cache-references, cache-misses,\n"
		"branch-misses, LLC-loads, LLC-load-misses, dTLB-loads,\n"
		"dTLB-load-misses; software: page-faults, cpu-clock, "
		"task-clock.\n"
		"Each sample stands for PERIOD events, so counts and ratios "
		"(LLC_miss% =\n100*misses/loads, IPC = instructions/cycles) "
		"are estimates. Where the\nCPU has no counters (virtual "
		"machines without PMU passthrough, TCG\nguests) it says so "
		"and samples " SA_PMC_FALLBACK " instead, unless\n"
		"--no-fallback.\n\n"
		"EXAMPLES:\n"
		"  slabacct pmc -e LLC-loads,LLC-load-misses 5   miss ratio per "
		"process\n"
		"  slabacct pmc -e cycles,instructions -c ./prog  IPC of prog\n"
		"  slabacct pmc -e cycles,instructions --by function -p 1234 5\n"
		"  slabacct pmc -e cpu-clock -f 10 1 > cpu.folded  flame graph",
	.entries = entries,
	.run = run,
};
