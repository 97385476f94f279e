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

/*
 * The header keys of uapi/slab_account.h's tables, from a struct
 * sa_account: each required key, and a group of keys a file may not have
 * only when known.
 */
#define KEY_U64(name)	fprintf(f, #name ": %" U "\n", a->name)
#define KEY_S64(name)	fprintf(f, #name ": %" G_GINT64_FORMAT "\n", a->name)
#define KEY_WORD(name)	fprintf(f, #name ": %s\n", a->name)
#define KEY_SLOT(name) \
	fprintf(f, #name ": %s\n", a->cache_slot_exact ? "exact" : "object")
#define KEY_ORDERS(name) \
	do { \
		fputs(#name ":", f); \
		for (o = 0; o < a->n_orders; o++) \
			fprintf(f, " %" U, a->name[o]); \
		fputc('\n', f); \
	} while (0)
#define KNOWN_REQUIRED		TRUE
#define KNOWN_REPEATS		a->kmalloc_repeats_known
#define KNOWN_UNATTRIBUTED	a->unattributed_known
#define KNOWN_SLOW		a->slow_known
#define KEY(name, type, since, group) \
	if (KNOWN_##group) \
		KEY_##type(name);
#define KIND_KEY(name, type, since, group, k) \
	fprintf(f, "%s_" #name ": %" U "\n", kind_name[k], a->kind[k].name);

static void write_header(FILE *f, const struct sa_account *a)
{
	static const char *const kind_name[] = SLAB_ACCOUNT_KIND_NAMES;
	unsigned int k, o;

	SLAB_ACCOUNT_KEYS(KEY)
	for (k = 0; k < SLAB_ACCOUNT_NR_KINDS; k++) {
		SLAB_ACCOUNT_KIND_KEYS(KIND_KEY, k)
	}
	SLAB_ACCOUNT_ORDER_KEYS(KEY)
}

/* The columns, their titles and widths */
#define COLUMN(name, title, width)	{ title, width },
static const struct {
	const char *title;
	int width;
} columns[] = { SLAB_ACCOUNT_COLUMNS(COLUMN) };
#define COLUMN_WIDTH(name, title, width)	W_##name = (width),
enum { SLAB_ACCOUNT_COLUMNS(COLUMN_WIDTH) };

void sa_account_emit(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_callsite_result *r =
		rep->result[SA_SEC_CALLSITE];
	const struct sa_totals *km, *ca;
	struct sa_account a = { .version = SLAB_ACCOUNT_FORMAT_VERSION };
	FILE *f = e->out;
	guint i;
	int k;

	if (!r)
		return;
	km = &r->total[SA_KIND_KMALLOC];
	ca = &r->total[SA_KIND_CACHE];
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
	a.sort = "total";
	if (rep->account) {
		a.sites = rep->account->sites;
		a.objects = rep->account->objects;
		a.cache_slot_exact = rep->account->cache_slot_exact;
		a.dropped = rep->account->dropped;
		a.map_full = rep->account->map_full;
	} else {
		a.sites = r->sites->len;
		a.objects = km->live + ca->live;
		a.cache_slot_exact = TRUE;
	}
	for (k = 0; k < SA_KIND_NR; k++) {
		const struct sa_totals *t = &r->total[k];

		a.kind[k].allocs = t->allocs;
		a.kind[k].bytes_alloc = t->bytes_alloc;
		a.kind[k].bytes_req = t->bytes_req;
		a.kind[k].slack = t->slack;
		a.bytes_alloc += t->bytes_alloc;
		a.bytes_req += t->bytes_req;
		a.allocs += t->allocs;
		a.live_bytes += t->live_alloc;
		a.live_req += t->live_req;
		a.live_objects += t->live;
		a.frees += t->frees;
	}
	a.slack = a.bytes_alloc - a.bytes_req;
	a.callers = r->shown->len;
	a.untracked_frees = r->unmatched_frees;
	a.lost_frees = r->reused;
	/* the module's page counts: none in a trace's report */
	a.n_orders = ACCOUNT_ORDERS;
	write_header(f, &a);
	for (i = 0; i < G_N_ELEMENTS(columns); i++)
		fprintf(f, i ? " %*s" : "#%*s", i ? columns[i].width :
			columns[i].width - 1, columns[i].title);
	fputc('\n', f);
	for (i = 0; i < r->shown->len; i++) {
		const struct sa_site *s = r->shown->pdata[i];

		fprintf(f, "%*" U " %*" U " %*" U " %*" U " %*" U " %*" U "/%-*"
			U " %*s %s\n", W_total, s->bytes_alloc, W_slack,
			s->slack, W_req, s->bytes_req, W_live, s->live_alloc,
			W_objs, s->live, W_allocs_frees / 2, s->allocs,
			W_allocs_frees / 2, s->frees, W_kind,
			sa_kind_name(s->kind), sa_esc(s->sym));
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
