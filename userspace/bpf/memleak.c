// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct memleak: outstanding allocations by stack, with sizes and ages.
 * User space through uprobes on an allocator (libc by default), the
 * kernel's kmalloc and kmem_cache through the kmem tracepoints.
 */
#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-drive.h"
#include "bpf-syms.h"
#include "bpf-tool.h"
#include "util/msg.h"
#include "util/escape.h"
#include "util/outfile.h"
#include "util/pprof.h"
#include "memleak.h"
#include "memleak.skel.h"

/* the BPF map of outstanding allocations: 16M entries take ~1.5 GB */
#define MAX_ALLOCS	(1 << 24)

static gint opt_older_ms;
static gint opt_sample_rate = 1;
static gint opt_top = 10;
static gint opt_max_allocs = 131072;
static gchar *opt_lib;
static gchar *opt_prefix;
static gboolean opt_kernel;
static gchar *opt_pprof;

static const GOptionEntry entries[] = {
	{ "older", 'o', 0, G_OPTION_ARG_INT, &opt_older_ms,
	  "show only allocations older than MS milliseconds", "MS" },
	{ "sample-rate", 's', 0, G_OPTION_ARG_INT, &opt_sample_rate,
	  "record one allocation in N (default 1: all)", "N" },
	{ "top", 'T', 0, G_OPTION_ARG_INT, &opt_top,
	  "show the N stacks with the most outstanding bytes (default 10)",
	  "N" },
	{ "max-allocs", 0, 0, G_OPTION_ARG_INT, &opt_max_allocs,
	  "track at most N outstanding allocations (default 131072); more "
	  "are counted as dropped", "N" },
	{ "lib", 'O', 0, G_OPTION_ARG_FILENAME, &opt_lib,
	  "the allocator library or binary to probe (default: libc)", "PATH" },
	{ "symbol-prefix", 0, 0, G_OPTION_ARG_STRING, &opt_prefix,
	  "the allocator's symbols are PREFIXmalloc etc. (je_ for a "
	  "prefixed jemalloc)", "PREFIX" },
	{ "kernel", 'k', 0, G_OPTION_ARG_NONE, &opt_kernel,
	  "kernel allocations (kmalloc, kmem_cache) through tracepoints", NULL },
	{ "pprof", 0, 0, G_OPTION_ARG_FILENAME, &opt_pprof,
	  "at the end, write every outstanding stack to FILE as a gzipped "
	  "pprof profile (inuse_objects, inuse_space)", "FILE" },
	{ NULL },
};

/* One stack's outstanding allocations, for the report. */
struct ml_group {
	__u32 pid;
	__s32 stack_id;
	__u64 count, bytes;
	__u64 oldest_ns;	/* age of the oldest */
};

struct ml_state {
	struct sa_bpf_run *run;
	struct memleak_bpf *skel;
};

/* Which probe serves which allocator function. */
struct ml_probe {
	const char *func;
	bool required;
	struct bpf_program *(*enter)(struct memleak_bpf *s);
	struct bpf_program *(*ret)(struct memleak_bpf *s);
};

#define PROG(name) \
	static struct bpf_program *p_##name(struct memleak_bpf *s) \
	{ return s->progs.name; }
PROG(malloc_enter)
PROG(calloc_enter)
PROG(realloc_enter)
PROG(aligned_enter)
PROG(mmap_enter)
PROG(posix_memalign_enter)
PROG(free_enter_prog)
PROG(alloc_return)
PROG(posix_memalign_return)

