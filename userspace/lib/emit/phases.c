// SPDX-License-Identifier: GPL-2.0
/*
 * Boot phases in text, JSON and CSV (emit/emit-phases.h). A phase's start
 * is the trace's time of the event that starts it, in the trace's clock
 * (the seconds 'trace-cmd report' shows); its level name is as traced,
 * escaped where the format needs it.
 */
#include <string.h>

#include "emit/emit-phases.h"

#define H(v) sa_human((char[16]){ 0 }, (v))
#define U G_GUINT64_FORMAT
#define NS_S G_GUINT64_CONSTANT(1000000000)

static const char *first_level(const struct sa_phases *ph)
{
	const struct sa_phase *p;

	if (!ph->levels || !ph->phases || !ph->phases->len)
		return NULL;
	p = &g_array_index(ph->phases, struct sa_phase, 0);
	return p->name;
}

static void text_row(FILE *f, const char *name, const char *at,
		     const struct sa_phase_counts *c)
{
	fprintf(f, "%-10s %15s %8" U " %8s %8" U " %8s\n", sa_esc(name), at,
		c->allocs, H(c->alloc_bytes), c->frees, H(c->freed_bytes));
}

void sa_text_phases(struct sa_emit *e, const struct sa_phases *ph)
{
	FILE *f = e->out;
	guint i;

	if (!ph->levels)
		return;
	fprintf(f, "\n-- boot phases: initcall levels (first traced: %s)%s "
		"--\n", sa_esc(first_level(ph)),
		ph->init_from ? ", then init" : "");
	fprintf(f, "%-10s %15s %8s %8s %8s %8s\n", "phase", "start_s",
		"allocs", "alloc", "frees", "freed");
	text_row(f, "(before)", "-", &ph->before);
	for (i = 0; i < ph->phases->len; i++) {
		const struct sa_phase *p = &g_array_index(ph->phases,
							  struct sa_phase, i);
		char t[32];

		snprintf(t, sizeof(t), "%" U ".%06" U, p->start_ns / NS_S,
			 (p->start_ns % NS_S) / 1000);
		text_row(f, p->name, t, &p->c);
	}
	if (ph->init_from == SA_INIT_FINISH)
		fprintf(f, "# init: from the end of the last initcall of the "
			"levels' thread\n");
	else if (ph->init_from == SA_INIT_EXEC)
		fprintf(f, "# init: from the exec of the levels' thread\n");
	else
		fprintf(f, "# no initcall end or exec traced: the last level "
			"lasts to the end\n");
	if (ph->repeated || ph->out_of_order || ph->dropped)
		fprintf(f, "# levels: %" U " repeated, %" U " out of the "
			"kernel's order, %" U " past the first %d not kept\n",
			ph->repeated, ph->out_of_order, ph->dropped,
			SA_PHASES_MAX);
}

static void json_counts(JsonBuilder *b, const struct sa_phase_counts *c)
{
	sa_json_put_uint(b, "allocs", c->allocs);
	sa_json_put_uint(b, "alloc_bytes", c->alloc_bytes);
	sa_json_put_uint(b, "frees", c->frees);
	sa_json_put_uint(b, "freed_bytes", c->freed_bytes);
}

void sa_json_phases(struct sa_emit *e, const struct sa_phases *ph)
{
	JsonBuilder *b = e->jb;
	guint i;

	json_builder_set_member_name(b, "boot_phases");
	json_builder_begin_object(b);
	sa_json_put_uint(b, "levels", ph->levels);
	sa_json_put_str(b, "first_level", first_level(ph));
	sa_json_put_str(b, "init_from", sa_init_from_name(ph->init_from));
	sa_json_put_uint(b, "repeated", ph->repeated);
	sa_json_put_uint(b, "out_of_order", ph->out_of_order);
	sa_json_put_uint(b, "dropped", ph->dropped);
	json_builder_set_member_name(b, "before");
	json_builder_begin_object(b);
	json_counts(b, &ph->before);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "phases");
	json_builder_begin_array(b);
	for (i = 0; ph->phases && i < ph->phases->len; i++) {
		const struct sa_phase *p = &g_array_index(ph->phases,
							  struct sa_phase, i);

		json_builder_begin_object(b);
		sa_json_put_str(b, "name", p->name);
		sa_json_put_uint(b, "start_ns", p->start_ns);
		json_counts(b, &p->c);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void csv_row(FILE *f, const char *name, const char *start,
		    const struct sa_phase_counts *c)
{
	fputs("phase,", f);
	sa_csv_str(f, name);
	fprintf(f, ",%s,%" U ",%" U ",%" U ",%" U "\n", start, c->allocs,
		c->alloc_bytes, c->frees, c->freed_bytes);
}

void sa_csv_phases(struct sa_emit *e, const struct sa_phases *ph)
{
	FILE *f = e->out;
	guint i;

	if (!ph->levels)
		return;
	fprintf(f, "\nphase,name,start_ns,allocs,alloc_bytes,frees,"
		"freed_bytes\n");
	/* before the first level: no start of its own */
	csv_row(f, "(before)", "", &ph->before);
	for (i = 0; i < ph->phases->len; i++) {
		const struct sa_phase *p = &g_array_index(ph->phases,
							  struct sa_phase, i);
		char t[24];

		snprintf(t, sizeof(t), "%" U, p->start_ns);
		csv_row(f, p->name, t, &p->c);
	}
}
