// SPDX-License-Identifier: GPL-2.0
/*
 * --format account: the call-site report of a trace in the layout of
 * slab_account.ko's /proc/slab_account (see module/proc.c), so a
 * recording and a module snapshot can be read and compared by the same
 * tools. Counters only the module has (table overflow, page orders) are
 * 0; the trace's origin and lost events come first, as header keys the
 * module does not have (readers ignore keys they do not know). A report
 * of a /proc/slab_account snapshot keeps the snapshot's own table sizes
 * and counters, and has no trace keys.
 */
#include "procfs/account.h"
#include "report/agg/callsite.h"
#include "emit/emit.h"

#define U G_GUINT64_FORMAT
#define ACCOUNT_ORDERS		11

void sa_account_emit(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_callsite_result *r =
		rep->result[SA_SEC_CALLSITE];
	const struct sa_totals *km, *ca;
	FILE *f = e->out;
	guint64 alloc, req, allocs;
	guint i;
	int k;

	if (!r)
		return;
	km = &r->total[SA_KIND_KMALLOC];
	ca = &r->total[SA_KIND_CACHE];
	alloc = km->bytes_alloc + ca->bytes_alloc;
	req = km->bytes_req + ca->bytes_req;
	allocs = km->allocs + ca->allocs;
	fprintf(f, "# %s %d\n", SLAB_ACCOUNT_PROC_NAME,
		SLAB_ACCOUNT_FORMAT_VERSION);
	if (rep->account)
		goto sizes;
	/* where the trace came from: keys the module's readers ignore */
	if (rep->origin.lost_known)
		fprintf(f, "lost_events: %" U "\n", rep->origin.lost_total);
	else
		fprintf(f, "lost_events: unknown\n");
	if (rep->origin.truncated)
		fprintf(f, "trace_truncated: %s\n",
			sa_esc(rep->origin.truncated));
	if (rep->origin.truncated && rep->origin.truncated_at_known)
		fprintf(f, "trace_truncated_at_ns: %" U "\n",
			rep->origin.truncated_ns);
	if (rep->origin.kernel_release)
		fprintf(f, "trace_kernel: %s\n",
			sa_esc(rep->origin.kernel_release));
	if (rep->origin.recorder)
		fprintf(f, "trace_recorder: %s\n",
			sa_esc(rep->origin.recorder));
	if (rep->origin.left_out)
		fprintf(f, "trace_left_out: %s\n",
			sa_esc(rep->origin.left_out));
	if (rep->origin.filter)
		fprintf(f, "trace_filter: %s\n", sa_esc(rep->origin.filter));
	fprintf(f, "trace_duration_ns: %" U "\n", rep->last_ts > rep->first_ts ?
		rep->last_ts - rep->first_ts : 0);
	/* kernel stacks: attached to their events, and given to none */
	if (rep->stacks || rep->stacks_lost)
		fprintf(f, "trace_stacks: %" U "\ntrace_stacks_unmatched: %" U
			"\n", rep->stacks, rep->stacks_lost);
sizes:
	if (rep->account)
		fprintf(f, "sort: total\ntop: 0\nsites: %" U "\nobjects: %" U
			"\ncache_slot_size: %s\n", rep->account->sites,
			rep->account->objects, rep->account->cache_slot_exact ?
			"exact" : "object");
	else
		fprintf(f, "sort: total\ntop: 0\nsites: %u\nobjects: %" U
			"\ncache_slot_size: exact\n", r->sites->len,
			km->live + ca->live);
	fprintf(f, "bytes_alloc: %" U "\nbytes_req: %" U "\nslack: %" U "\n",
		alloc, req, alloc - req);
	fprintf(f, "live_bytes: %" U "\nlive_req: %" U "\nlive_objects: %"
		U "\n", km->live_alloc + ca->live_alloc,
		km->live_req + ca->live_req, km->live + ca->live);
	fprintf(f, "allocs: %" U "\nfrees: %" U "\ncallers: %u\n", allocs,
		km->frees + ca->frees, r->shown->len);
	fprintf(f, "dropped: %" U "\nuntracked_frees: %" U "\n",
		rep->account ? rep->account->dropped : 0, r->unmatched_frees);
	fprintf(f, "map_full: %" U "\nlost_frees: %" U "\n",
		rep->account ? rep->account->map_full : 0, r->reused);
	for (k = 0; k < SA_KIND_NR; k++) {
		const struct sa_totals *t = &r->total[k];
		const char *n = sa_kind_name(k);

		fprintf(f, "%s_allocs: %" U "\n%s_bytes_alloc: %" U "\n"
			"%s_bytes_req: %" U "\n%s_slack: %" U "\n", n,
			t->allocs, n, t->bytes_alloc, n, t->bytes_req, n,
			t->slack);
	}
	fputs("pages_alloc:", f);
	for (k = 0; k < ACCOUNT_ORDERS; k++)
		fputs(" 0", f);
	fputs("\npages_free:", f);
	for (k = 0; k < ACCOUNT_ORDERS; k++)
		fputs(" 0", f);
	fputc('\n', f);
	fprintf(f, "# %8s %9s %10s %10s %7s %19s %-7s %s\n", "total",
		"slack", "req", "live", "objs", "allocs/frees", "kind",
		"caller");
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];
		char af[48];

		snprintf(af, sizeof(af), "%9" U "/%-9" U, s->allocs, s->frees);
		fprintf(f, "%10" U " %9" U " %10" U " %10" U " %7" U " %s "
			"%-7s %s\n", s->bytes_alloc, s->slack, s->bytes_req,
			s->live_alloc, s->live, af, sa_kind_name(s->kind),
			sa_esc(s->sym));
	}
}

static int account_begin(struct sa_emit *e, const struct sa_report *rep)
{
	sa_account_emit(e, rep);
	return 0;
}

/* the call-site rows only, as /proc/slab_account has them */
const struct sa_format_ops sa_format_account = {
	.name = "account", .begin = account_begin,
};