static const struct ml_probe probes[] = {
	{ "malloc", true, p_malloc_enter, p_alloc_return },
	{ "calloc", false, p_calloc_enter, p_alloc_return },
	{ "realloc", false, p_realloc_enter, p_alloc_return },
	{ "free", true, p_free_enter_prog, NULL },
	{ "posix_memalign", false, p_posix_memalign_enter,
	  p_posix_memalign_return },
	{ "aligned_alloc", false, p_aligned_enter, p_alloc_return },
	{ "valloc", false, p_malloc_enter, p_alloc_return },
	{ "memalign", false, p_aligned_enter, p_alloc_return },
	{ "pvalloc", false, p_malloc_enter, p_alloc_return },
	{ "mmap", false, p_mmap_enter, p_alloc_return },
	{ "munmap", false, p_free_enter_prog, NULL },
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static gint group_cmp(gconstpointer a, gconstpointer b)
{
	const struct ml_group *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* Group the outstanding allocations by (process, stack). */
static guint key_hash(gconstpointer p)
{
	const struct ml_key *k = p;

	return g_int64_hash(&k->addr) ^ k->tgid;
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
	const struct ml_key *x = a, *y = b;

	return x->addr == y->addr && x->tgid == y->tgid;
}

/*
 * The outstanding allocations, grouped by pid and stack. The programs
 * keep deleting entries while the map is walked, and a walk whose
 * previous key is gone starts again from the first key: every key is
 * counted once, by the set of those seen.
 */
static GArray *collect(struct ml_state *s, __u64 *total, __u64 *bytes)
{
	int fd = bpf_map__fd(s->skel->maps.allocs);
	GHashTable *idx = g_hash_table_new_full(g_int64_hash, g_int64_equal,
						g_free, NULL);
	GHashTable *seen = g_hash_table_new_full(key_hash, key_equal, g_free,
						 NULL);
	GArray *groups = g_array_new(FALSE, TRUE, sizeof(struct ml_group));
	struct ml_key key, next, *prev = NULL;
	uint64_t now = mono_ns();
	uint64_t older = (uint64_t)opt_older_ms * 1000000;
	struct ml_alloc a;

	*total = *bytes = 0;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct ml_group *g;
		gpointer v;
		gint64 gk;
		uint64_t age;

		key = next;
		prev = &key;
		if (g_hash_table_contains(seen, &key))
			continue;
		g_hash_table_add(seen, g_memdup2(&key, sizeof(key)));
		if (bpf_map_lookup_elem(fd, &key, &a) != 0)
			continue;
		age = now > a.ts_ns ? now - a.ts_ns : 0;
		if (age < older)
			continue;
		(*total)++;
		*bytes += a.size;
		gk = ((gint64)a.pid << 32) | (__u32)a.stack_id;
		if (!g_hash_table_lookup_extended(idx, &gk, NULL, &v)) {
			struct ml_group ng = { .pid = a.pid,
					       .stack_id = a.stack_id };

			g_array_append_val(groups, ng);
			v = GUINT_TO_POINTER(groups->len);
			g_hash_table_insert(idx, g_memdup2(&gk, sizeof(gk)), v);
		}
		g = &g_array_index(groups, struct ml_group,
				   GPOINTER_TO_UINT(v) - 1);
		g->count++;
		g->bytes += a.size;
		if (age > g->oldest_ns)
			g->oldest_ns = age;
	}
	g_hash_table_destroy(idx);
	g_hash_table_destroy(seen);
	g_array_sort(groups, group_cmp);
	return groups;
}

static __u64 stat_get(struct ml_state *s, __u32 which)
{
	__u64 v = 0;

	bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.stats), &which, &v);
	return v;
}

