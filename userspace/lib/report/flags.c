// SPDX-License-Identifier: GPL-2.0
/*
 * Flag fields rendered with the event's print format: a record holding
 * only that value is printed by libtraceevent and the field's text is
 * taken from "name=TEXT", or, where the format labels the field with a
 * shorter name (mm_vmscan_lru_shrink_inactive prints its reclaim_flags
 * as "flags="), from the label that is the end of the name after an '_'.
 */
#include <string.h>

#include <event-parse.h>

#include "report/flags.h"

#define FAKE_SIZE 512

/* The text after "label=" at the start of s or after a space, or NULL. */
static const char *after_label(const char *s, const char *label)
{
	size_t n = strlen(label);
	const char *p = s;

	while ((p = strstr(p, label))) {
		if ((p == s || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
		p++;
	}
	return NULL;
}

/* v as a size-byte number at p, in the trace's byte order. */
static void put_num(char *p, int size, guint64 v, bool big)
{
	int i;

	for (i = 0; i < size; i++)
		p[big ? size - 1 - i : i] = (v >> (8 * i)) & 0xff;
}

/* The field's text in an event printed as "a=1 flags=X ...". */
static char *field_text(const char *printed, const char *name)
{
	const char *label = name, *p = NULL;

	while (label && !(p = after_label(printed, label))) {
		label = strchr(label, '_');
		if (label)
			label++;
	}
	return p ? g_strndup(p, strcspn(p, " ")) : NULL;
}

/* The event printed from a record with only field set to value. */
static char *print_with(struct sa_report *rep, enum sa_ev ev, int field,
			guint64 value, const char *label)
{
	const struct sa_event_desc *row;
	struct tep_format_field *f, *ct;
	struct tep_record rec = { 0 };
	struct tep_event *e = NULL;
	char buf[FAKE_SIZE], *out = NULL;
	struct trace_seq s;

	for (row = sa_event_table(); rep->tep && row->name && !e; row++)
		if (row->ev == ev && row->fields[field].name)
			e = tep_find_event_by_name(rep->tep, row->system,
						   row->name);
	if (!e)
		return NULL;
	row--;
	f = tep_find_field(e, row->fields[field].name);
	ct = tep_find_common_field(e, "common_type");
	if (!f || !ct || f->offset + f->size > FAKE_SIZE || f->size > 8 ||
	    ct->offset + ct->size > FAKE_SIZE || ct->size > 8)
		return NULL;
	memset(buf, 0, sizeof(buf));
	/* as the trace's kernel wrote them: its byte order, not ours */
	put_num(buf + ct->offset, ct->size, e->id,
		tep_is_file_bigendian(rep->tep));
	put_num(buf + f->offset, f->size, value,
		tep_is_file_bigendian(rep->tep));
	rec.data = buf;
	rec.size = sizeof(buf);
	trace_seq_init(&s);
	tep_print_event(rep->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.buffer)
		out = field_text(s.buffer, label ? label : f->name);
	trace_seq_destroy(&s);
	if (out && !*out)
		g_clear_pointer(&out, g_free);
	return out;
}

char *sa_report_flags(struct sa_report *rep, enum sa_ev ev, int field,
		      guint64 value)
{
	char *out = print_with(rep, ev, field, value, NULL);

	return out ? out : g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
					   value);
}

char *sa_report_print_label(struct sa_report *rep, enum sa_ev ev, int field,
			    guint64 value, const char *label)
{
	return print_with(rep, ev, field, value, label);
}
