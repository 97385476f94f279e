// SPDX-License-Identifier: GPL-2.0
/*
 * Boot phases (report/agg/phases.h), computed while the timeline reads the
 * trace. Where init starts is known only later (the last initcall of the
 * levels' thread is the last before its exec, or before the end): the
 * events since the latest initcall finish are held apart ("tail") until
 * the next finish gives them to the current level, or the exec or the end
 * of the trace makes them init's.
 */
#include <stdint.h>
#include <string.h>

#include "report/agg/phases.h"

/*
 * The kernel's order of the levels: console_init() marks "console" from
 * start_kernel(), then init/main.c the initcall levels.
 */
static const char *const level_order[] = {
	"console", "early", "pure", "core", "postcore", "arch", "subsys", "fs",
	"device", "late",
};

static int level_rank(const char *name)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(level_order); i++)
		if (!strcmp(name, level_order[i]))
			return i;
	return -1;
}

static void counts_add(struct sa_phase_counts *to,
		       const struct sa_phase_counts *c)
{
	to->allocs += c->allocs;
	to->alloc_bytes += c->alloc_bytes;
	to->frees += c->frees;
	to->freed_bytes += c->freed_bytes;
}

void sa_phases_init(struct sa_phases_state *st)
{
	memset(st, 0, sizeof(*st));
	st->res.phases = g_array_new(FALSE, TRUE, sizeof(struct sa_phase));
	st->cur = -1;
	st->last_rank = -1;
}

static struct sa_phase *phase_at(struct sa_phases_state *st, int i)
{
	return &g_array_index(st->res.phases, struct sa_phase, i);
}

/* A new phase, or NULL past SA_PHASES_MAX (counted). */
static struct sa_phase *phase_push(struct sa_phases_state *st,
				   const char *name, guint64 ts)
{
	struct sa_phase p;

	if (st->res.phases->len >= SA_PHASES_MAX) {
		st->res.dropped++;
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	g_strlcpy(p.name, name && *name ? name : "?", sizeof(p.name));
	p.start_ns = ts;
	g_array_append_val(st->res.phases, p);
	st->cur = st->res.phases->len - 1;
	return phase_at(st, st->cur);
}

/* The events held since the last finish go to the current phase. */
static void tail_settle(struct sa_phases_state *st)
{
	if (st->cur >= 0)
		counts_add(&phase_at(st, st->cur)->c, &st->tail);
	memset(&st->tail, 0, sizeof(st->tail));
}

/* Init starts: at the last finish (with the events since), or at ts. */
static void init_start(struct sa_phases_state *st, guint64 ts)
{
	struct sa_phase *p;

	if (st->have_cand) {
		p = phase_push(st, "init", st->cand_ts);
		st->res.init_from = SA_INIT_FINISH;
	} else {
		p = phase_push(st, "init", ts);
		st->res.init_from = SA_INIT_EXEC;
	}
	if (p)
		counts_add(&p->c, &st->tail);
	else
		tail_settle(st);
	memset(&st->tail, 0, sizeof(st->tail));
	st->have_cand = false;
	st->init_done = true;
}

static void on_level(struct sa_phases_state *st, const struct sa_rec *r)
{
	bool have = (r->have & (1u << SA_IL_LEVEL)) && r->v[SA_IL_LEVEL];
	const char *name = have ? (const char *)(uintptr_t)r->v[SA_IL_LEVEL] :
			   "?";
	int rank = level_rank(name);

	st->res.levels++;
	if (rank >= 0) {
		if (st->ranks_seen & (1u << rank))
			st->res.repeated++;
		else if (rank < st->last_rank)
			st->res.out_of_order++;
		st->ranks_seen |= 1u << rank;
		st->last_rank = rank;
	}
	tail_settle(st);
	st->have_cand = false;
	st->init_done = false;
	st->pid = r->pid;
	phase_push(st, name, r->ts);
}

static void count(struct sa_phases_state *st, const struct sa_rec *r,
		  struct sa_phase_counts *c)
{
	switch (r->ev) {
	case SA_EV_KMALLOC:
	case SA_EV_CACHE_ALLOC:
		/* a failed allocation, or the second event of one */
		if (!r->v[SA_KM_PTR] || (r->flags & SA_REC_REPEAT))
			break;
		c->allocs++;
		c->alloc_bytes += r->v[SA_KM_ALLOC];
		break;
	case SA_EV_KFREE:
	case SA_EV_CACHE_FREE:
		if (!r->freed_alloc)
			break;
		c->frees++;
		c->freed_bytes += r->freed_alloc;
		break;
	default:
		break;
	}
}

void sa_phases_event(struct sa_phases_state *st, const struct sa_rec *r)
{
	bool ours = st->cur >= 0 && !st->init_done && r->pid == st->pid;

	switch (r->ev) {
	case SA_EV_INITCALL_LEVEL:
		on_level(st, r);
		return;
	case SA_EV_INITCALL_FINISH:
		if (ours) {
			tail_settle(st);
			st->have_cand = true;
			st->cand_ts = r->ts;
		}
		return;
	case SA_EV_EXEC:
		if (ours)
			init_start(st, r->ts);
		return;
	default:
		break;
	}
	if (st->cur < 0)
		count(st, r, &st->res.before);
	else if (st->have_cand)
		count(st, r, &st->tail);
	else
		count(st, r, &phase_at(st, st->cur)->c);
}

void sa_phases_finish(struct sa_phases_state *st, struct sa_phases *out)
{
	if (st->have_cand)
		init_start(st, st->cand_ts);
	*out = st->res;
	memset(st, 0, sizeof(*st));
	st->cur = -1;
}

void sa_phases_clear(struct sa_phases *ph)
{
	if (ph->phases)
		g_array_free(ph->phases, TRUE);
	memset(ph, 0, sizeof(*ph));
}

const char *sa_init_from_name(enum sa_init_from f)
{
	switch (f) {
	case SA_INIT_FINISH:
		return "initcall_finish";
	case SA_INIT_EXEC:
		return "sched_process_exec";
	default:
		return NULL;
	}
}