static void report_json(struct ml_state *s, GArray *groups,
			struct sa_stacks *st, __u64 total, __u64 bytes,
			bool final)
{
	JsonBuilder *b = sa_json_report_begin("memleak");
	char comm[32];
	guint i;

	sa_json_put_bool(b, "final", final);
	sa_json_put_bool(b, "kernel", opt_kernel);
	sa_json_put_int(b, "sample_rate", opt_sample_rate);
	sa_json_put_int(b, "older_ms", opt_older_ms);
	sa_json_put_uint(b, "outstanding", total);
	sa_json_put_uint(b, "outstanding_bytes", bytes);
	sa_json_put_uint(b, "allocs_traced", stat_get(s, ML_STAT_ALLOCS));
	sa_json_put_uint(b, "frees_matched", stat_get(s, ML_STAT_FREES));
	sa_json_put_uint(b, "lost", stat_get(s, ML_STAT_DROPPED));
	sa_json_put_uint(b, "stacks_lost", stat_get(s, ML_STAT_NOSTACK));
	json_builder_set_member_name(b, "stacks");
	json_builder_begin_array(b);
	for (i = 0; i < groups->len && i < (guint)opt_top; i++) {
		struct ml_group *g = &g_array_index(groups, struct ml_group, i);
		GPtrArray *fr = opt_kernel ?
			sa_stacks_frames(st, 0, g->stack_id, SA_NO_STACK) :
			sa_stacks_frames(st, g->pid, SA_NO_STACK, g->stack_id);

		json_builder_begin_object(b);
		if (!opt_kernel) {
			sa_json_put_int(b, "pid", g->pid);
			sa_json_put_str(b, "comm",
				sa_pid_comm(g->pid, comm, sizeof(comm)));
		}
		sa_json_put_uint(b, "allocations", g->count);
		sa_json_put_uint(b, "bytes", g->bytes);
		sa_json_put_uint(b, "oldest_ms", g->oldest_ns / 1000000);
		sa_json_put_strv(b, "frames", fr);
		/* a user stack that does not reach its thread's start */
		if (!opt_kernel)
			sa_json_put_bool(b, "stack_cut", sa_frames_cut(fr));
		json_builder_end_object(b);
		g_ptr_array_unref(fr);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	sa_bpf_json_print(b);
}

static void report_text(struct ml_state *s, GArray *groups,
			struct sa_stacks *st, __u64 total, __u64 bytes)
{
	__u64 lost = stat_get(s, ML_STAT_DROPPED);
	__u64 nostack = stat_get(s, ML_STAT_NOSTACK);
	char tbuf[16], comm[32];
	time_t t = time(NULL);
	guint i, j;

	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime(&t));
	if (lost)
		printf("WARNING: %llu allocations lost (the table of %d "
		       "was full; raise --max-allocs)\n",
		       (unsigned long long)lost, opt_max_allocs);
	if (nostack)
		printf("WARNING: %llu allocations kept without their stack "
		       "(the stack map had no room; shown as [stack lost])\n",
		       (unsigned long long)nostack);
	printf("[%s] %llu outstanding allocations, %llu bytes%s; top %u "
	       "stacks:\n", tbuf, (unsigned long long)total,
	       (unsigned long long)bytes,
	       opt_sample_rate > 1 ? " (sampled)" : "",
	       MIN(groups->len, (guint)opt_top));
	for (i = 0; i < groups->len && i < (guint)opt_top; i++) {
		struct ml_group *g = &g_array_index(groups, struct ml_group, i);
		GPtrArray *fr = opt_kernel ?
			sa_stacks_frames(st, 0, g->stack_id, SA_NO_STACK) :
			sa_stacks_frames(st, g->pid, SA_NO_STACK, g->stack_id);

		printf("\t%llu bytes in %llu allocations, oldest %llu ms",
		       (unsigned long long)g->bytes,
		       (unsigned long long)g->count,
		       (unsigned long long)(g->oldest_ns / 1000000));
		if (!opt_kernel)
			printf(", pid %u (%s)", g->pid,
			       sa_esc(sa_pid_comm(g->pid, comm,
						  sizeof(comm))));
		printf(":\n");
		for (j = 0; j < fr->len; j++)
			printf("\t\t%s\n",
			       sa_esc(g_ptr_array_index(fr, j)));
		if (!opt_kernel && sa_frames_cut(fr))
			printf("\t\t[stack cut: the walk stopped before the "
			       "thread's start]\n");
		g_ptr_array_unref(fr);
	}
	fflush(stdout);
}

/*
 * --pprof: every stack's outstanding allocations as a pprof profile,
 * sample types inuse_objects/count and inuse_space/bytes (Go's heap
 * profile's live ones: memleak keeps no freed allocation), period type
 * space/bytes, period the sample rate; a frame's function is its symbol
 * (its object the function's file), leaf first; labels pid and comm.
 */
