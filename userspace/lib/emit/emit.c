// SPDX-License-Identifier: GPL-2.0
/*
 * The emitter dispatcher: the table of formats, and a report written in
 * one: its header, each selected section's writer, its footer.
 */
#include <errno.h>
#include <string.h>

#include "emit/emit.h"

/* The formats, by enum sa_format. */
static const struct sa_format_ops *const formats[] = {
	[SA_FMT_TEXT] = &sa_format_text,
	[SA_FMT_JSON] = &sa_format_json,
	[SA_FMT_CSV] = &sa_format_csv,
	[SA_FMT_ACCOUNT] = &sa_format_account,
	[SA_FMT_HTML] = &sa_format_html,
	[SA_FMT_OPENMETRICS] = &sa_format_openmetrics,
	[SA_FMT_PROMETHEUS] = &sa_format_prometheus,
	[SA_FMT_FOLDED] = &sa_format_folded,
};

int sa_format_parse(const char *s, enum sa_format *fmt)
{
	unsigned int i;

	for (i = 0; i < G_N_ELEMENTS(formats); i++)
		if (!strcmp(s, formats[i]->name)) {
			*fmt = i;
			return 0;
		}
	return -1;
}

int sa_emit_report(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_format_ops *f = formats[e->fmt];
	int i;

	if (f->begin && f->begin(e, rep))
		return -1;
	for (i = 0; f->sections && i < SA_SEC_NR; i++)
		if ((rep->sections & SA_SECBIT(i)) && rep->result[i])
			f->sections[i](e, rep, rep->result[i]);
	if (f->end && f->end(e, rep))
		return -1;
	if (fflush(e->out) || ferror(e->out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