static int write_pprof(GArray *groups, struct sa_stacks *st)
{
	static const char *const types[2][2] = {
		{ "inuse_objects", "count" }, { "inuse_space", "bytes" },
	};
	static const char *const period[2] = { "space", "bytes" };
	struct sa_outfile_opts oo = { 0 };
	struct sa_outfile *of;
	struct sa_pprof *p;
	GError *err = NULL;
	FILE *f = NULL;
	const char *why;
	guint i, j;
	int fd, ret = -1;

	if (!sa_pprof_available(&why)) {
		sa_err("memleak", "--pprof: %s", why);
		return -1;
	}
	p = sa_pprof_new(types, 2, period, opt_sample_rate,
			 opt_kernel ? "[kernel.kallsyms]" : "[user]");
	for (i = 0; i < groups->len; i++) {
		struct ml_group *g = &g_array_index(groups, struct ml_group, i);
		GPtrArray *fr = opt_kernel ?
			sa_stacks_frames(st, 0, g->stack_id, SA_NO_STACK) :
			sa_stacks_frames(st, g->pid, SA_NO_STACK, g->stack_id);
		guint64 *locs = g_new(guint64, fr->len ? fr->len : 1);
		gint64 v[2] = { g->count, g->bytes };
		char pid[16], comm[32];
		const char *labels[4] = { "pid", pid, "comm", NULL };

		for (j = 0; j < fr->len; j++) {
			const char *name = g_ptr_array_index(fr, j);
			const char *obj = strchr(name, '[');
			char *fn = g_strndup(name, strcspn(name, "+ "));
			char *file = obj ? g_strndup(obj + 1,
						     strcspn(obj + 1, "]")) : NULL;

			locs[j] = sa_pprof_location(p, 0, fn, file, 0);
			g_free(fn);
			g_free(file);
		}
		snprintf(pid, sizeof(pid), "%u", g->pid);
		if (!opt_kernel)
			labels[3] = sa_pid_comm(g->pid, comm, sizeof(comm));
		if (fr->len)
			sa_pprof_sample(p, locs, fr->len, v, labels,
					opt_kernel ? 0 : 2);
		g_free(locs);
		g_ptr_array_unref(fr);
	}
	of = sa_outfile_open(opt_pprof, &oo, &err);
	if (!of)
		goto out;
	fd = dup(sa_outfile_fd(of));
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		g_set_error(&err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s", g_strerror(errno));
		sa_outfile_abort(of);
		goto out;
	}
	if (sa_pprof_write(p, f, &err)) {
		fclose(f);
		sa_outfile_abort(of);
		goto out;
	}
	if (fclose(f)) {
		g_set_error(&err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s", g_strerror(errno));
		sa_outfile_abort(of);
		goto out;
	}
	ret = sa_outfile_commit(of, &err);
out:
	if (ret) {
		sa_err("memleak", "--pprof %s: %s", opt_pprof,
		       err ? err->message : "cannot write");
		g_clear_error(&err);
	}
	sa_pprof_free(p);
	return ret;
}

static int report(void *arg, bool final)
{
	struct ml_state *s = arg;
	struct sa_stacks *st;
	__u64 total, bytes;
	GArray *groups;

	st = sa_stacks_new(bpf_map__fd(s->skel->maps.stack_traces));
	groups = collect(s, &total, &bytes);
	if (s->run->opts->json)
		report_json(s, groups, st, total, bytes, final);
	else
		report_text(s, groups, st, total, bytes);
	if (final && opt_pprof && write_pprof(groups, st)) {
		g_array_unref(groups);
		sa_stacks_free(st);
		return -1;
	}
	g_array_unref(groups);
	sa_stacks_free(st);
	return 0;
}

static int attach_user(struct memleak_bpf *skel, struct sa_bpf_run *run,
		       GPtrArray *links)
{
	const char *tool = run->opts->tool;
	char *lib = opt_lib ? g_strdup(opt_lib) : sa_find_libc(run->opts->pid);
	pid_t pid = run->target ? run->target : -1;
	GString *missing = g_string_new(NULL);
	size_t i;
	int err = 0;

	if (!lib) {
		sa_err(tool, "cannot find the libc that %s uses; name it "
		       "with --lib", run->opts->pid ? "the process" : "slabacct");
		return -ENOENT;
	}
	for (i = 0; i < G_N_ELEMENTS(probes) && !err; i++) {
		const struct ml_probe *p = &probes[i];
		LIBBPF_OPTS(bpf_uprobe_opts, uo);
		struct bpf_link *l;
		char *sym = g_strdup_printf("%s%s", opt_prefix ? opt_prefix : "",
					    p->func);

		uo.func_name = sym;
		sa_bpf_quiet(!p->required);
		l = bpf_program__attach_uprobe_opts(p->enter(skel), pid, lib, 0,
						    &uo);
		if (l && p->ret) {
			g_ptr_array_add(links, l);
			uo.retprobe = true;
			l = bpf_program__attach_uprobe_opts(p->ret(skel), pid,
							    lib, 0, &uo);
		}
		if (l) {
			g_ptr_array_add(links, l);
		} else if (p->required) {
			err = -errno;
			sa_bpf_err(tool, err, "cannot probe %s in %s", sym, lib);
		} else {
			g_string_append_printf(missing, "%s%s",
					       missing->len ? ", " : "", sym);
		}
		sa_bpf_quiet(false);
		g_free(sym);
	}
	if (!err && missing->len)
		sa_warn(tool, "%s has no %s: not traced", lib, missing->str);
	g_string_free(missing, TRUE);
	g_free(lib);
	return err;
}

/* Load only the programs of the chosen mode, and tracepoints that exist. */
static void choose_programs(struct memleak_bpf *skel)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		bool tp = g_str_has_prefix(bpf_program__name(prog), "tp_");

		bpf_program__set_autoload(prog, opt_kernel ? tp : !tp);
	}
	if (opt_kernel)
		sa_autoload_tracepoints(skel->obj);
}

static int run(struct sa_bpf_run *run)
{
	const char *tool = run->opts->tool;
	struct ml_state state = { .run = run };
	GPtrArray *links = sa_links_new();
	struct memleak_bpf *skel = NULL;
	int err;

	if (opt_sample_rate < 1 || opt_top < 1 || opt_older_ms < 0 ||
	    opt_max_allocs < 1 || opt_max_allocs > MAX_ALLOCS) {
		sa_err(tool, "--sample-rate, --top and --max-allocs must be "
		       "positive (--max-allocs at most %d), --older not "
		       "negative", MAX_ALLOCS);
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	if (opt_kernel && (opt_lib || opt_prefix)) {
		sa_err(tool, "--kernel does not go with --lib or --symbol-prefix");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	if (opt_kernel && !sa_tracepoint_exists("kmem", "kfree")) {
		sa_err(tool, "the kernel has no kmem:kfree tracepoint "
		       "(is tracefs mounted?)");
		err = SA_EXIT_USAGE;
		goto cleanup;
	}
	skel = memleak_bpf__open();
	if (!skel) {
		err = sa_bpf_open_failed(tool);
		goto cleanup;
	}
	skel->rodata->targ_tgid = run->target;
	skel->rodata->sample_rate = opt_sample_rate;
	skel->rodata->kernel_mode = opt_kernel;
	bpf_map__set_max_entries(skel->maps.allocs, opt_max_allocs);
	choose_programs(skel);
	err = memleak_bpf__load(skel);
	if (err) {
		sa_bpf_err(tool, err, "loading the BPF programs (-v shows "
			   "the verifier's log)");
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = opt_kernel ? sa_attach_all(skel->obj, tool, links) :
			   attach_user(skel, run, links);
	if (err) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	state.skel = skel;
	if (sa_bpf_run_start(run)) {
		err = SA_EXIT_FAIL;
		goto cleanup;
	}
	err = sa_bpf_run_loop(run, NULL, report, &state) ? SA_EXIT_FAIL :
							     SA_EXIT_OK;
cleanup:
	g_ptr_array_unref(links);
	memleak_bpf__destroy(skel);
	return err;
}

const struct sa_bpf_tool sa_tool_memleak = {
	.name = "memleak",
	.line = "outstanding allocations by stack (user, or --kernel)",
	.summary = "Outstanding allocations by stack, with sizes and ages: "
		   "malloc and friends in user space through uprobes, or "
		   "kmalloc and kmem_cache with --kernel.",
	.description =
		"Probes malloc, calloc, realloc, free, posix_memalign, "
		"aligned_alloc,\nvalloc, memalign, pvalloc, mmap and munmap. "
		"Stacks are named from the\nELF symbol tables of the mapped "
		"objects (libdwfl).\n\n"
		"EXAMPLES:\n"
		"  slabacct memleak -p 1234 5        report every 5 s\n"
		"  slabacct memleak -c './prog arg'  run prog, report at its exit\n"
		"  slabacct memleak --older 1000 -p 1234 10 3\n"
		"  slabacct memleak -s 100 -p 1234   record 1 allocation in 100\n"
		"  slabacct memleak --lib /usr/lib/x86_64-linux-gnu/"
		"libjemalloc.so.2 -p 1234\n"
		"  slabacct memleak --kernel 10 1    kernel, one 10 s report\n"
		"  slabacct memleak --pprof heap.pb.gz -c ./prog   for pprof",
	.entries = entries,
	.run = run,
};
